import { type MappingKey, PyFloat } from "@merge/core";

/**
 * How a column value becomes a mapping key: as itself, the Python value MySQLdb gave (an int key stays an int, a
 * float a float, NULL is None, binary data bytes), so `1` and `"1"` stay two keys as in Salt. Plain results name
 * such keys as `json.dumps` does (`1`, `1.0`, `null`).
 */
export function keyOf(value: unknown): MappingKey {
  switch (typeof value) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return value;
    case "undefined":
      return null;
    default:
      if (value === null || value instanceof PyFloat || value instanceof Uint8Array) return value;
      if (value instanceof Date) return value.toISOString();
      return String(value);
  }
}
