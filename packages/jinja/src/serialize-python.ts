// Python's json.dumps (as Salt's `|json` calls it) and pprint.pformat (`|python`), written out exactly, on both
// mapping representations: keys in their order, or sorted as Python sorts them (`|json` fails on keys that cannot
// be compared, as `sorted()` does; pprint orders those by type name, as its `_safe_key` does).
import {
  getItem,
  isMapping,
  type Mapping,
  type MappingKey,
  mappingKeys,
  PyFloat,
  pyFloatRepr,
} from "@merge/core";
import { TemplateProblem, typeError } from "./errors.js";
import { numberText } from "./numbers.js";
import { pyLess } from "./operators.js";
import { pySorted } from "./pysort.js";
import {
  DictView,
  isListLike,
  isSafeString,
  PyRange,
  PyTuple,
  pyRepr,
  pyStr,
  pyTypeName,
  strRepr,
} from "./pyvalues.js";

const same = <T>(x: T): T => x;

/** A mapping's keys as `sorted()` orders them (a TypeError for keys that cannot be compared). */
function sortedKeys(mapping: Mapping): MappingKey[] {
  return pySorted(mappingKeys(mapping), same, pyLess);
}

/** pprint's `_safe_key`: Python's `<`, and for values that cannot be compared, the names of their types. */
function safeLess(a: unknown, b: unknown): boolean {
  try {
    return pyLess(a, b);
  } catch (e) {
    if (!(e instanceof TemplateProblem)) throw e;
    return `<class '${pyTypeName(a)}'>` < `<class '${pyTypeName(b)}'>`;
  }
}

/** A mapping's keys as pprint orders them. */
function safeSortedKeys(mapping: Mapping): MappingKey[] {
  return pySorted(mappingKeys(mapping), same, safeLess);
}

/** How json.dumps names a key: strings as they are, numbers, booleans and None as JSON writes them. */
function jsonKey(key: MappingKey): string {
  if (typeof key === "string") return key;
  if (key === true) return "true";
  if (key === false) return "false";
  if (key === null) return "null";
  if (typeof key === "number" || typeof key === "bigint" || key instanceof PyFloat)
    return key instanceof PyFloat ? jsonFloat(key.value) : jsonNumber(key);
  throw typeError(`keys must be str, int, float, bool or None, not ${pyTypeName(key)}`);
}

function jsonString(s: string, asciiOnly = false): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i] as string;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c < 0x20) {
      if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch === "\b") out += "\\b";
      else if (ch === "\f") out += "\\f";
      else out += `\\u${c.toString(16).padStart(4, "0")}`;
    } else if (asciiOnly && c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function jsonFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Number.POSITIVE_INFINITY) return "Infinity";
  if (n === Number.NEGATIVE_INFINITY) return "-Infinity";
  return pyFloatRepr(n);
}

function jsonNumber(n: number | bigint): string {
  return typeof n === "number" && !Number.isSafeInteger(n) ? jsonFloat(n) : numberText(n);
}

export interface JsonOptions {
  readonly sortKeys?: boolean;
  readonly indent?: number | string | null;
  /** Python's default `ensure_ascii=True` (used by Jinja's `tojson`); Salt's `|json` writes non-ASCII raw. */
  readonly asciiOnly?: boolean;
  /**
   * Salt's `|json` (`salt.utils.json.dumps`, whose encoder class falls back to `str(obj)`): a value JSON has no form
   * for (an undefined value, a dict view, a range, a set, a macro) is written as the string of its `str()` instead
   * of being Python's TypeError. Keys are not affected.
   */
  readonly othersAsStr?: boolean;
}

/** `json.dumps(value, sort_keys=..., indent=..., ensure_ascii=False)`. */
export function pyJsonDumps(value: unknown, options: JsonOptions = {}): string {
  const sort = options.sortKeys !== false;
  const ascii = options.asciiOnly === true;
  const ind = options.indent;
  const unit =
    ind === null || ind === undefined
      ? undefined
      : typeof ind === "number"
        ? " ".repeat(Math.max(0, ind))
        : ind;
  const stack = new Set<unknown>();
  const enc = (v: unknown, depth: number): string => {
    switch (typeof v) {
      case "string":
        return jsonString(v, ascii);
      case "number":
      case "bigint":
        return jsonNumber(v);
      case "boolean":
        return v ? "true" : "false";
      case "undefined":
        if (options.othersAsStr === true) return jsonString("", ascii);
        throw new TemplateProblem("TypeError: Object of type Undefined is not JSON serializable");
      default:
        break;
    }
    if (v === null) return "null";
    if (v instanceof PyFloat) return jsonFloat(v.value);
    if (isSafeString(v)) return jsonString(v.val, ascii);
    if (stack.has(v)) throw new TemplateProblem("ValueError: Circular reference detected");
    const nl = unit === undefined ? "" : `\n${unit.repeat(depth + 1)}`;
    const end = unit === undefined ? "" : `\n${unit.repeat(depth)}`;
    const sep = unit === undefined ? ", " : ",";
    if (isListLike(v)) {
      if (v.length === 0) return "[]";
      stack.add(v);
      const parts = v.map((x) => enc(x, depth + 1));
      stack.delete(v);
      return `[${nl}${parts.join(sep + nl)}${end}]`;
    }
    if (isMapping(v)) {
      const keys = sort ? sortedKeys(v) : mappingKeys(v);
      if (keys.length === 0) return "{}";
      stack.add(v);
      const parts = keys.map((k) => `${jsonString(jsonKey(k), ascii)}: ${enc(getItem(v, k), depth + 1)}`);
      stack.delete(v);
      return `{${nl}${parts.join(sep + nl)}${end}}`;
    }
    if (options.othersAsStr === true) return jsonString(pyStr(v), ascii);
    const name =
      v instanceof DictView
        ? v.kind
        : v instanceof PyRange
          ? "range"
          : v instanceof Set
            ? "set"
            : v instanceof Map
              ? "Map"
              : v instanceof Date
                ? "datetime"
                : ((v as object).constructor?.name ?? "object");
    throw new TemplateProblem(`TypeError: Object of type ${name} is not JSON serializable`);
  };
  return enc(value, 0);
}

