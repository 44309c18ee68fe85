// YAML for the serializer tags and filters, through @merge/yaml: Salt's loader, and PyYAML's dumper and scalar
// quoting as Salt's filters call them.
import { checkTree, getItem, isMapping, mappingKeys } from "@merge/core";
import { dumpYaml, loadYaml, yamlDoubleQuote, yamlEncode, yamlSingleQuote } from "@merge/yaml";
import { TemplateProblem } from "./errors.js";
import { DictView, PyRange, pyBool, pyRepr, pyStr } from "./pyvalues.js";

/** Salt's YAML loader, into the exact model (`PyDict` mappings, whole floats as `PyFloat`), as templates compute. */
export function loadSaltYaml(text: string, filename: string): unknown {
  return loadYaml(text, { flavor: "salt", filename, values: "exact" });
}

/**
 * Salt's `|yaml(flow_style=True)`: `safe_dump(value, default_flow_style=flow_style)`, stripped, without `...`.
 * `True` gives flow style, `None` flow style for collections of scalars only, anything false block style.
 */
export function saltYamlFilter(value: unknown, flowStyle: unknown): string {
  // A value that contains itself (PyYAML would write anchors) is refused here rather than recursed into.
  try {
    checkTree(value);
  } catch (e) {
    throw new TemplateProblem(`ValueError: cannot write this value as YAML: ${(e as Error).message}`);
  }
  const view = findUnrepresentable(value);
  // PyYAML's SafeDumper has no representer for a dict view (`d.keys()`) or a range.
  if (view !== undefined)
    throw new TemplateProblem(`RepresenterError: ('cannot represent an object', ${pyRepr(view)})`);
  const style =
    flowStyle === undefined ? "flow" : flowStyle === null ? "auto" : pyBool(flowStyle) ? "flow" : "block";
  return dumpYaml(value, { preset: "salt", style });
}

/** The first dict view or range inside `value` (checked free of cycles), if any. */
function findUnrepresentable(value: unknown): DictView | PyRange | undefined {
  if (value instanceof DictView || value instanceof PyRange) return value;
  const items = Array.isArray(value)
    ? value
    : isMapping(value)
      ? mappingKeys(value).map((k) => getItem(value, k))
      : undefined;
  if (items === undefined) return undefined;
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const found = findUnrepresentable(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `yaml_dquote`: PyYAML's double-quoted scalar (its default emitter: non-ASCII escaped). */
export function saltYamlDquote(value: unknown): string {
  return yamlDoubleQuote(pyStr(value));
}

/** `yaml_squote`: PyYAML's single-quoted scalar. */
export function saltYamlSquote(value: unknown): string {
  return yamlSingleQuote(pyStr(value));
}

/** `yaml_encode`: a scalar as PyYAML represents it, strings double-quoted; collections are an error. */
export function saltYamlEncode(value: unknown): string {
  try {
    return yamlEncode(value);
  } catch (e) {
    throw new TemplateProblem(`TypeError: ${(e as Error).message}`, { cause: e });
  }
}
