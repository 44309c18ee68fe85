import { copyDict, type Dict, hasOwn, isPlainObject, setKey } from "./kinds.js";
import { keyText, type MappingKey, PyDict } from "./values/pydict.js";

/*
 * One way to read and build mappings, whatever their representation. A mapping is a plain object (what JavaScript
 * callers pass and get back) or a `PyDict` (the Python-exact model: non-string keys, insertion order for every key).
 * Plugins and the packages of `@merge` use only these helpers, so the same code serves both, and the result of a
 * merge has the representation of its base value.
 */

/** A mapping of either representation. */
export type Mapping = Dict | PyDict;

/** True for a plain object or a `PyDict`: the values of kind `dict`. */
export function isMapping(value: unknown): value is Mapping {
  return value instanceof PyDict || isPlainObject(value);
}

/** The keys, in order. A plain object gives its own enumerable string keys. */
export function mappingKeys(mapping: Mapping): MappingKey[] {
  return mapping instanceof PyDict ? mapping.keyList() : Object.keys(mapping);
}

/** Number of keys. */
export function mappingSize(mapping: Mapping): number {
  return mapping instanceof PyDict ? mapping.size : Object.keys(mapping).length;
}

/**
 * The value at `key`, or undefined when absent. On a plain object a non-string key is looked up by the name
 * `json.dumps` gives it (`1` → `"1"`); only own keys count, so `constructor` is never found by inheritance.
 */
export function getItem(mapping: Mapping, key: unknown): unknown {
  if (mapping instanceof PyDict) return mapping.get(key);
  const name = typeof key === "string" ? key : keyText(key);
  return hasOwn(mapping, name) ? mapping[name] : undefined;
}

/** Whether `key` is present (by Python equality in a `PyDict`, by name in a plain object). */
export function hasItem(mapping: Mapping, key: unknown): boolean {
  if (mapping instanceof PyDict) return mapping.has(key);
  return hasOwn(mapping, typeof key === "string" ? key : keyText(key));
}

/**
 * Sets `key` to `value`. A key already present keeps its position. On a plain object the key is written as an own
 * data property named as `json.dumps` names it, `__proto__` included (never a prototype change).
 */
export function setItem(mapping: Mapping, key: MappingKey, value: unknown): void {
  if (mapping instanceof PyDict) mapping.set(key, value);
  else setKey(mapping, typeof key === "string" ? key : keyText(key), value);
}

/** Removes `key`; true when it was present. */
export function deleteItem(mapping: Mapping, key: unknown): boolean {
  if (mapping instanceof PyDict) return mapping.delete(key);
  const name = typeof key === "string" ? key : keyText(key);
  if (!hasOwn(mapping, name)) return false;
  delete mapping[name];
  return true;
}

/** A new, empty mapping of the same representation as `like`. */
export function emptyLike(like: Mapping): Mapping {
  return like instanceof PyDict ? new PyDict() : {};
}

/** A shallow copy in the same representation. */
export function copyMapping(mapping: Mapping): Mapping {
  return mapping instanceof PyDict ? mapping.copy() : copyDict(mapping);
}