// ---- pprint.pformat(width=80, sort_dicts=True) ----

/** What pprint writes for a container met again inside itself (Python also gives its id, an address). */
function recursion(v: unknown): string {
  return `<Recursion on ${Array.isArray(v) ? (v instanceof PyTuple ? "tuple" : "list") : "dict"} with id=0>`;
}

function safeRepr(v: unknown, chain: Set<unknown> = new Set()): string {
  // A dict view or a range is no list to pprint: its own repr (a view's items in the dict's order).
  if (v instanceof DictView || v instanceof PyRange) return pyRepr(v);
  if (Array.isArray(v) || isMapping(v)) {
    if (chain.has(v)) return recursion(v);
    chain.add(v);
    let out: string;
    if (Array.isArray(v)) {
      const items = v.map((item) => safeRepr(item, chain));
      out =
        v instanceof PyTuple
          ? items.length === 1
            ? `(${items[0]},)`
            : `(${items.join(", ")})`
          : `[${items.join(", ")}]`;
    } else {
      const mapping = v as Mapping;
      out = `{${safeSortedKeys(mapping)
        .map((k) => `${safeRepr(k)}: ${safeRepr(getItem(mapping, k), chain)}`)
        .join(", ")}}`;
    }
    chain.delete(v);
    return out;
  }
  return pyRepr(v);
}

const WIDTH = 80;

function fmt(
  v: unknown,
  indent: number,
  allowance: number,
  level: number,
  out: string[],
  chain: Set<unknown> = new Set(),
): void {
  if (chain.has(v)) {
    out.push(recursion(v));
    return;
  }
  const rep = safeRepr(v, chain);
  if (rep.length > WIDTH - indent - allowance) {
    if (isMapping(v) || isListLike(v)) {
      chain.add(v);
      if (isMapping(v)) fmtDict(v, indent, allowance, level + 1, out, chain);
      else fmtSeq(v as unknown[], indent, allowance, level + 1, out, chain);
      chain.delete(v);
      return;
    }
    if (typeof v === "string") {
      fmtStr(v, indent, allowance, level + 1, out);
      return;
    }
  }
  out.push(rep);
}

function fmtDict(
  v: Mapping,
  indent: number,
  allowance: number,
  level: number,
  out: string[],
  chain: Set<unknown>,
): void {
  out.push("{");
  const keys = safeSortedKeys(v);
  const ind = indent + 1;
  keys.forEach((k, i) => {
    const last = i === keys.length - 1;
    const rep = safeRepr(k);
    out.push(rep, ": ");
    fmt(getItem(v, k), ind + rep.length + 2, last ? allowance + 1 : 1, level, out, chain);
    if (!last) out.push(`,\n${" ".repeat(ind)}`);
  });
  out.push("}");
}

function fmtSeq(
  v: readonly unknown[],
  indent: number,
  allowance: number,
  level: number,
  out: string[],
  chain: Set<unknown>,
): void {
  const tuple = v instanceof PyTuple;
  const endChar = tuple ? (v.length === 1 ? ",)" : ")") : "]";
  out.push(tuple ? "(" : "[");
  const ind = indent + 1;
  const allow = allowance + endChar.length;
  v.forEach((item, i) => {
    const last = i === v.length - 1;
    if (i > 0) out.push(`,\n${" ".repeat(ind)}`);
    fmt(item, ind, last ? allow : 1, level, out, chain);
  });
  out.push(endChar);
}

function fmtStr(s: string, indentArg: number, allowanceArg: number, level: number, out: string[]): void {
  if (s.length === 0) {
    out.push(strRepr(s));
    return;
  }
  let indent = indentArg;
  let allowance = allowanceArg;
  const chunks: string[] = [];
  const lines = s.match(/[^\n]*\n|[^\n]+$/g) ?? [s];
  if (level === 1) {
    indent += 1;
    allowance += 1;
  }
  const maxWidth = WIDTH - indent;
  let maxWidth1 = maxWidth;
  lines.forEach((line, i) => {
    const rep = strRepr(line);
    if (i === lines.length - 1) maxWidth1 -= allowance;
    if (rep.length <= maxWidth1) {
      chunks.push(rep);
      return;
    }
    const parts = line.match(/\S*\s*/g) ?? [];
    if (parts[parts.length - 1] === "") parts.pop();
    let maxWidth2 = maxWidth;
    let current = "";
    parts.forEach((part, j) => {
      const candidate = current + part;
      if (j === parts.length - 1 && i === lines.length - 1) maxWidth2 -= allowance;
      if (strRepr(candidate).length > maxWidth2) {
        if (current) chunks.push(strRepr(current));
        current = part;
      } else current = candidate;
    });
    if (current) chunks.push(strRepr(current));
  });
  if (chunks.length === 1) {
    out.push(strRepr(s));
    return;
  }
  if (level === 1) out.push("(");
  chunks.forEach((c, i) => {
    if (i > 0) out.push(`\n${" ".repeat(indent)}`);
    out.push(c);
  });
  if (level === 1) out.push(")");
}

/** `pprint.pformat(value)`: repr with sorted dict keys, wrapped to 80 columns. */
export function pyPformat(value: unknown): string {
  const out: string[] = [];
  fmt(value, 0, 0, 0, out);
  return out.join("");
}
