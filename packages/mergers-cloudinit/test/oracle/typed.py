# Typed JSON for oracle fixtures: a value as Python holds it, with what plain JSON loses kept explicit, so the tests
# compare int vs float, key types and key order exactly. Mirrored by typed.ts.
#   None, bool, str      as JSON
#   int                  a JSON number within 2**53, else {"$int": "digits"}
#   float                {"$float": repr(x)}            ("1.0", "1e+22", "nan", "-inf")
#   list                 a JSON array                   (tuple: {"$tuple": [...]})
#   dict                 {"$dict": [[key, value], ...]} in insertion order, keys encoded the same way
#   datetime / date      {"$datetime": isoformat()} / {"$date": isoformat()}
#   bytes                {"$bytes": hex}
#   set                  {"$set": [...]} sorted by the items' compact JSON
import datetime
import json

SAFE = 2**53


def encode(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v if -SAFE <= v <= SAFE else {"$int": str(v)}
    if isinstance(v, float):
        return {"$float": repr(v)}
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, tuple):
        return {"$tuple": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"$dict": [[encode(k), encode(x)] for k, x in v.items()]}
    if isinstance(v, datetime.datetime):
        return {"$datetime": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"$date": v.isoformat()}
    if isinstance(v, bytes):
        return {"$bytes": v.hex()}
    if isinstance(v, (set, frozenset)):
        items = [encode(x) for x in v]
        return {"$set": sorted(items, key=lambda x: json.dumps(x, separators=(",", ":"), ensure_ascii=False))}
    return {"$repr": repr(v)}


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if isinstance(v, dict):
        if "$int" in v:
            return int(v["$int"])
        if "$float" in v:
            return float(v["$float"])
        if "$dict" in v:
            out = {}
            for k, x in v["$dict"]:
                out[decode(k)] = decode(x)
            return out
        raise ValueError("cannot decode %r" % (v,))
    return v
