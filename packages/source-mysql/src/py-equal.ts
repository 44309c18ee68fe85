import { PyFloat, pyEquals } from "@merge/core";

/**
 * `merged = list(current); merged.extend(x for x in incoming if x not in merged)`: Salt's list merge, with Python's
 * `==` (core's `pyEquals`: `true == 1 == 1.0`, mappings as sets of pairs, NaN equal to itself since `in` tests
 * identity first and `json.loads` hands out one NaN), in linear time for scalars (a key per value) and a scan only
 * among the lists and mappings.
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
  if (value instanceof PyFloat) return numberKey(value.value);
  switch (typeof value) {
    case "string":
      return `s${value}`;
    case "boolean":
      return value ? "n1" : "n0";
    case "bigint":
      return `n${value}`;
    case "number":
      return numberKey(value);
    case "undefined":
      return "null";
    default:
      return value === null ? "null" : undefined;
  }
}

function numberKey(value: number): string {
  if (Number.isNaN(value)) return "nan";
  // Integral doubles compare with Python ints by exact value: write them as exact integers.
  return Number.isInteger(value) ? `n${BigInt(value)}` : `n${value}`;
}
