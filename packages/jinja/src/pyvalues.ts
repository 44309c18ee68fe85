// How template values look and behave to a Salt user: Python's str()/repr(), truthiness, equality and the few
// Python-only shapes (tuples, dict views) that Jinja templates can produce.
import { hasOwn, isPlainObject } from "@merge/core";
import nunjucks from "nunjucks";
import { opaqueChar, markText, opaqueActive, opaqueStrEq, ownKey, plainOpaque } from "./opaque.js";

const SafeString = nunjucks.runtime.SafeString as unknown as new (value: string) => { val: string };

/** A Python tuple: behaves as a JS array everywhere, prints with parentheses. */
export class PyTuple<T = unknown> extends Array<T> {
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

/** What `d.keys()`, `d.values()` and `d.items()` return: a list that prints as `dict_keys([...])`. */
export class DictView<T = unknown> extends Array<T> {
  kind: "dict_keys" | "dict_values" | "dict_items" = "dict_keys";
}

/** Markup-safe text (Jinja's `Markup`): the serializer filters return it. */
export function isSafeString(value: unknown): value is { val: string } {
  return value instanceof SafeString;
}

export function markSafe(text: string): unknown {
  return new SafeString(text);
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value);
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
      if (value instanceof SafeString) return (value as { val: string }).val.length > 0;
      if (isPlainObject(value)) {
        for (const k in value) if (hasOwn(value, k)) return true;
        return false;
      }
      if (value instanceof Map || value instanceof Set) return value.size > 0;
      return true;
    default:
      return true;
  }
}

/** Python's repr() of a float, from the shortest round-trip digits JS also uses. */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const exp = value.toExponential(); // shortest digits, e.g. "-1.2345e+3"
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exp);
  if (m === null) return String(value);
  const sign = m[1] ?? "";
  const digits = (m[2] ?? "") + (m[3] ?? "");
  const e = Number(m[4]);
  if (e < -4 || e >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ae = Math.abs(e);
    return `${sign}${mant}e${e < 0 ? "-" : "+"}${ae < 10 ? `0${ae}` : ae}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${"0".repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/**
 * A number as Python prints it. JS has one number type: integral values print as ints (`2`), the others as
 * Python floats (`2.5`, `1e-05`). (A YAML `2.0` therefore prints `2`; see docs/templates.md.)
 */
export function numberStr(value: number): string {
  // Integers past 2^53 arrive as bigint from the YAML loader, so a number that large was a float.
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)
    return Object.is(value, -0) ? "0" : String(value);
  return floatRepr(value);
}

/** Python str(): what `{{ value }}` prints. */
export function pyStr(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "undefined":
      return "";
    case "number":
      return numberStr(value);
    case "boolean":
      return value ? "True" : "False";
    case "bigint":
      return value.toString();
    case "object":
      if (value === null) return "None";
      if (value instanceof SafeString) return (value as { val: string }).val;
      if (isPlainObject(value)) return strDict(value, new Set());
      return pyRepr(value);
    default:
      return pyRepr(value);
  }
}

/**
 * Salt's finalizer prints a mapping as its `PrintableDict`: strings by repr(), other values by str() — so an
 * undefined value prints as nothing and nested mappings follow the same rule (lists use repr() throughout).
 */
function strDict(value: Record<string, unknown>, seen: Set<unknown>): string {
  if (seen.has(value)) return "{...}";
  seen.add(value);
  const parts: string[] = [];
  for (const k in value) {
    if (!hasOwn(value, k)) continue;
    const v = value[k];
    const text =
      typeof v === "string"
        ? strRepr(v)
        : v === undefined
          ? ""
          : isPlainObject(v)
            ? strDict(v, seen)
            : pyRepr(v);
    parts.push(`${strRepr(k)}: ${text}`);
  }
  seen.delete(value);
  return `{${parts.join(", ")}}`;
}

// Python's str.isprintable(): letters, marks, numbers, punctuation, symbols and the plain space.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

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
  if (NON_PRINTABLE.test(ch)) {
    if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
    if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
    return `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return ch;
}

/** Python repr(): how values look inside printed lists and dicts. */
export function pyRepr(value: unknown, seen?: Set<unknown>): string {
  switch (typeof value) {
    case "string":
      return strRepr(value);
    case "undefined":
      return "Undefined";
    case "number":
      return numberStr(value);
    case "boolean":
      return value ? "True" : "False";
    case "bigint":
      return value.toString();
    case "function": {
      const described = (value as { pyRepr?: unknown }).pyRepr;
      if (typeof described === "string") return described;
      return `<function ${(value as { name?: string }).name || "<lambda>"}>`;
    }
    case "object": {
      if (value === null) return "None";
      if (value instanceof SafeString) return `Markup(${strRepr((value as { val: string }).val)})`;
      const s = seen ?? new Set<unknown>();
      if (s.has(value)) return Array.isArray(value) ? "[...]" : "{...}";
      s.add(value);
      let out: string;
      if (value instanceof DictView) out = `${value.kind}([${reprItems(value, s)}])`;
      else if (value instanceof PyTuple)
        out = value.length === 1 ? `(${pyRepr(value[0], s)},)` : `(${reprItems(value, s)})`;
      else if (Array.isArray(value)) out = `[${reprItems(value, s)}]`;
      else if (isPlainObject(value)) {
        const parts: string[] = [];
        for (const k in value) if (hasOwn(value, k)) parts.push(`${strRepr(k)}: ${pyRepr(value[k], s)}`);
        out = `{${parts.join(", ")}}`;
      } else if (value instanceof Set) out = value.size === 0 ? "set()" : `{${reprItems([...value], s)}}`;
      else if (value instanceof Map) {
        const parts: string[] = [];
        for (const [k, v] of value) parts.push(`${pyRepr(k, s)}: ${pyRepr(v, s)}`);
        out = `{${parts.join(", ")}}`;
      } else if (value instanceof Date) out = value.toISOString();
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
  if ((ta === "number" || ta === "boolean") && (tb === "number" || tb === "boolean"))
    return Number(a) === Number(b);
  if (ta === "string" && tb === "string") return opaqueStrEq(a as string, b as string);
  if (a instanceof SafeString) return pyEq((a as { val: string }).val, b);
  if (b instanceof SafeString) return pyEq(a, (b as { val: string }).val);
  if (ta !== "object" || tb !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (a instanceof PyTuple !== b instanceof PyTuple) return false;
    for (let i = 0; i < a.length; i++) if (!pyEq(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    let n = 0;
    for (const k in a) {
      if (!hasOwn(a, k)) continue;
      n++;
      const kb = ownKey(b, k);
      if (kb === undefined || !pyEq(a[k], b[kb])) return false;
    }
    for (const k in b) if (hasOwn(b, k)) n--;
    return n === 0;
  }
  return false;
}

/** Python's type name, for error messages that read like Jinja's. */
export function pyTypeName(value: unknown): string {
  if (value === null) return "NoneType";
  switch (typeof value) {
    case "string":
      return "str";
    case "number":
      return Number.isInteger(value) ? "int" : "float";
    case "boolean":
      return "bool";
    case "undefined":
      return "Undefined";
    case "function":
      return "function";
    default:
      if (value instanceof PyTuple) return "tuple";
      if (Array.isArray(value)) return "list";
      if (isPlainObject(value)) return "dict";
      if (value instanceof SafeString) return "Markup";
      return "object";
  }
}
