import { hasOwn, isPlainObject, PyDict } from "@merge/core";
import { pyEquals } from "@merge/strategies-stack";
import { keyText, loadYaml, resolvePlain } from "@merge/yaml";

/** The value meaning "not found" in a lookup. */
export const NOT_FOUND: unique symbol = Symbol("not found");

// Python's int() on a string: optional sign, digits with single underscores between them, surrounding whitespace.
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/**
 * Salt's `traverse_dict_and_list` for `pillar:a:b:0` lookups: `:`-separated keys into mappings; in a list, a number
 * is an index (negative ones count from the end, as in Python) unless a mapping item holds that key, and a
 * non-number looks for the first mapping item holding the key. Returns `NOT_FOUND` when the path breaks. Mappings
 * may be plain objects, `Map`s or `PyDict`s (typed keys: `ports:8080` finds the int key 8080, as in Salt).
 */
export function traverse(data: unknown, path: string, delimiter = ":"): unknown {
  let ptr = data;
  for (const each of path.split(delimiter)) {
    if (Array.isArray(ptr)) {
      const isIndex = PY_INT.test(each);
      const key = isIndex ? String(Number.parseInt(each.trim().replaceAll("_", ""), 10)) : each;
      // Salt looks a numeric step up in the list's dicts by its int (`embedded[idx]`), other steps by their text.
      const typedKey = isIndex ? Number(key) : key;
      const embedded = ptr.find(
        (item) =>
          (item instanceof PyDict && item.has(typedKey)) || (isPlainObject(item) && hasOwn(item, key)),
      ) as PyDict | Record<string, unknown> | undefined;
      if (embedded !== undefined) {
        ptr = embedded instanceof PyDict ? embedded.get(typedKey) : embedded[key];
        continue;
      }
      if (!isIndex) return NOT_FOUND;
      let index = Number(key);
      if (index < 0) index += ptr.length;
      if (index < 0 || index >= ptr.length) return NOT_FOUND;
      ptr = ptr[index];
    } else if (ptr instanceof PyDict) {
      if (ptr.has(each)) {
        ptr = ptr.get(each);
        continue;
      }
      const typed = yamlified(each);
      if (typed === NOT_FOUND || !ptr.has(typed.value)) return NOT_FOUND;
      ptr = ptr.get(typed.value);
    } else if (ptr instanceof Map) {
      if (ptr.has(each)) {
        ptr = ptr.get(each);
        continue;
      }
      const typed = yamlified(each);
      if (typed === NOT_FOUND) return NOT_FOUND;
      const match = [...ptr.keys()].find((key) => typeof key !== "object" && pyEquals(key, typed.value));
      if (match === undefined && !(typed.value === null && ptr.has(null))) return NOT_FOUND;
      ptr = ptr.get(match === undefined ? null : match);
    } else if (isPlainObject(ptr)) {
      if (hasOwn(ptr, each)) {
        ptr = ptr[each];
        continue;
      }
      // Salt retries with the key read as YAML, so `flags:True` finds a `true:` key and `ports:080` an `80:` one.
      const typed = yamlified(each);
      if (typed === NOT_FOUND || typed.text === undefined || !hasOwn(ptr, typed.text)) return NOT_FOUND;
      ptr = ptr[typed.text];
    } else {
      return NOT_FOUND;
    }
  }
  return ptr;
}

const TYPED = /:(?:bool|int|float|null)$/;

/** A key as Salt's `yamlify_arg` would read it, when that gives a number, boolean or null. */
function yamlified(key: string): { value: unknown; text: string | undefined } | typeof NOT_FOUND {
  if (key.trim() === "") return NOT_FOUND;
  // yamlify_arg's own rules: "None" is None, and digits with underscores stay a string
  if (key === "None") return { value: null, text: "null" };
  if (key.includes("_") && /^[0-9_]+$/.test(key.trim())) return NOT_FOUND;
  const tag = resolvePlain(key);
  if (!TYPED.test(tag)) return NOT_FOUND;
  try {
    const value = loadYaml(key, { flavor: "salt" });
    const text = keyText(value, tag.endsWith(":float"));
    // In a plain object the key text was tried already; a Map or PyDict may hold the typed key.
    return { value, text: text === key ? undefined : text };
  } catch {
    return NOT_FOUND;
  }
}
