// How template values look and behave to a Salt user: Python's str()/repr(), truthiness, equality and the few
// Python-only shapes (tuples, dict views) that Jinja templates can produce.
import {
  getItem,
  isMapping,
  keyIdentity,
  type Mapping,
  mappingKeys,
  mappingSize,
  PY_KEY,
  PyDict,
  PyFloat,
  pyFloatRepr,
} from "@merge/core";
import nunjucks from "nunjucks";
import { isNumber, numberText, numEquals } from "./numbers.js";
import {
  findItem,
  markText,
  NOT_FOUND,
  opaqueActive,
  opaqueChar,
  opaqueStrEq,
  plainOpaque,
} from "./opaque.js";

const SafeString = nunjucks.runtime.SafeString as unknown as new (value: string) => { val: string };

/** A Python tuple: behaves as a JS array everywhere, prints with parentheses, and can be a dict key. */
export class PyTuple<T = unknown> extends Array<T> {
  /** Its identity as a dict key: equal for tuples Python finds equal; a list inside makes it unhashable. */
  [PY_KEY](): string {
    return tupleKey(this);
  }
  static from2<T>(a: T, b: T): PyTuple<T> {
    const t = new PyTuple<T>(2);
    t[0] = a;
    t[1] = b;
    return t;
  }
  static of_<T>(items: readonly T[]): PyTuple<T> {
    const t = new PyTuple<T>(items.length);
    for (let i = 0; i < items.length; i++) t[i] = items[i] as T;
    return t;
  }
}

/** An item of `groupby`: a `(grouper, list)` tuple with those two names as attributes (Jinja's `_GroupTuple`). */
export class GroupTuple extends PyTuple {
  static make(grouper: unknown, items: unknown[]): GroupTuple {
    const t = new GroupTuple(2);
    t[0] = grouper;
    t[1] = items;
    return t;
  }
  get grouper(): unknown {
    return this[0];
  }
  get list(): unknown {
    return this[1];
  }
}

/** What `d.keys()`, `d.values()` and `d.items()` return: a list that prints as `dict_keys([...])`. */
export class DictView<T = unknown> extends Array<T> {
  kind: "dict_keys" | "dict_values" | "dict_items" = "dict_keys";

  // What map(), filter(), slice() make of one is a list.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
}

/**
 * What `range()` returns: its numbers, made at once (and charged to the budget) where Python's range is lazy, but a
 * range to the template: it prints as `range(0, 3)`, equals only a range with the same numbers, slices into a
 * range, has `start`, `stop`, `step`, `index()` and `count()`, and is no list to `+`, `*` or JSON.
 */
export class PyRange extends Array<number> {
  start = 0;
  stop = 0;
  step = 1;

  // What map(), filter(), slice() make of one is a list.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  static make(start: number, stop: number, step: number): PyRange {
    const count = Math.max(0, Math.ceil((stop - start) / step));
    const r = new PyRange(count);
    for (let i = 0; i < count; i++) r[i] = start + i * step;
    r.start = start;
    r.stop = stop;
    r.step = step;
    return r;
  }
}

/** A Python list or tuple: an array that is neither a dict view nor a range. */
export function isListLike(value: unknown): value is unknown[] {
  return Array.isArray(value) && !(value instanceof DictView) && !(value instanceof PyRange);
}

/** Markup-safe text (Jinja's `Markup`): the serializer filters return it. */
export function isSafeString(value: unknown): value is { val: string } {
  return value instanceof SafeString;
}

export function markSafe(text: string): unknown {
  return new SafeString(text);
}

/** The text identity of a tuple as a dict key (its items' identities under Python's equality). */
function tupleKey(items: readonly unknown[]): string {
  let out = "(";
  for (const item of items) {
    let id: unknown;
    if (item instanceof PyTuple) id = tupleKey(item);
    else {
      id = keyIdentity(item);
      if (typeof id === "string") id = JSON.stringify(id);
      else if (typeof id === "symbol") id = id.description;
      else id = `#${String(id)}`;
    }
    out += `${id as string},`;
  }
  return `${out})`;
}

/** Python truthiness: empty containers, `0`, `''`, None and undefined are false. */
export function pyBool(value: unknown): boolean {
  switch (typeof value) {
    case "boolean":
      return value;
    case "string":
      return value.length > 0;
    case "number":
      return value !== 0;
    case "undefined":
      return false;
    case "bigint":
      return value !== 0n;
    case "object":
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof PyDict) return value.size > 0;
      if (value instanceof PyFloat) return value.value !== 0;
      if (value instanceof SafeString) return (value as { val: string }).val.length > 0;
      if (isMapping(value)) {
        for (const _ in value) return true;
        return false;
      }
      if (value instanceof Map || value instanceof Set) return value.size > 0;
      return true;
    default:
      return true;
  }
}

/** Python's repr() of a float (`1.0`, `1e+16`, `2.5e-05`, `nan`). */
export function floatRepr(value: number): string {
  return pyFloatRepr(value);
}

