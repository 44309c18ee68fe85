# Runs the user-data of jinja-generate.mjs through the real cloud-init: its UserDataProcessor, then handlers.walk with
# the handlers cloud-init registers for user-data that matter here — the cloud-config handler and the jinja template
# handler (whose sub-handlers are that cloud-config handler and a shell-script handler) — with the case's instance
# data as /run/cloud-init/instance-data-sensitive.json. Prints, per case, the merged configuration as typed JSON
# (typed.py), the names of the merged parts, cloud-config.txt as written, and the warnings cloud-init logged.
# Needs Debian's python3-yaml, python3-jinja2 and python3-jsonpatch, and cloud-init on PYTHONPATH.
import json
import logging
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from typed import encode  # noqa: E402
from cloudinit import handlers, user_data  # noqa: E402
from cloudinit.handlers import CONTENT_END, CONTENT_START, cloud_config  # noqa: E402
from cloudinit.handlers.jinja_template import JinjaTemplatePartHandler  # noqa: E402
from cloudinit.settings import PER_INSTANCE  # noqa: E402


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage().split("\n")[0])


warnings = Warnings()
logging.getLogger("cloudinit").addHandler(warnings)
logging.getLogger("cloudinit").setLevel(logging.WARNING)


class Paths:
    def __init__(self, run):
        self.run = run

    def get_ipath(self, name=None):
        return None

    def get_ipath_cur(self, name=None):
        return self.run

    def get_cpath(self, name=None):
        return self.run

    def get_runpath(self, name=None):
        return os.path.join(self.run, "instance-data-sensitive.json")


class ShellScripts(handlers.Handler):
    """Stands for cloud-init's shell-script handler: records what reached it."""

    def __init__(self):
        handlers.Handler.__init__(self, "always", version=2)
        self.seen = []

    def list_types(self):
        return ["text/x-shellscript"]

    def handle_part(self, data, ctype, filename, payload, frequency):
        if ctype not in handlers.CONTENT_SIGNALS:
            self.seen.append(filename)


def run(case, run_dir):
    paths = Paths(run_dir)
    if case.get("instanceData") is not None:
        with open(paths.get_runpath(), "w") as f:
            f.write(case["instanceData"])
    written = os.path.join(run_dir, "cloud-config.txt")
    cc = cloud_config.CloudConfigPartHandler(paths)
    cc.cloud_fn = written
    shell = ShellScripts()
    jinja = JinjaTemplatePartHandler(paths, sub_handlers=[cc, shell])
    table = {}
    for handler in (cc, jinja, shell):
        for ctype in handler.list_types():
            table[ctype] = handler
    proc = user_data.UserDataProcessor(paths)
    msg = proc.process(case["raw"].encode("utf-8"))
    cc.handle_part(None, CONTENT_START, None, None, None, None)
    data = {"handlers": table, "excluded": [], "data": None, "frequency": PER_INSTANCE, "handlercount": 0}
    handlers.walk(msg, handlers.walker_callback, data)
    buf = cc.cloud_buf
    names = list(cc.file_names)
    cc.handle_part(None, CONTENT_END, None, None, None, None)
    with open(written) as f:
        text = f.read()
    return {"value": encode(buf), "names": names, "written": text, "scripts": shell.seen}


out = []
for case in json.load(sys.stdin):
    run_dir = tempfile.mkdtemp()
    warnings.messages = []
    try:
        result = run(case, run_dir)
        result["warnings"] = list(warnings.messages)
        out.append(result)
    except Exception as e:  # noqa: BLE001 - what cloud-init stops with is the answer
        out.append({"crash": type(e).__name__, "message": str(e)})
    finally:
        shutil.rmtree(run_dir)
print(json.dumps(out))
