import { PyDict, PyFloat } from "@merge/core";
import { YamlTimestamp } from "./timestamp.js";

/**
 * A text form of the values `loadYaml` makes, for keeping a parsed document between runs: reading it back is a
 * `JSON.parse` and one walk, several times cheaper than parsing the YAML again while the parser's code is still
 * cold. It keeps what the exact model tells apart: `PyDict` keys as first written (`1`, `true`, `1.0`), whole floats
 * (`PyFloat`), ints past 2^53 (`bigint`), `-0`, NaN and the infinities, timestamps with their kind, offset and
 * microseconds, binary data, sets, and the sharing of YAML aliases (a list or mapping that appears twice, or inside
 * itself, is one object again after reading).
 *
 * JSON, with every container and special value an array whose first item says what it is:
 * `["d", key, value, ...]`, `["l", item, ...]`, `["s", item, ...]`, `["r", n]` (the n-th container, counted in
 * the order they were opened), `["f", number]`, `["i", digits]`, `["n", "NaN" | "Infinity" | "-Infinity" | "-0"]`,
 * `["t", epochMs, kind, offsetMinutes, microsecond]`, `["b", base64]`. Strings, booleans, null and other numbers are
 * themselves.
 */
const FORMAT = 1;

/** The form's version: part of any key a store files encoded values under, so a new form never reads an old one. */
export const STORED_VALUE_FORMAT = FORMAT;

/**
 * The text form of `value`, or undefined when it holds something the form cannot keep exactly (a plain object, a
 * `Map`, a class of its own, a frozen `PyDict`): such a value is simply not stored.
 */
export function encodeYamlValue(value: unknown): string | undefined {
  const opened = new Map<object, number>();
  let unsupported = false;
  const encode = (v: unknown): unknown => {
    switch (typeof v) {
      case "string":
      case "boolean":
        return v;
      case "number":
        return Number.isFinite(v) && !Object.is(v, -0) ? v : ["n", specialNumber(v)];
      case "bigint":
        return ["i", v.toString()];
      case "object":
        break;
      default:
        unsupported = true;
        return null;
    }
    if (v === null) return null;
    const seen = opened.get(v);
    if (seen !== undefined) return ["r", seen];
    if (v instanceof PyFloat) return ["f", encode(v.value)];
    if (v instanceof YamlTimestamp && Number.isFinite(v.getTime())) {
      return ["t", v.getTime(), v.kind, v.offsetMinutes, v.microsecond];
    }
    if (v instanceof Uint8Array && v.constructor === Uint8Array) return ["b", base64(v)];
    if (Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype && !Object.isFrozen(v)) {
      opened.set(v, opened.size);
      const out: unknown[] = ["l"];
      for (let i = 0; i < v.length; i++) out.push(encode(v[i]));
      return out;
    }
    if (v instanceof Set && v.constructor === Set) {
      opened.set(v, opened.size);
      const out: unknown[] = ["s"];
      for (const item of v) out.push(encode(item));
      return out;
    }
    if (v instanceof PyDict && v.constructor === PyDict && !v.isFrozen) {
      opened.set(v, opened.size);
      const out: unknown[] = ["d"];
      v.forEach((child, key) => {
        out.push(encode(key), encode(child));
      });
      return out;
    }
    unsupported = true;
    return null;
  };
  const encoded = encode(value);
  return unsupported ? undefined : JSON.stringify(encoded);
}

/**
 * The value a text of `encodeYamlValue` holds. Throws a `TypeError` on a text it did not write (a damaged or foreign
 * one); a store's reader treats that as a miss.
 */
export function decodeYamlValue(text: string): unknown {
  const opened: object[] = [];
  const decode = (e: unknown): unknown => {
    if (typeof e !== "object" || e === null) return e;
    if (!Array.isArray(e)) throw notOurs();
    switch (e[0]) {
      case "d": {
        const out = new PyDict();
        opened.push(out);
        if (e.length % 2 === 0) throw notOurs();
        for (let i = 1; i < e.length; i += 2) out.set(decode(e[i]) as never, decode(e[i + 1]));
        return out;
      }
      case "l": {
        const out: unknown[] = [];
        opened.push(out);
        for (let i = 1; i < e.length; i++) out.push(decode(e[i]));
        return out;
      }
      case "s": {
        const out = new Set<unknown>();
        opened.push(out);
        for (let i = 1; i < e.length; i++) out.add(decode(e[i]));
        return out;
      }
      case "r": {
        const target = typeof e[1] === "number" ? opened[e[1]] : undefined;
        if (target === undefined) throw notOurs();
        return target;
      }
      case "f": {
        const n = decode(e[1]);
        if (typeof n !== "number") throw notOurs();
        return new PyFloat(n);
      }
      case "i":
        if (typeof e[1] !== "string" || !/^-?[0-9]+$/.test(e[1])) throw notOurs();
        return BigInt(e[1]);
      case "n":
        return readSpecialNumber(e[1]);
      case "t": {
        const [, ms, kind, offset, micro] = e;
        if (
          typeof ms !== "number" ||
          (kind !== "date" && kind !== "datetime") ||
          (offset !== null && typeof offset !== "number") ||
          typeof micro !== "number"
        ) {
          throw notOurs();
        }
        return new YamlTimestamp(ms, kind, offset, micro);
      }
      case "b":
        if (typeof e[1] !== "string") throw notOurs();
        return fromBase64(e[1]);
      default:
        throw notOurs();
    }
  };
  return decode(JSON.parse(text));
}

function notOurs(): TypeError {
  return new TypeError("not a stored YAML value");
}

function specialNumber(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Number.POSITIVE_INFINITY) return "Infinity";
  if (n === Number.NEGATIVE_INFINITY) return "-Infinity";
  return "-0";
}

function readSpecialNumber(name: unknown): number {
  switch (name) {
    case "NaN":
      return Number.NaN;
    case "Infinity":
      return Number.POSITIVE_INFINITY;
    case "-Infinity":
      return Number.NEGATIVE_INFINITY;
    case "-0":
      return -0;
    default:
      throw notOurs();
  }
}

// btoa/atob work on "binary strings" (one character per byte); they exist in Node and in browsers alike.
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw notOurs();
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
