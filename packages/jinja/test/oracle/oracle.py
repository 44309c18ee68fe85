"""Renders template cases with the real Jinja2, set up the way Salt's PillarStack sets it up.

Reads a JSON list of cases on stdin ({"template", "vars", "yaml", "files", "stack"}) and writes a JSON list of
results ({"out": text} or {"error": "Type: message", "kind": "syntax" | "render"}). "yaml" is a YAML mapping read with
yaml.safe_load whose entries are more variables: the Python values JSON cannot carry (floats such as 9.0, int keys,
key order). Salt itself is not installable here
(no Debian package, no PyPI), so the parts of Salt a PillarStack template sees are stood in for below, each
written from what Salt documents and does:
- the environment: FileSystemLoader on the config's directory, the `do` extension, autoescape off;
- Salt's finalizer, which prints a mapping with repr() for its text values and str() for the others;
- the serializer extension's tags (import_/load_ yaml, json, text) and filters (json, yaml, python, xml, load_*);
- `__salt__` with `test.arg` (returns its arguments) and `pillar.get`, `__stack__.traverse` and the `traverse`
  filter (Salt's traverse_dict_and_list: `a:b:0` paths, dicts inside lists, a step that is no key read again as
  YAML so that `ports:8080` finds an int key).
Everything else is Jinja's own code. Run by generate.mjs; the tests read only the fixture it writes.
"""

import json
import os
import pprint
import sys
import tempfile
from xml.dom import minidom
from xml.etree.ElementTree import Element, SubElement, tostring

import jinja2
import yaml
from jinja2 import Environment, FileSystemLoader, nodes
from jinja2.environment import TemplateModule
from jinja2.exceptions import TemplateRuntimeError, TemplateSyntaxError
from jinja2.ext import Extension
from markupsafe import Markup


class Printable(dict):
    """How Salt's finalizer prints a mapping: text values by repr(), other values by str()."""

    def __str__(self):
        parts = []
        for key, value in self.items():
            shown = repr(value) if isinstance(value, str) else str(value)
            parts.append("%r: %s" % (key, shown))
        return "{" + ", ".join(parts) + "}"

    def __repr__(self):
        return "{" + ", ".join("%r: %r" % kv for kv in self.items()) + "}"


