// One comparable form for values from @merge/yaml (loaded with `mappings: "map"`) and from the oracle's typed JSON.
import { YamlTimestamp } from "../../src/index.js";

/** A loaded JavaScript value in comparable form (numbers by value: JavaScript cannot tell 1.0 from 1). */
export function canonLoaded(v: unknown): unknown {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") return { $num: String(v) };
  if (typeof v === "number") return { $num: Number.isNaN(v) ? "nan" : Object.is(v, -0) ? "0" : String(v) };
  if (v instanceof YamlTimestamp) {
    return v.kind === "date" ? { $date: v.toPythonIsoformat() } : { $datetime: v.toPythonIsoformat(" ") };
  }
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map(canonLoaded);
  if (v instanceof Set) return { $set: [...v].map((x) => JSON.stringify(canonLoaded(x))).sort() };
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [canonLoaded(k), canonLoaded(x)]) };
  return { $unexpected: String(v) };
}

function numberText(n: number): string {
  return Number.isNaN(n) ? "nan" : Object.is(n, -0) ? "0" : String(n);
}

/** The oracle's typed JSON in the same form. */
export function canonPython(d: unknown): unknown {
  if (Array.isArray(d)) return d.map(canonPython);
  if (d === null || typeof d !== "object") return d;
  const o = d as Record<string, unknown>;
  if ("$int" in o) {
    const big = BigInt(o.$int as string);
    const small = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER);
    return { $num: small ? numberText(Number(big)) : String(big) };
  }
  if ("$float" in o) {
    const f = o.$float as string;
    return {
      $num: numberText(
        f === "nan" ? Number.NaN : f === "inf" ? Infinity : f === "-inf" ? -Infinity : Number(f),
      ),
    };
  }
  if ("$map" in o)
    return { $map: (o.$map as [unknown, unknown][]).map(([k, v]) => [canonPython(k), canonPython(v)]) };
  if ("$set" in o)
    return { $set: (o.$set as string[]).map((s) => JSON.stringify(canonPython(JSON.parse(s)))).sort() };
  return d;
}

export function isError(d: unknown): boolean {
  return d !== null && typeof d === "object" && "$error" in (d as object);
}
