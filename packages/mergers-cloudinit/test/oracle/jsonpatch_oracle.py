# Applies the cases of jsonpatch-generate.mjs with the real cloud-init handler (its _merge_patch: lstrip, strip the
# exact #cloud-config-jsonp prefix, jsonpatch.JsonPatch.from_string(...).apply(cloud_buf, in_place=False)) and prints
# each result as typed JSON (typed.py), or the name of the exception that made cloud-init ignore the part.
# Needs Debian's python3-yaml and python3-jsonpatch, and cloud-init on PYTHONPATH.
import json
import logging
import os
import sys

logging.disable(logging.CRITICAL)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from typed import encode  # noqa: E402
from cloudinit import safeyaml  # noqa: E402
from cloudinit.handlers import cloud_config  # noqa: E402
import jsonpatch  # noqa: E402
import jsonpointer  # noqa: E402


class Paths:
    def get_ipath(self, name=None):
        return None


out = []
for case in json.load(sys.stdin):
    doc = safeyaml.load(case["doc"])
    before = encode(doc)
    handler = cloud_config.CloudConfigPartHandler(Paths())
    handler.cloud_buf = doc
    try:
        handler._merge_patch(case["patch"])
        result = {"value": encode(handler.cloud_buf)}
    except Exception as e:  # cloud-init logs any exception and ignores the part
        result = {"error": type(e).__name__}
    if encode(doc) != before:
        result["docChanged"] = True
    out.append(result)
print(json.dumps({"jsonpatch": jsonpatch.__version__, "jsonpointer": jsonpointer.__version__, "results": out}))
