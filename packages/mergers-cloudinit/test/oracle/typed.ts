// Typed JSON for oracle fixtures, the mirror of typed.py: what plain JSON loses (int vs float, key types, key order)
// is explicit, so a test compares a result with what Python held exactly.
import { PyDict, PyFloat, pyFloat, pyFloatRepr } from "@merge/core";

export type Typed =
  | null
  | boolean
  | string
  | number
  | Typed[]
  | { $int: string }
  | { $float: string }
  | { $dict: [Typed, Typed][] }
  | { $tuple: Typed[] }
  | { $datetime: string }
  | { $date: string }
  | { $bytes: string }
  | { $set: Typed[] }
  | { $repr: string };

const SAFE = 2 ** 53;

/** A value of the exact model (or a plain one: its numbers are ints when whole) as typed JSON. */
export function encodeTyped(value: unknown): Typed {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "boolean":
    case "string":
      return value;
    case "number":
      if (!Number.isInteger(value)) return { $float: pyFloatRepr(value) };
      return Math.abs(value) <= SAFE ? value + 0 : { $int: BigInt(value).toString() };
    case "bigint":
      return value >= -SAFE && value <= SAFE ? Number(value) : { $int: value.toString() };
    default:
      break;
  }
  if (value instanceof PyFloat) return { $float: pyFloatRepr(value.value) };
  if (Array.isArray(value)) return value.map(encodeTyped);
  if (value instanceof PyDict)
    return { $dict: [...value.entries()].map(([k, v]) => [encodeTyped(k), encodeTyped(v)]) };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("hex") };
  if (value instanceof Set) {
    const items = [...value].map(encodeTyped);
    return { $set: items.sort((a, b) => compare(JSON.stringify(a), JSON.stringify(b))) };
  }
  const stamp = value as { kind?: string; toPythonIsoformat?: (sep: string) => string };
  if (value instanceof Date && typeof stamp.toPythonIsoformat === "function") {
    return stamp.kind === "date"
      ? { $date: stamp.toPythonIsoformat("T") }
      : { $datetime: stamp.toPythonIsoformat("T") };
  }
  if (typeof value === "object") {
    const object = value as Record<string, unknown>;
    return { $dict: Object.keys(object).map((k) => [k, encodeTyped(object[k])]) };
  }
  return { $repr: String(value) };
}

/** Typed JSON back into the exact model (inputs of the value cases hold ints, floats and mappings only). */
export function decodeTyped(typed: unknown): unknown {
  if (Array.isArray(typed)) return typed.map(decodeTyped);
  if (typeof typed !== "object" || typed === null) return typed;
  const tagged = typed as Record<string, unknown>;
  if ("$int" in tagged) {
    const big = BigInt(tagged.$int as string);
    return big >= -SAFE && big <= SAFE ? Number(big) : big;
  }
  if ("$float" in tagged) return pyFloat(pythonFloat(tagged.$float as string));
  if ("$dict" in tagged) {
    const out = new PyDict();
    for (const [k, v] of tagged.$dict as [unknown, unknown][])
      out.set(decodeTyped(k) as never, decodeTyped(v));
    return out;
  }
  throw new Error(`cannot decode ${JSON.stringify(typed)}`);
}

function pythonFloat(text: string): number {
  if (text === "nan") return Number.NaN;
  if (text === "inf") return Number.POSITIVE_INFINITY;
  if (text === "-inf") return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/** Python's string order (code points). */
function compare(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
