import { getItem, hasItem, isMapping, mappingKeys, mappingSize } from "../mapping.js";
import { PyFloat } from "./pyfloat.js";

/**
 * Python's `==` as it compares configuration values inside containers (`x in list`, `list == list`, dict values):
 * booleans are the integers 0 and 1 and ints equal floats of the same value (`true == 1 == 1.0`, a `PyFloat`
 * included); `null` and `undefined` are both None; lists compare item by item; mappings by their keys (under the same
 * equality) and values, whatever the order and representation. NaN equals NaN, because containers compare
 * identity first and a YAML document hands out one shared NaN.
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    if (nb === undefined) return false;
    // biome-ignore lint/suspicious/noDoubleEquals: bigint against number needs the mathematical comparison
    if (na == nb) return true;
    return typeof na === "number" && typeof nb === "number" && Number.isNaN(na) && Number.isNaN(nb);
  }
  if (typeof a !== "object" || typeof b !== "object") {
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  if (a === null || b === null) return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEquals(a[i], b[i])) return false;
    return true;
  }
  if (isMapping(a)) {
    if (!isMapping(b) || mappingSize(a) !== mappingSize(b)) return false;
    for (const key of mappingKeys(a)) {
      if (!hasItem(b, key) || !pyEquals(getItem(a, key), getItem(b, key))) return false;
    }
    return true;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}

/** The value of an int, float or bool for numeric comparison; undefined for anything else. */
function numeric(value: unknown): number | bigint | undefined {
  switch (typeof value) {
    case "number":
    case "bigint":
      return value;
    case "boolean":
      return value ? 1 : 0;
    case "object":
      return value instanceof PyFloat ? value.value : undefined;
    default:
      return undefined;
  }
}
