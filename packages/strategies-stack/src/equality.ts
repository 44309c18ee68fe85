import { hasOwn, isPlainObject } from "@merge/core";

/**
 * Equality as Python's `==` sees YAML data, which is what Salt's list `remove` strategy uses:
 * booleans are the integers 0 and 1 (`true == 1 == 1.0`), mappings compare by keys and values whatever the order,
 * lists element-wise. NaN equals NaN because PyYAML hands out one shared NaN object and Python's containment test
 * checks identity first.
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
    // null and undefined are both Python's None
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  if (a === null || b === null) return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEquals(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!hasOwn(b, key) || !pyEquals(a[key], b[key])) return false;
    return true;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}

function numeric(value: unknown): number | bigint | undefined {
  switch (typeof value) {
    case "number":
    case "bigint":
      return value;
    case "boolean":
      return value ? 1 : 0;
    default:
      return undefined;
  }
}

/**
 * Builds a membership test equal to `item in list` under `pyEquals`. Lists of a few scalars are scanned; longer
 * ones get hashed buckets for strings and numbers, so a large `remove` stays linear.
 */
export function pyMembership(list: readonly unknown[], start: number): (item: unknown) => boolean {
  if (list.length - start <= 8) {
    return (item) => {
      for (let i = start; i < list.length; i++) if (pyEquals(item, list[i])) return true;
      return false;
    };
  }
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const others: unknown[] = [];
  let none = false;
  let exactOnly = false;
  for (let i = start; i < list.length; i++) {
    const value = list[i];
    if (typeof value === "string") strings.add(value);
    else if (typeof value === "number") numbers.add(value);
    else if (typeof value === "boolean") numbers.add(value ? 1 : 0);
    else if (value === null || value === undefined) none = true;
    else if (typeof value === "bigint") exactOnly = true;
    else others.push(value);
  }
  if (exactOnly) {
    // Big integers do not hash like floats; fall back to the exact scan.
    return (item) => {
      for (let i = start; i < list.length; i++) if (pyEquals(item, list[i])) return true;
      return false;
    };
  }
  return (item) => {
    switch (typeof item) {
      case "string":
        return strings.has(item);
      case "number":
        return numbers.has(item);
      case "boolean":
        return numbers.has(item ? 1 : 0);
      case "bigint":
        // only when the float is exactly this integer, as Python compares int with float
        return numbers.has(Number(item)) && BigInt(Number(item)) === item;
      case "undefined":
        return none;
      default:
        if (item === null) return none;
        for (const other of others) if (pyEquals(item, other)) return true;
        return false;
    }
  };
}
