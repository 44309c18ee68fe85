import { pythonFloatRepr } from "./pyfloat.js";
import { YamlTimestamp } from "./timestamp.js";

/**
 * Mapping keys. Python compares keys by value across types (`1 == 1.0 == True`), so the loader deduplicates by an
 * equality string built the same way, and names each key in a plain object the way `json.dumps` would write it:
 * `1`, `1.5`, `true`, `null`, `Infinity` (and a timestamp as `str()` does: `2001-12-14`).
 */

/** Python-equality class of a hashable scalar key (strings by value; numbers and booleans by numeric value). */
export function keyEquality(key: unknown, isFloat: boolean): string {
  switch (typeof key) {
    case "string":
      return `s${key}`;
    case "boolean":
      return key ? "n1" : "n0";
    case "bigint":
      return `n${key}`;
    case "number":
      if (Number.isNaN(key)) return "nan";
      if (!Number.isFinite(key)) return key > 0 ? "ninf" : "n-inf";
      if (Number.isInteger(key)) return `n${isFloat ? BigInt(key) : key === 0 ? 0 : key}`;
      return `n${key}`;
    default:
      break;
  }
  if (key === null) return "z";
  if (key instanceof YamlTimestamp) {
    return `d${key.kind}${key.offsetMinutes === null ? "n" : "a"}${key.getTime()}.${key.microsecond % 1000}`;
  }
  if (key instanceof Uint8Array) return `b${Buffer.from(key).toString("base64")}`;
  return `o${String(key)}`;
}

/** The plain-object key for a scalar key, as `json.dumps` names it; undefined when JSON has no name (bytes). */
export function keyText(key: unknown, isFloat: boolean): string | undefined {
  switch (typeof key) {
    case "string":
      return key;
    case "boolean":
      return key ? "true" : "false";
    case "bigint":
      return String(key);
    case "number":
      if (Number.isNaN(key)) return "NaN";
      if (!Number.isFinite(key)) return key > 0 ? "Infinity" : "-Infinity";
      return isFloat ? pythonFloatRepr(key) : String(key);
    default:
      break;
  }
  if (key === null) return "null";
  if (key instanceof YamlTimestamp) return key.toPythonIsoformat(" ");
  return undefined;
}
