import { PyFloat, pyEquals } from "@merge/core";

/**
 * Equality as Python's `==` sees YAML data is core's `pyEquals` (booleans are 0 and 1, ints equal floats, mappings by
 * keys and values in any order, NaN equal to itself because Salt's list is compared by containment, which checks
 * identity first). Re-exported here, where Salt's list `remove` strategy uses it.
 */
export { pyEquals };

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
    else if (value instanceof PyFloat) numbers.add(value.value);
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
        if (item instanceof PyFloat) return numbers.has(item.value);
        for (const other of others) if (pyEquals(item, other)) return true;
        return false;
    }
  };
}
