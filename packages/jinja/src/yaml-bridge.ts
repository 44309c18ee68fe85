// YAML for the serializer tags and filters, through @merge/yaml: Salt's loader, and PyYAML's dumper and scalar
// quoting as Salt's filters call them.
import { checkTree, getItem, isMapping, mappingKeys, PyDict, PyFloat } from "@merge/core";
import { dumpYaml, loadYaml, yamlDoubleQuote, yamlEncode, yamlSingleQuote } from "@merge/yaml";
import { TemplateProblem } from "./errors.js";
import { PyTuple, pyBool, pyRepr, pyStr, pyTypeName } from "./pyvalues.js";

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
  const style =
    flowStyle === undefined ? "flow" : flowStyle === null ? "auto" : pyBool(flowStyle) ? "flow" : "block";
  return dumpYaml(withNulls(value, new Map()), { preset: "salt", style });
}

/**
 * `value` with what Salt's dumper writes as `NULL` in place: PyYAML's safe representers go by a value's exact type,
 * and Salt's dumper gives every type they lack its `NULL` (an undefined value, Markup text such as a `|json` result,
 * a dict view, a range, a set's or list's subclasses such as `groupby`'s items, macros and other objects). Values
 * the dumper knows come back as they are; a container is copied only when something inside it changes, once for all
 * its occurrences (`value` is free of cycles).
 */
function withNulls(value: unknown, done: Map<object, unknown>): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "function") return undefined;
  if (typeof value !== "object") return value;
  if (done.has(value)) return done.get(value);
  let out: unknown = value;
  if (Array.isArray(value)) {
    const exact = value.constructor === Array || value.constructor === PyTuple;
    if (!exact) out = undefined;
    else {
      const items = value.map((item) => withNulls(item, done));
      if (items.some((item, i) => item !== value[i]))
        out = value instanceof PyTuple ? PyTuple.of_(items) : items;
    }
  } else if (isMapping(value)) {
    const keys = mappingKeys(value);
    const values = keys.map((k) => getItem(value, k));
    const replaced = values.map((v) => withNulls(v, done));
    if (replaced.some((v, i) => v !== values[i])) {
      out = new PyDict(keys.map((k, i) => [k, replaced[i]] as const));
    }
  } else if (
    !(
      value instanceof PyFloat ||
      value instanceof Uint8Array ||
      value instanceof Date ||
      value instanceof Set ||
      value instanceof Map
    )
  ) {
    out = undefined;
  }
  done.set(value, out);
  return out;
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
  // PyYAML's SafeRepresenter makes a collection node of these (which Salt refuses), and has no representer at all
  // for the types it does not know (Markup text, an undefined value, a view, a range, other objects).
  if (Array.isArray(value) || isMapping(value) || value instanceof Set) {
    const exact = !Array.isArray(value) || value.constructor === Array || value.constructor === PyTuple;
    if (exact)
      throw new TemplateProblem(
        `TypeError: yaml_encode() only works with YAML scalar data; failed for <class '${pyTypeName(value)}'>`,
      );
  }
  const known =
    value === null ||
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "bigint" ||
    typeof value === "boolean" ||
    value instanceof PyFloat ||
    value instanceof Uint8Array;
  if (!known) throw new TemplateProblem(`RepresenterError: ('cannot represent an object', ${pyRepr(value)})`);
  try {
    return yamlEncode(value);
  } catch (e) {
    throw new TemplateProblem(`TypeError: ${(e as Error).message}`, { cause: e });
  }
}