def finalize(value):
    if isinstance(value, dict):
        return Printable((k, finalize(v)) for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        return value.__class__(finalize(v) for v in value)
    return value


def as_text(value):
    return str(value) if isinstance(value, TemplateModule) else value


def load_json(value):
    try:
        return json.loads(as_text(value))
    except (ValueError, TypeError, AttributeError) as exc:
        raise TemplateRuntimeError("Unable to load json: %s" % exc)


def load_yaml(value):
    try:
        return yaml.safe_load(as_text(value))
    except yaml.YAMLError as exc:
        raise TemplateRuntimeError("Encountered error loading yaml: %s" % exc)


def xml_filter(value):
    """Salt's format_xml, restated: the element tree it builds, through ElementTree and minidom."""

    def items_of(v):
        if isinstance(v, (list, tuple)):
            return v if isinstance(v[0], str) else []
        if isinstance(v, dict):
            return list(v.items())
        raise TemplateRuntimeError("Value is not a dict or list. Cannot render as XML")

    def add(pairs, parent=None):
        made = None
        for tag, body in pairs:
            if isinstance(body, list):
                for each in body:
                    add(((tag, each),), parent)
            elif parent is None:
                made = Element(tag)
            else:
                made = SubElement(parent, tag)
            if isinstance(body, (str, int, bool, float)):
                made.text = str(body)
                continue
            if isinstance(body, dict):
                made.attrib = {k: str(v) for k, v in body.items() if not isinstance(v, (dict, list))}
            for child in [p for p in items_of(body) if isinstance(p[1], (dict, list))]:
                add((child,), made)
        return made

    return Markup(minidom.parseString(tostring(add(items_of(value)))).toprettyxml(indent=" "))


class SaltSerializers(Extension):
    """The tags of Salt's serializer extension: `import_json "f" as x`, `load_json as x ... endload`."""

    tags = {"import_yaml", "import_json", "import_text", "load_yaml", "load_json", "load_text"}

    def parse(self, parser):
        tag = parser.stream.current.value
        kind = tag.split("_", 1)[1]
        if tag.startswith("import_"):
            imported = parser.parse_import()
            lineno = imported.lineno
            value = nodes.Filter(nodes.Name(imported.target, "load"), "load_" + kind, [], [], None, None)
            store = nodes.Assign(nodes.Name(imported.target, "store"), value)
            return [imported, store.set_lineno(lineno)]
        lineno = next(parser.stream).lineno
        parser.stream.expect("name:as")
        target = parser.parse_assign_target()
        body_name = "_" + parser.free_identifier().name
        body = parser.parse_statements(("name:endload",), drop_needle=True)
        call = nodes.Call(nodes.Name(body_name, "load"), [], [], None, None)
        value = nodes.Filter(call, "load_" + kind, [], [], None, None)
        return [
            nodes.Macro(body_name, [], [], body).set_lineno(lineno),
            nodes.Assign(target, value).set_lineno(lineno),
        ]


def yaml_key(step):
    """Salt's yamlify_arg of a path step (the cases it declines give the step back)."""
    if not isinstance(step, str) or step.strip() in ("", "---", "..."):
        return step
    if "_" in step and all(c in "0123456789_" for c in step.strip()):
        return step
    if any(c in step for c in "\t\r\n"):
        return step
    try:
        if "#" in step:
            loaded = yaml.safe_load(step)
            return step if isinstance(loaded, str) or loaded is None else loaded
        loaded = None if step == "None" else yaml.safe_load(step)
        if isinstance(loaded, dict):
            return loaded if step.startswith("{") else step
        if isinstance(loaded, list):
            return loaded if step.startswith("[") else step
        if loaded is None or isinstance(loaded, (float, int, str)):
            if loaded == "" and step in ("|", "!"):
                return step
            if loaded is None and (step.strip().startswith("#") or step == "!"):
                return step
            return loaded
        return step
    except Exception:  # anything the loader refuses stays the step
        return step


def traverse(data, key, default=None, delimiter=":"):
    """Salt's traverse_dict_and_list, restated."""
    ptr = data
    steps = key.split(delimiter) if isinstance(key, str) else [key] if isinstance(key, int) else key
    for step in steps:
        if isinstance(ptr, list):
            try:
                index = int(step)
            except ValueError:
                index = None
            lookup = step if index is None else index
            for item in ptr:
                if isinstance(item, dict) and lookup in item:
                    ptr = item[lookup]
                    break
            else:
                if index is None:
                    return default
                try:
                    ptr = ptr[index]
                except IndexError:
                    return default
        else:
            try:
                ptr = ptr[step]
            except KeyError:
                loaded = yaml_key(step)
                if loaded == step:
                    return default
                try:
                    ptr = ptr[loaded]
                except (KeyError, TypeError):
                    return default
            except TypeError:
                return default
    return ptr


class SaltDumper(yaml.CSafeDumper):
    """Salt's SafeOrderedDumper (libyaml's emitter): values it has no representer for are written as NULL."""


SaltDumper.add_representer(None, lambda dumper, data: dumper.represent_scalar("tag:yaml.org,2002:null", "NULL"))


def yaml_filter(value, flow_style=True):
    text = yaml.dump(value, Dumper=SaltDumper, allow_unicode=True, default_flow_style=flow_style).strip()
    if text.endswith("\n..."):
        text = text[:-4]
    return Markup(text)


def make_env(base, pillar):
    env = Environment(loader=FileSystemLoader(base), extensions=["jinja2.ext.do", SaltSerializers])
    env.finalize = finalize
    env.filters.update(
        {
            "json": lambda v, sort_keys=True, indent=None: Markup(
                json.dumps(v, sort_keys=sort_keys, indent=indent, ensure_ascii=False).strip()
            ),
            "yaml": yaml_filter,
            "python": lambda v: Markup(pprint.pformat(v).strip()),
            "traverse": lambda v, key, default=None, delimiter=":": traverse(v, key, default, delimiter),
            "xml": xml_filter,
            "load_json": load_json,
            "load_yaml": load_yaml,
            "load_text": as_text,
        }
    )

    def pillar_get(key, default="", merge=False, merge_nested_lists=None, delimiter=":"):
        return traverse(pillar, key, default, delimiter)

    env.globals["__salt__"] = {
        "test.arg": lambda *args, **kwargs: {"args": args, "kwargs": kwargs},
        "pillar.get": pillar_get,
    }
    env.globals["__stack__"] = {"traverse": traverse}
    return env


def run(case):
    with tempfile.TemporaryDirectory() as base:
        for name, text in (case.get("files") or {}).items():
            path = os.path.join(base, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        variables = dict(case.get("vars") or {})
        variables.update(yaml.safe_load(case.get("yaml") or "{}"))
        stack = variables.pop("stack", case.get("stack", {}))
        env = make_env(base, variables.get("pillar", {}))
        env.globals.update(variables)
        try:
            template = env.from_string(case["template"])
        except TemplateSyntaxError as exc:
            return {"error": "TemplateSyntaxError: %s" % exc, "kind": "syntax"}
        try:
            return {"out": template.render(stack=stack)}
        except TemplateSyntaxError as exc:
            return {"error": "TemplateSyntaxError: %s" % exc, "kind": "syntax"}
        except RecursionError as exc:
            return {"error": "RecursionError: %s" % exc, "kind": "render"}
        except Exception as exc:  # every failure is a result to compare
            return {"error": "%s: %s" % (type(exc).__name__, exc), "kind": "render"}


def main():
    cases = json.load(sys.stdin)
    results = [run(c) for c in cases]
    json.dump(
        {"jinja2": jinja2.__version__, "python": sys.version.split()[0], "results": results},
        sys.stdout,
        ensure_ascii=False,
    )


if __name__ == "__main__":
    main()
