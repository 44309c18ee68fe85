"""The oracle of the PyYAML tests: reads a JSON list of requests on standard input and answers each with what the
real PyYAML gives, as one JSON list on standard output.

A request is {"text": ..., "loader": L}: L is "safe" (yaml.SafeLoader, pure Python: cloud-init's yaml.safe_load),
"csafe" (yaml.CSafeLoader, libyaml) or "salt" (libyaml with the constructor rules of Salt's SaltYamlSafeLoader:
unsigned ints lose their leading zeros, timestamps stay strings, a repeated key is an error, and a `<<` entry
whose key is also written in the mapping is dropped before that check, as Salt's own flatten_mapping drops it).

An answer is the loaded value in a typed JSON form ({"$int": "10"}, {"$float": "1.5"}, {"$map": [[k, v], ...]},
{"$set": [...]}, {"$bytes": base64}, {"$date": iso}, {"$datetime": iso}) or {"$error": exception class name}.
A first request {"info": true} answers the versions in use.
"""
import base64
import datetime
import json
import sys

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, SequenceNode

if hasattr(sys, "set_int_max_str_digits"):
    # Only for writing answers: loading still runs under the limit, which is part of what is compared.
    MAX_DIGITS = sys.get_int_max_str_digits()
else:
    MAX_DIGITS = 0


class SaltLikeLoader(yaml.CSafeLoader):
    """libyaml's scanner and parser with the constructor rules of Salt's loader that differ from SafeLoader."""

    def construct_scalar(self, node):
        if node.tag == "tag:yaml.org,2002:int" and node.value != "0":
            if node.value.startswith("0") and not node.value.startswith(("0b", "0x")):
                node.value = node.value.lstrip("0") or "0"
        return super().construct_scalar(node)

    def construct_mapping(self, node, deep=False):
        if not isinstance(node, MappingNode):
            raise ConstructorError(None, None, "expected a mapping node", node.start_mark)
        self.flatten_mapping(node)
        mapping = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            hash(key)
            if key in mapping:
                raise ConstructorError(None, None, "found conflicting ID", key_node.start_mark)
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


    def flatten_mapping(self, node):
        # Salt's rule, in Salt's steps, as a mapping may merge itself: each `<<` entry leaves node.value where it
        # stands (a self-merge sees the mapping without it), the mappings it names are flattened and their entries
        # gathered as they stand then (a list's mappings last first); of those, any whose key node has the same text
        # as a key left in this mapping is dropped, and the rest go first.
        merged = []
        at = 0
        while at < len(node.value):
            key_node, value_node = node.value[at]
            if key_node.tag != "tag:yaml.org,2002:merge":
                if key_node.tag == "tag:yaml.org,2002:value":
                    key_node.tag = "tag:yaml.org,2002:str"
                at += 1
                continue
            del node.value[at]
            if isinstance(value_node, MappingNode):
                self.flatten_mapping(value_node)
                merged.extend(value_node.value)
            elif isinstance(value_node, SequenceNode):
                lists = []
                for source in value_node.value:
                    if not isinstance(source, MappingNode):
                        raise ConstructorError(None, None, "expected a mapping for merging", source.start_mark)
                    self.flatten_mapping(source)
                    lists.append(source.value)
                for entries in reversed(lists):
                    merged.extend(entries)
            else:
                raise ConstructorError(None, None, "expected a mapping or list of mappings for merging",
                                       value_node.start_mark)
        if merged:
            written = [key_node.value for key_node, _ in node.value]
            node.value = [entry for entry in merged if entry[0].value not in written] + node.value


SaltLikeLoader.add_constructor("tag:yaml.org,2002:timestamp", SaltLikeLoader.construct_scalar)
SaltLikeLoader.add_constructor("tag:yaml.org,2002:python/unicode", SaltLikeLoader.construct_scalar)

LOADERS = {"safe": yaml.SafeLoader, "csafe": yaml.CSafeLoader, "salt": SaltLikeLoader}


def typed(value):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if MAX_DIGITS:
            sys.set_int_max_str_digits(0)
        try:
            return {"$int": str(value)}
        finally:
            if MAX_DIGITS:
                sys.set_int_max_str_digits(MAX_DIGITS)
    if isinstance(value, float):
        return {"$float": repr(value)}
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, datetime.datetime):
        return {"$datetime": value.isoformat(" ")}
    if isinstance(value, datetime.date):
        return {"$date": value.isoformat()}
    if isinstance(value, (list, tuple)):
        return [typed(item) for item in value]
    if isinstance(value, dict):
        return {"$map": [[typed(k), typed(v)] for k, v in value.items()]}
    if isinstance(value, set):
        return {"$set": sorted(json.dumps(typed(item), sort_keys=True) for item in value)}
    return {"$error": "unrepresentable " + type(value).__name__}


def answer(request):
    if request.get("info"):
        return {"pyyaml": yaml.__version__, "libyaml": yaml.__with_libyaml__, "python": sys.version.split()[0]}
    try:
        return typed(yaml.load(request["text"], Loader=LOADERS[request["loader"]]))
    except Exception as error:  # any failure of the real loader is a refusal to compare with
        return {"$error": type(error).__name__}


def main():
    requests = json.load(sys.stdin)
    json.dump([answer(request) for request in requests], sys.stdout, ensure_ascii=True)


main()
