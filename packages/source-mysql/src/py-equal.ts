import { isPlainObject } from "@merge/core";

/**
 * Python's `==` on JSON-shaped values, as Salt's list merge (`x not in merged`) applies it: `true == 1 == 1.0`, an
 * integer equals a float of the same value (`2**60 == 1.152921504606847e18`), mappings compare as sets of pairs,
 * lists item by item. NaN equals NaN here: every NaN `json.loads` returns is the same object, and `in` tests
 * identity before `==`.
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  const left = primitiveKey(a);
  const right = primitiveKey(b);
  if (left !== undefined || right !== undefined) return left === right;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => pyEquals(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && pyEquals(a[key], b[key]));
  }
  return a === b;
}

/**
 * `merged = list(current); merged.extend(x for x in incoming if x not in merged)`: Salt's list merge, in linear
 * time for scalars (a key per value) and a scan only among the lists and mappings.
 */
export function pyListUnion(current: readonly unknown[], incoming: readonly unknown[]): unknown[] {
  const merged = current.slice();
  const scalars = new Set<string>();
  const containers: unknown[] = [];
  const note = (item: unknown) => {
    const key = primitiveKey(item);
    if (key === undefined) containers.push(item);
    else scalars.add(key);
  };
  for (const item of merged) note(item);
  for (const item of incoming) {
    const key = primitiveKey(item);
    const present = key === undefined ? containers.some((other) => pyEquals(other, item)) : scalars.has(key);
    if (present) continue;
    merged.push(item);
    note(item);
  }
  return merged;
}

/** One text per Python-equal class of scalars; undefined for lists, mappings and other objects. */
function primitiveKey(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return `s${value}`;
    case "boolean":
      return value ? "n1" : "n0";
    case "bigint":
      return `n${value}`;
    case "number":
      if (Number.isNaN(value)) return "nan";
      // Integral doubles compare with Python ints by exact value: write them as exact integers.
      return Number.isInteger(value) ? `n${BigInt(value)}` : `n${value}`;
    case "undefined":
      return "null";
    default:
      return value === null ? "null" : undefined;
  }
}
