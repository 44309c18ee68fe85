# Runs the conf.d trees of confd-generate.mjs through the real cloud-init: each tree is written to a fresh directory,
# which becomes the working directory, and util.read_conf_with_confd(case["file"]) reads it (with
# instance_data_file= when the case has instance data). Prints, per case, the result as typed JSON (typed.py), or the
# name and message of the exception cloud-init stops with.
# Needs Debian's python3-yaml and python3-jinja2, and cloud-init on PYTHONPATH.
import base64
import json
import logging
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from typed import encode  # noqa: E402
from cloudinit import util  # noqa: E402


class Count(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.n = 0

    def emit(self, record):
        self.n += 1


counter = Count()
logging.getLogger("cloudinit").addHandler(counter)
logging.getLogger("cloudinit").setLevel(logging.WARNING)


def build(root, entries):
    for entry in entries:
        path = os.path.join(root, entry["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if entry["kind"] == "dir":
            os.makedirs(path, exist_ok=True)
        elif entry["kind"] == "symlink":
            os.symlink(entry["target"], path)
        else:
            with open(path, "wb") as f:
                f.write(base64.b64decode(entry["content"]))


out = []
start = os.getcwd()
for case in json.load(sys.stdin):
    root = tempfile.mkdtemp()
    try:
        build(root, case["tree"])
        os.chdir(root)
        kwargs = {}
        if "instanceData" in case:
            with open("instance-data.json", "w") as f:
                f.write(case["instanceData"])
            kwargs["instance_data_file"] = os.path.join(root, "instance-data.json")
        counter.n = 0
        try:
            res = util.read_conf_with_confd(case["file"], **kwargs)
            out.append({"value": encode(res), "warnings": counter.n})
        except Exception as e:  # noqa: BLE001 - what cloud-init stops with is the answer
            out.append({"crash": type(e).__name__, "message": str(e).replace(root, "<root>")})
    finally:
        os.chdir(start)
        shutil.rmtree(root)
print(json.dumps(out))
