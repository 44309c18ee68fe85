/**
 * How a column value becomes a mapping key. Salt keeps the Python value as the key and the pillar is later written
 * out as JSON/YAML/msgpack; our mappings have string keys, so the value is turned into the text JSON would give it:
 * NULL becomes `"null"`, numbers their decimal form, binary data is read as UTF-8.
 */
export function keyOf(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "null";
    default:
      if (value === null) return "null";
      if (value instanceof Uint8Array) return utf8.decode(value);
      if (value instanceof Date) return value.toISOString();
      return String(value);
  }
}

const utf8 = new TextDecoder("utf-8");