/** A number as Python prints it: an int (`2`, `12345678901234567890`) or a float (`2.0`, `2.5`, `1e+22`). */
export function numberStr(value: number | bigint | PyFloat): string {
  return numberText(value);
}

/** Python str(): what `{{ value }}` prints. */
export function pyStr(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "undefined":
      return "";
    case "number":
    case "bigint":
      return numberText(value);
    case "boolean":
      return value ? "True" : "False";
    case "object":
      if (value === null) return "None";
      if (value instanceof PyFloat) return pyFloatRepr(value.value);
      if (value instanceof SafeString) return (value as { val: string }).val;
      if (isMapping(value)) return strDict(value, new Set());
      return pyRepr(value);
    default:
      return pyRepr(value);
  }
}

/**
 * Salt's finalizer prints a mapping as its `PrintableDict`: strings by repr(), other values by str() — so an
 * undefined value prints as nothing and nested mappings follow the same rule (lists use repr() throughout).
 */
function strDict(value: Mapping, seen: Set<unknown>): string {
  if (seen.has(value)) return "{...}";
  seen.add(value);
  let out = "{";
  let first = true;
  for (const k of mappingKeys(value)) {
    const v = getItem(value, k);
    const text =
      typeof v === "string" ? strRepr(v) : v === undefined ? "" : isMapping(v) ? strDict(v, seen) : pyRepr(v);
    out += `${first ? "" : ", "}${pyRepr(k)}: ${text}`;
    first = false;
  }
  seen.delete(value);
  return `${out}}`;
}

// Python's str.isprintable(): letters, marks, numbers, punctuation, symbols and the plain space. Asked only of
// characters past ASCII, so built on first use (a pattern of Unicode classes costs V8 a good part of a millisecond).
let nonPrintable: RegExp | undefined;

/** Python repr() of a str: single quotes unless only double quotes avoid escaping. */
export function strRepr(s: string): string {
  // With opaque text on, a mark is shown as the repr of the character it stands for, itself marked.
  const opaque = opaqueActive() && s !== plainOpaque(s);
  const plain = opaque ? plainOpaque(s) : s;
  const quote = plain.includes("'") && !plain.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const stands = opaque ? opaqueChar(ch.charCodeAt(0)) : undefined;
    if (stands === undefined) out += reprChar(ch, quote);
    else out += stands === null ? ch : markText(reprChar(stands, quote));
  }
  return out + quote;
}

