import { DEFAULT_MAX_DEPTH } from "../engine.js";
import { MergeError } from "../errors.js";
import { type Dict, isPlainObject, setKey } from "../kinds.js";
import { keyText, PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

/**
 * The plain-JavaScript form of a value: every `PyDict` becomes a plain object (keys named as `json.dumps` names them:
 * `8080`, `true`, `null`; integer-like keys then come first, as JavaScript orders them) and every `PyFloat` a number.
 * Lossy where the exact model holds more: `1` and `"1"` become one key (the later wins), `9.0` becomes `9`.
 * Containers without anything to convert are returned as they are; shared subtrees stay shared.
 */
export function toPlain(value: unknown): unknown {
  return convert(value, true, new Map(), 0);
}

/**
 * The exact form of a value: every plain object becomes a `PyDict` with the same keys in the same order. Numbers are
 * kept (a whole JavaScript number is an int). Shared subtrees stay shared.
 */
export function toExact(value: unknown): unknown {
  return convert(value, false, new Map(), 0);
}

function convert(value: unknown, plain: boolean, seen: Map<object, unknown>, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof PyFloat) return plain ? value.value : value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (depth >= DEFAULT_MAX_DEPTH) {
    throw new MergeError(
      "DEPTH_LIMIT",
      `the value nests deeper than the limit of ${DEFAULT_MAX_DEPTH} levels`,
      {
        details: { maxDepth: DEFAULT_MAX_DEPTH },
      },
    );
  }
  if (Array.isArray(value)) {
    // Registered before the children so that a cycle comes back to this array instead of recursing forever.
    seen.set(value, value);
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const child = value[i];
      const converted = convert(child, plain, seen, depth + 1);
      if (converted !== child && out === undefined) {
        out = value.slice(0, i);
        seen.set(value, out);
      }
      if (out !== undefined) out.push(converted);
    }
    return out ?? value;
  }
  if (value instanceof PyDict) {
    if (plain) {
      const out: Dict = {};
      seen.set(value, out);
      for (const [key, child] of value) setKey(out, keyText(key), convert(child, plain, seen, depth + 1));
      return out;
    }
    seen.set(value, value);
    let out: PyDict | undefined;
    for (const [key, child] of value) {
      const converted = convert(child, plain, seen, depth + 1);
      if (converted !== child && out === undefined) {
        out = value.copy();
        seen.set(value, out);
      }
      if (out !== undefined) out.set(key, converted);
    }
    return out ?? value;
  }
  if (isPlainObject(value)) {
    if (!plain) {
      const out = new PyDict();
      seen.set(value, out);
      for (const key of Object.keys(value)) out.set(key, convert(value[key], plain, seen, depth + 1));
      return out;
    }
    seen.set(value, value);
    let out: Dict | undefined;
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const child = value[key];
      const converted = convert(child, plain, seen, depth + 1);
      if (converted !== child && out === undefined) {
        out = {};
        for (let j = 0; j < i; j++) setKey(out, keys[j]!, value[keys[j]!]);
        seen.set(value, out);
      }
      if (out !== undefined) setKey(out, key, converted);
    }
    return out ?? value;
  }
  return value;
}
