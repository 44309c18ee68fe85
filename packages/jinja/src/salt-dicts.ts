// Salt's helpers for template data that its execution functions share: `copy.deepcopy`, `dictupdate.update`,
// and `salt.utils.data.filter_by`, restated on the engine's values.
import { emptyLike, getItem, isMapping, type Mapping, mappingKeys, setItem } from "@merge/core";
import { TemplateProblem } from "./errors.js";
import { fnmatch } from "./fnmatch.js";
import { findItem, NOT_FOUND } from "./opaque.js";
import { pyBool, pyEq, pyStr } from "./pyvalues.js";

/** Python's `copy.deepcopy` of template data: mappings (in the same representation) and lists are copied. */
export function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isMapping(value)) {
    const out = emptyLike(value);
    for (const k of mappingKeys(value)) setItem(out, k, deepCopy(getItem(value, k)));
    return out;
  }
  return value;
}

/** A Python list (`isinstance(x, list)`): no tuple, dict view or range. */
function isList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.constructor === Array;
}

/** A copy of `list` followed by the items of `more` it does not hold (Python's `==`; repeats in `more` stay). */
export function mergedList(list: readonly unknown[], more: readonly unknown[]): unknown[] {
  const added = more.filter((item) => !list.some((x) => pyEq(x, item)));
  return [...(deepCopy(list) as unknown[]), ...(deepCopy(added) as unknown[])];
}

/**
 * Salt's `dictupdate.update(dest, upd, merge_lists)`: `upd`'s keys written into `dest` (which changes), mappings on
 * both sides merged key by key, lists on both sides joined when `mergeLists` (else replaced). What is written is a
 * copy, so the result shares nothing with `upd`.
 */
export function saltUpdate(dest: Mapping, upd: Mapping, mergeLists: boolean): Mapping {
  for (const key of mappingKeys(upd)) {
    const value = getItem(upd, key);
    const current = getItem(dest, key);
    if (isMapping(current) && isMapping(value)) saltUpdate(current, value, mergeLists);
    else if (mergeLists && isList(current) && isList(value)) setItem(dest, key, mergedList(current, value));
    else setItem(dest, key, deepCopy(value));
  }
  return dest;
}

/**
 * Salt's `dictupdate.update(dest, upd, recursive_update, merge_lists)` as its execution functions call it: both must be
 * dicts (Python's TypeError otherwise); without `recursive` the keys of `upd` are written over `dest`'s.
 */
export function dictUpdate(dest: unknown, upd: unknown, recursive: boolean, mergeLists: boolean): Mapping {
  if (!isMapping(dest) || !isMapping(upd))
    throw new TemplateProblem("TypeError: Cannot update using non-dict types in dictupdate.update()");
  if (recursive) return saltUpdate(dest, upd, mergeLists);
  for (const key of mappingKeys(upd)) setItem(dest, key, deepCopy(getItem(upd, key)));
  return dest;
}

/** Python's `fnmatch.fnmatchcase`: on POSIX the same rules as `fnmatch.fnmatch`. */
export { fnmatch as fnmatchCase } from "./fnmatch.js";

/**
 * Salt's `salt.utils.data.filter_by` (what `grains.filter_by` calls with the grains): the entry of `lookup` whose key,
 * as an fnmatch pattern, matches the value found at `path` in `data` (each item in turn when that is a list), else the
 * entry `default`; the entry `base`, when given, merged under it; `merge` merged over it (the entry itself changes, as
 * in Salt).
 */
export function filterBy(
  lookup: unknown,
  path: unknown,
  data: unknown,
  traverse: (data: unknown, key: unknown, def: unknown) => unknown,
  merge: unknown,
  defaultKey: unknown,
  base: unknown,
): unknown {
  if (!isMapping(lookup)) throw new TemplateProblem("AttributeError: filter_by's lookup_dict must be a dict");
  let ret: unknown = null;
  const found = traverse(data, path, []);
  for (const each of Array.isArray(found) ? found : [found]) {
    for (const key of mappingKeys(lookup)) {
      if (fnmatch(pyStr(each), pyStr(key))) {
        ret = getItem(lookup, key);
        break;
      }
    }
    if (ret !== null && ret !== undefined) break;
  }
  if (ret === null || ret === undefined) {
    const fallback = findItem(lookup, defaultKey);
    ret = fallback === NOT_FOUND ? null : fallback;
  }
  if (base !== undefined && pyBool(base)) {
    const baseValues = findItem(lookup, base);
    if (baseValues !== NOT_FOUND) {
      if (ret === null) ret = baseValues;
      else if (isMapping(baseValues)) {
        if (!isMapping(ret))
          throw new TemplateProblem(
            "SaltException: filter_by default and look-up values must both be dictionaries.",
          );
        ret = saltUpdate(deepCopy(baseValues) as Mapping, ret, false);
      }
    }
  }
  if (merge !== undefined && pyBool(merge)) {
    if (!isMapping(merge))
      throw new TemplateProblem("SaltException: filter_by merge argument must be a dictionary.");
    if (ret === null) ret = merge;
    else if (isMapping(ret)) saltUpdate(ret, merge, false);
    else throw new TemplateProblem("TypeError: Cannot update using non-dict types in dictupdate.update()");
  }
  return ret;
}
