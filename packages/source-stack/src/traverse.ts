import { hasOwn, isPlainObject } from "@merge/core";

/** The value meaning "not found" in a lookup. */
export const NOT_FOUND: unique symbol = Symbol("not found");

// Python's int() on a string: optional sign, digits with single underscores between them, surrounding whitespace.
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/**
 * Salt's `traverse_dict_and_list` for `pillar:a:b:0` lookups: `:`-separated keys into mappings; in a list, a number
 * is an index (negative ones count from the end, as in Python) unless a mapping item holds that key, and a
 * non-number looks for the first mapping item holding the key. Returns `NOT_FOUND` when the path breaks.
 */
export function traverse(data: unknown, path: string, delimiter = ":"): unknown {
  let ptr = data;
  for (const each of path.split(delimiter)) {
    if (Array.isArray(ptr)) {
      const isIndex = PY_INT.test(each);
      const key = isIndex ? String(Number.parseInt(each.trim().replaceAll("_", ""), 10)) : each;
      const embedded = ptr.find((item) => isPlainObject(item) && hasOwn(item, key)) as
        | Record<string, unknown>
        | undefined;
      if (embedded !== undefined) {
        ptr = embedded[key];
        continue;
      }
      if (!isIndex) return NOT_FOUND;
      let index = Number(key);
      if (index < 0) index += ptr.length;
      if (index < 0 || index >= ptr.length) return NOT_FOUND;
      ptr = ptr[index];
    } else if (ptr instanceof Map) {
      if (!ptr.has(each)) return NOT_FOUND;
      ptr = ptr.get(each);
    } else if (isPlainObject(ptr)) {
      if (!hasOwn(ptr, each)) return NOT_FOUND;
      ptr = ptr[each];
    } else {
      return NOT_FOUND;
    }
  }
  return ptr;
}
