// `d.keys() - other` and `other - d.items()`: Python's keys and items views are sets to `-`, which makes a set of
// the left side's members less the right side's. It is the only set operator a template can reach on them: in Jinja
// `|` starts a filter, and `&` and `^` are no operators at all.
import { isMapping, keyIdentity, mappingKeys } from "@merge/core";
import { typeError } from "./errors.js";
import { textOf } from "./operators.js";
import { DictView, isSafeString, PyTuple, pyTypeName } from "./pyvalues.js";

/** A keys or items view (values views are no sets: `d.values() - x` stays a TypeError). */
export function isSetView(value: unknown): value is DictView {
  return value instanceof DictView && value.kind !== "dict_values";
}

/** The members `set(value)` iterates, or Python's TypeError for what it cannot iterate. */
function membersOf(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  const s = textOf(value);
  if (s !== undefined) return Array.from(s);
  if (isMapping(value)) return mappingKeys(value);
  if (value instanceof Set) return [...value];
  throw typeError(`'${pyTypeName(value)}' object is not iterable`);
}

/** A member's identity under Python's `==` and `hash`, or the TypeError of an unhashable one. */
function hashOf(value: unknown): unknown {
  if (isSafeString(value)) return value.val;
  if (value instanceof PyTuple) return keyIdentity(value);
  if (Array.isArray(value) || isMapping(value) || value instanceof Set)
    throw typeError(`unhashable type: '${pyTypeName(value)}'`);
  return keyIdentity(value);
}

/**
 * `a - b` where either side is a keys or items view, as CPython computes it: `set(a)`, then each member of `b`
 * discarded (each must be hashable). The set keeps the first of equal members in the order `a` gives them; Python
 * orders a set by hash, so a printed set of strings may list them in another order than Salt does.
 */
export function viewDifference(a: unknown, b: unknown): Set<unknown> {
  const kept = new Map<unknown, unknown>();
  for (const item of membersOf(a)) {
    const key = hashOf(item);
    if (!kept.has(key)) kept.set(key, item);
  }
  for (const item of membersOf(b)) kept.delete(hashOf(item));
  return new Set(kept.values());
}