function reprChar(ch: string, quote: string): string {
  const cp = ch.codePointAt(0) as number;
  if (ch === quote || ch === "\\") return `\\${ch}`;
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (ch === "\t") return "\\t";
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x7f || ch === " ") return ch;
  // biome-ignore lint/complexity/useRegexLiterals: a constructor call, so that lazy-patterns.test.ts sees when it is built
  nonPrintable ??= new RegExp("[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\p{Zs}]", "u");
  if (nonPrintable.test(ch)) {
    if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
    if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
    return `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return ch;
}

/** A method by which an object of the runtime (a `namespace()`) gives its Python repr(). */
export const PY_REPR: unique symbol = Symbol("Python repr");

/** Python repr(): how values look inside printed lists and dicts. */
export function pyRepr(value: unknown, seen?: Set<unknown>): string {
  switch (typeof value) {
    case "string":
      return strRepr(value);
    case "undefined":
      return "Undefined";
    case "number":
    case "bigint":
      return numberText(value);
    case "boolean":
      return value ? "True" : "False";
    case "function": {
      const described = (value as { pyRepr?: unknown }).pyRepr;
      if (typeof described === "string") return described;
      return `<function ${(value as { name?: string }).name || "<lambda>"}>`;
    }
    case "object": {
      if (value === null) return "None";
      if (value instanceof PyFloat) return pyFloatRepr(value.value);
      if (value instanceof SafeString) return `Markup(${strRepr((value as { val: string }).val)})`;
      if (value instanceof Uint8Array) return bytesRepr(value);
      const s = seen ?? new Set<unknown>();
      if (s.has(value)) return Array.isArray(value) ? "[...]" : "{...}";
      s.add(value);
      let out: string;
      if (value instanceof DictView) out = `${value.kind}([${reprItems(value, s)}])`;
      else if (value instanceof PyRange)
        out = `range(${value.start}, ${value.stop}${value.step === 1 ? "" : `, ${value.step}`})`;
      else if (value instanceof PyTuple)
        out = value.length === 1 ? `(${pyRepr(value[0], s)},)` : `(${reprItems(value, s)})`;
      else if (Array.isArray(value)) out = `[${reprItems(value, s)}]`;
      else if (isMapping(value)) {
        const parts: string[] = [];
        for (const k of mappingKeys(value)) parts.push(`${pyRepr(k, s)}: ${pyRepr(getItem(value, k), s)}`);
        out = `{${parts.join(", ")}}`;
      } else if (value instanceof Set) out = value.size === 0 ? "set()" : `{${reprItems([...value], s)}}`;
      else if (value instanceof Map) {
        const parts: string[] = [];
        for (const [k, v] of value) parts.push(`${pyRepr(k, s)}: ${pyRepr(v, s)}`);
        out = `{${parts.join(", ")}}`;
      } else if (typeof (value as { [PY_REPR]?: unknown })[PY_REPR] === "function")
        out = (value as { [PY_REPR]: (seen: Set<unknown>) => string })[PY_REPR](s);
      else if (value instanceof Date) out = value.toISOString();
      else
        out = typeof (value as { toString?: unknown }).toString === "function" ? String(value) : "<object>";
      s.delete(value);
      return out;
    }
    default:
      return String(value);
  }
}

function reprItems(items: readonly unknown[], seen: Set<unknown>): string {
  let out = "";
  for (let i = 0; i < items.length; i++) out += (i === 0 ? "" : ", ") + pyRepr(items[i], seen);
  return out;
}

/** Python `==`: deep for lists and dicts; `1 == 1.0 == True`; tuples equal lists only to tuples. */
export function pyEq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === "string" && tb === "string") return opaqueStrEq(a as string, b as string);
  if (isNumber(a)) return isNumber(b) && numEquals(a, b);
  if (a instanceof SafeString) return pyEq((a as { val: string }).val, b);
  if (b instanceof SafeString) return pyEq(a, (b as { val: string }).val);
  if (ta !== "object" || tb !== "object" || a === null || b === null) return false;
  if (a instanceof DictView || b instanceof DictView) return viewEquals(a as object, b as object);
  // Two ranges are equal when they hold the same numbers; a range never equals a list.
  if (a instanceof PyRange || b instanceof PyRange) {
    if (!(a instanceof PyRange && b instanceof PyRange) || a.length !== b.length) return false;
    return a.length === 0 || (a[0] === b[0] && (a.length === 1 || a.step === b.step));
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (a instanceof PyTuple !== b instanceof PyTuple) return false;
    for (let i = 0; i < a.length; i++) if (!pyEq(a[i], b[i])) return false;
    return true;
  }
  if (isMapping(a) && isMapping(b)) {
    if (mappingSize(a) !== mappingSize(b)) return false;
    for (const k of mappingKeys(a)) {
      const other = findItem(b, k);
      if (other === NOT_FOUND || !pyEq(getItem(a, k), other)) return false;
    }
    return true;
  }
  return false;
}

/**
 * `==` with a dict view on one side. Keys and items views are sets to Python: equal to another such view (or a set)
 * with the same members in any order, never to a list. A values view equals only itself.
 */
function viewEquals(a: object, b: object): boolean {
  const setLike = (v: object): v is Iterable<unknown> =>
    (v instanceof DictView && v.kind !== "dict_values") || v instanceof Set;
  if (!setLike(a) || !setLike(b)) return false;
  const xs = [...a];
  const ys = [...b];
  if (xs.length !== ys.length) return false;
  if (a instanceof DictView && b instanceof DictView && a.kind === b.kind) {
    // Keys are hashable: members are found by the key's identity, not compared pair by pair.
    if (a.kind === "dict_keys") {
      const members = new Set(ys.map(keyIdentity));
      return xs.every((x) => members.has(keyIdentity(x)));
    }
    const values = new Map((ys as PyTuple[]).map((y) => [keyIdentity(y[0]), y[1]]));
    return (xs as PyTuple[]).every((x) => {
      const id = keyIdentity(x[0]);
      return values.has(id) && pyEq(x[1], values.get(id));
    });
  }
  return xs.every((x) => ys.some((y) => pyEq(x, y)));
}

/** Python's type name, for error messages that read like Jinja's. */
export function pyTypeName(value: unknown): string {
  if (value === null) return "NoneType";
  switch (typeof value) {
    case "string":
      return "str";
    case "number":
      return Number.isSafeInteger(value) ? "int" : "float";
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    case "undefined":
      return "Undefined";
    case "function":
      return "function";
    default:
      if (value instanceof PyFloat) return "float";
      if (value instanceof DictView) return value.kind;
      if (value instanceof PyRange) return "range";
      if (value instanceof PyTuple) return "tuple";
      if (Array.isArray(value)) return "list";
      if (isMapping(value) || value instanceof Map) return "dict";
      if (value instanceof Set) return "set";
      if (value instanceof SafeString) return "Markup";
      if (value instanceof Uint8Array) return "bytes";
      return "object";
  }
}

/**
 * Python's `repr(bytes)` (YAML's `!!binary`): `b'...'`, in double quotes when only a single quote occurs, with
 * `\\t \\n \\r`, the quote and the backslash escaped and every byte outside printable ASCII as `\\xhh`.
 */
function bytesRepr(bytes: Uint8Array): string {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let out = "";
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (c === quote || c === "\\") out += `\\${c}`;
    else if (c === "\t") out += "\\t";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`;
    else out += c;
  }
  return `b${quote}${out}${quote}`;
}

/** markupsafe's `escape` of plain text: `& < > " '` as entities. */
export function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c] as string,
  );
}
