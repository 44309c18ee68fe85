// Building mappings from template values as Python's `dict(...)` does: from another mapping, from an iterable of
// key/value pairs, from keyword arguments. Keys are always written as data (`setKey`), so a key named `__proto__`
// from a grain is an ordinary entry, never the object's prototype. Used by the `dict()` and `namespace()` globals,
// `dict.fromkeys` and the `update` method.
import { hasOwn, isPlainObject, setKey } from "@merge/core";
import { TemplateProblem, typeError, undefinedError } from "./errors.js";
import { splitArgs } from "./kwargs.js";
import { textOf } from "./operators.js";
import { PyTuple, pyStr, pyTypeName } from "./pyvalues.js";
import { ownKey } from "./opaque.js";

type Dict = Record<string, unknown>;

/** A Python key as our mappings store it (they are keyed by text; see docs/templates.md). */
export function dictKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (Array.isArray(key) && !(key instanceof PyTuple))
    throw typeError(`unhashable type: '${pyTypeName(key)}'`);
  if (isPlainObject(key)) throw typeError("unhashable type: 'dict'");
  return pyStr(key);
}

/** The items of an iterable value, or undefined when Python could not iterate it. */
function iterItems(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const s = textOf(value);
  if (s !== undefined) return Array.from(s);
  if (isPlainObject(value)) return Object.keys(value);
  if (value instanceof Set) return [...value];
  return undefined;
}

/** `target.update(source)`: a mapping's entries, or the pairs of an iterable, in order. */
export function updateFrom(target: Dict, source: unknown): void {
  if (isPlainObject(source)) {
    // ownKey: with opaque text on, a marked key updates the entry whose plain text it stands for
    for (const k in source) if (hasOwn(source, k)) setKey(target, ownKey(target, k) ?? k, source[k]);
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
    const key = dictKey(pair[0]);
    setKey(target, ownKey(target, key) ?? key, pair[1]);
  });
}

/** Python's `dict(*args, **kwargs)` on nunjucks' call arguments. */
export function pyDictCall(args: readonly unknown[], name = "dict"): Dict {
  const { pos, kw } = splitArgs(args);
  if (pos.length > 1) throw typeError(`${name} expected at most 1 argument, got ${pos.length}`);
  const out: Dict = {};
  if (pos.length === 1) updateFrom(out, pos[0]);
  if (kw !== undefined) for (const k in kw) setKey(out, k, kw[k]);
  return out;
}

/** `dict.fromkeys(iterable, value=None)`. */
export function pyFromKeys(args: readonly unknown[]): Dict {
  const { pos } = splitArgs(args);
  if (pos.length < 1 || pos.length > 2)
    throw typeError(`fromkeys expected at least 1 argument, got ${pos.length}`);
  const items = pos[0] === undefined ? [] : iterItems(pos[0]);
  if (items === undefined) throw typeError(`'${pyTypeName(pos[0])}' object is not iterable`);
  const value = pos.length > 1 ? pos[1] : null;
  const out: Dict = {};
  for (const k of items) setKey(out, dictKey(k), value);
  return out;
}
