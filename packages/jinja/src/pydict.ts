// Building mappings from template values as Python's `dict(...)` does: from another mapping, from an iterable of
// key/value pairs, from keyword arguments. What a template builds is a `PyDict` (any hashable key, insertion order,
// `1 == 1.0 == True` one key); keys are data, so a key named `__proto__` from a grain is an ordinary entry. Used by
// dict literals, the `dict()` and `namespace()` globals, `dict.fromkeys`, the `update` method and macros' `kwargs`.
import {
  getItem,
  isMapping,
  type Mapping,
  type MappingKey,
  mappingKeys,
  PyDict,
  setItem,
  setKey,
} from "@merge/core";
import { TemplateProblem, typeError, undefinedError } from "./errors.js";
import { type Kwargs, splitArgs } from "./kwargs.js";
import { textOf } from "./operators.js";
import { opaqueActive, ownKey, plainName } from "./opaque.js";
import { pyTypeName } from "./pyvalues.js";

/** The items of an iterable value, or undefined when Python could not iterate it. */
function iterItems(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const s = textOf(value);
  if (s !== undefined) return Array.from(s);
  if (isMapping(value)) return mappingKeys(value);
  if (value instanceof Set) return [...value];
  return undefined;
}

/**
 * Sets `key` of a mapping a template changes (a `PyDict`, or a plain object a caller passed in, where the key gets
 * its `json.dumps` name); with opaque text on, a marked key updates the entry of its plain text. An unhashable key is
 * refused (`UNHASHABLE_KEY`, Python's TypeError).
 */
export function storeItem(target: Mapping, key: MappingKey, value: unknown): void {
  if (typeof key === "string") {
    setItem(target, opaqueActive() ? (ownKey(target, key) ?? key) : key, value);
    return;
  }
  if (target instanceof PyDict) target.set(key, value);
  else setKey(target, plainName(key), value);
}

/** `target.update(source)`: a mapping's entries, or the pairs of an iterable, in order. */
export function updateFrom(target: Mapping, source: unknown): void {
  if (isMapping(source)) {
    for (const k of mappingKeys(source)) storeItem(target, k, getItem(source, k));
    return;
  }
  // Python asks an undefined value for its `keys`, which Jinja's Undefined refuses.
  if (source === undefined) throw undefinedError("the mapping or iterable given");
  const items = iterItems(source);
  if (items === undefined) throw typeError(`'${pyTypeName(source)}' object is not iterable`);
  items.forEach((item, i) => {
    const pair = iterItems(item);
    if (pair === undefined)
      throw typeError(`cannot convert dictionary update sequence element #${i} to a sequence`);
    if (pair.length !== 2) {
      throw new TemplateProblem(
        `ValueError: dictionary update sequence element #${i} has length ${pair.length}; 2 is required`,
      );
    }
    storeItem(target, pair[0] as MappingKey, pair[1]);
  });
}

/** Keyword arguments written into `target` (their names are strings). */
export function updateFromKeywords(target: Mapping, kw: Kwargs | undefined): void {
  if (kw !== undefined) for (const k in kw) setItem(target, k, kw[k]);
}

/** Python's `dict(*args, **kwargs)` on nunjucks' call arguments. */
export function pyDictCall(args: readonly unknown[], name = "dict"): PyDict {
  const { pos, kw } = splitArgs(args);
  if (pos.length > 1) throw typeError(`${name} expected at most 1 argument, got ${pos.length}`);
  const out = new PyDict();
  if (pos.length === 1) updateFrom(out, pos[0]);
  updateFromKeywords(out, kw);
  return out;
}

/** `dict.fromkeys(iterable, value=None)`. */
export function pyFromKeys(args: readonly unknown[]): PyDict {
  const { pos } = splitArgs(args);
  if (pos.length < 1 || pos.length > 2)
    throw typeError(`fromkeys expected at least 1 argument, got ${pos.length}`);
  const items = pos[0] === undefined ? [] : iterItems(pos[0]);
  if (items === undefined) throw typeError(`'${pyTypeName(pos[0])}' object is not iterable`);
  const value = pos.length > 1 ? pos[1] : null;
  const out = new PyDict();
  for (const k of items) out.set(k as MappingKey, value);
  return out;
}

/** A dict literal `{k: v, ...}` from its keys and values, in order (`flat` alternates them). */
export function pyDictLiteral(flat: readonly unknown[]): PyDict {
  const out = new PyDict();
  for (let i = 0; i < flat.length; i += 2) storeItem(out, flat[i] as MappingKey, flat[i + 1]);
  return out;
}
