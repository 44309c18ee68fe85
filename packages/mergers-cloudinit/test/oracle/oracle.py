# Runs the cases of generate.mjs through the real cloud-init (on PYTHONPATH) and prints their results as typed JSON
# (typed.py), so the tests compare ints and floats, key types and key order exactly.
import json, sys, os, tempfile, logging
logging.disable(logging.CRITICAL)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from typed import encode, decode
from cloudinit.handlers import cloud_config, CONTENT_START, CONTENT_END
from cloudinit import handlers, user_data, mergers

class Paths:
    def get_ipath(self, name=None): return None
    def get_ipath_cur(self, name=None): return "/tmp"
    def get_cpath(self, name=None): return "/tmp"

def run_parts(parts, written_path):
    h = cloud_config.CloudConfigPartHandler(Paths())
    h.cloud_fn = written_path
    h.handle_part(None, CONTENT_START, None, None, None, None)
    for i, p in enumerate(parts):
        ctype = p.get("type") or handlers.type_from_starts_with(p["text"]) or "text/cloud-config"
        if ctype not in ("text/cloud-config", "text/cloud-config-jsonp"): ctype = "text/cloud-config"
        headers = {}
        for k, v in p.get("headers", []):
            # dict(part) semantics: name as written -> first value of that name in any case
            if k not in headers:
                headers[k] = next(vv for kk, vv in p["headers"] if kk.lower() == k.lower())
        h.handle_part(None, ctype, p.get("name", "part-%03d" % (i + 1)), p["text"], None, headers)
    buf = h.cloud_buf
    names = list(h.file_names)
    h.handle_part(None, CONTENT_END, None, None, None, None)
    return buf, names

def run_userdata(raw, written_path):
    proc = user_data.UserDataProcessor(Paths())
    msg = proc.process(raw.encode("utf-8") if isinstance(raw, str) else raw)
    h = cloud_config.CloudConfigPartHandler(Paths())
    h.cloud_fn = written_path
    h.handle_part(None, CONTENT_START, None, None, None, None)
    def cb(data, filename, payload, headers):
        ctype = headers["Content-Type"]
        if ctype in ("text/cloud-config", "text/cloud-config-jsonp"):
            h.handle_part(None, ctype, filename, payload, None, headers)
    handlers.walk(msg, cb, None)
    buf = h.cloud_buf
    names = list(h.file_names)
    h.handle_part(None, CONTENT_END, None, None, None, None)
    return buf, names

def merge_values(spec, base, incoming):
    m = mergers.construct(spec if isinstance(spec, list) else mergers.string_extract_mergers(spec))
    return m.merge(base, incoming)

out = []
req = json.load(sys.stdin)
for case in req:
    fd, path = tempfile.mkstemp(); os.close(fd)
    try:
        if case["kind"] in ("parts", "yaml"):
            buf, names = run_parts(case["parts"], path)
        elif case["kind"] == "userdata":
            buf, names = run_userdata(case["raw"], path)
        else:
            try:
                res = merge_values(case["spec"], decode(case["base"]), decode(case["incoming"]))
                out.append({"value": encode(res)})
            except Exception as e:
                out.append({"error": type(e).__name__})
            continue
        with open(path) as f: written = f.read()
        out.append({"value": encode(buf), "names": names, "written": written})
    except Exception as e:
        out.append({"crash": repr(e)})
    finally:
        os.unlink(path)
print(json.dumps(out))
