// One comparable form for values from @merge/yaml (loaded with `values: "exact"`) and from the oracle's typed JSON.
import { PyDict, PyFloat } from "@merge/core";
import { pythonFloatRepr, YamlTimestamp } from "../../src/index.js";

/** A loaded JavaScript value in comparable form: integers and floats kept apart, as the exact model keeps them. */
export function canonLoaded(v: unknown): unknown {
  if (v instanceof PyFloat) return { $float: pythonFloatRepr(v.value) };
  if (v instanceof PyDict) return { $map: [...v].map(([k, x]) => [canonLoaded(k), canonLoaded(x)]) };
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") return { $int: String(v) };
  // As the representer takes them: integral numbers within 2^53 are ints, any other number a float.
  if (typeof v === "number") {
    return Number.isSafeInteger(v) ? { $int: String(v) } : { $float: pythonFloatRepr(v) };
  }
  if (v instanceof YamlTimestamp) {
    return v.kind === "date" ? { $date: v.toPythonIsoformat() } : { $datetime: v.toPythonIsoformat(" ") };
  }
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map(canonLoaded);
  if (v instanceof Set) return { $set: [...v].map((x) => JSON.stringify(canonLoaded(x))).sort() };
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [canonLoaded(k), canonLoaded(x)]) };
  return { $unexpected: String(v) };
}

/** The oracle's typed JSON in the same form. */
export function canonPython(d: unknown): unknown {
  if (Array.isArray(d)) return d.map(canonPython);
  if (d === null || typeof d !== "object") return d;
  const o = d as Record<string, unknown>;
  if ("$int" in o) return { $int: String(BigInt(o.$int as string)) };
  if ("$map" in o) {
    return { $map: (o.$map as [unknown, unknown][]).map(([k, v]) => [canonPython(k), canonPython(v)]) };
  }
  if ("$set" in o) {
    return { $set: (o.$set as string[]).map((s) => JSON.stringify(canonPython(JSON.parse(s)))).sort() };
  }
  return d;
}

export function isError(d: unknown): boolean {
  return d !== null && typeof d === "object" && "$error" in (d as object);
}
