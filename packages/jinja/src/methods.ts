// Python methods on template values: `d.get('k', x)`, `d.items()`, `l.append(x)`, `s.split(',')`, ...
// Dict/list methods mutate in place as in Python (that is how `{% do stack.update({...}) %}` changes the stack).
// Dict methods work on both mapping representations (a `PyDict`, or a plain object a caller passed in) through
// core's mapping helpers; what they build is a `PyDict`.
import {
  deleteItem,
  getItem,
  hasOwn,
  isMapping,
  type Mapping,
  type MappingKey,
  mappingKeys,
  mappingSize,
  PyDict,
} from "@merge/core";
import { RenderAccount } from "./budget.js";
import { TemplateProblem, typeError } from "./errors.js";
import { bindArgs, makeKeywordArgs, splitArgs } from "./kwargs.js";
import { findItem, NOT_FOUND, opaqueActive, ownKey } from "./opaque.js";
import { numberMethods } from "./numeric.js";
import { opaqueStrMethods } from "./opaque-methods.js";
import { pyLess } from "./operators.js";
import { pyFormatMethod } from "./pyformat.js";
import { pySorted } from "./pysort.js";
import { pyFromKeys, storeItem, updateFrom, updateFromKeywords } from "./pydict.js";
import {
  DictView,
  isSafeString,
  PyRange,
  PyTuple,
  pyBool,
  pyEq,
  pyRepr,
  pyStr,
  pyTypeName,
} from "./pyvalues.js";

/** A Python method: `self`, the call's arguments, and the render's account for methods whose cost depends on them. */
type Method = (self: never, args: readonly unknown[], account?: RenderAccount) => unknown;

/** The account to charge: the render's, or a fresh one with the default limits outside a render. */
function charge(account: RenderAccount | undefined): RenderAccount {
  return account ?? new RenderAccount();
}

function view(kind: DictView["kind"]): DictView {
  const v = new DictView();
  v.kind = kind;
  return v;
}

function update(self: Mapping, args: readonly unknown[]): null {
  const { pos, kw } = splitArgs(args);
  if (pos.length > 1) throw typeError(`update expected at most 1 argument, got ${pos.length}`);
  if (pos.length === 1) updateFrom(self, pos[0]);
  updateFromKeywords(self, kw);
  return null;
}

/** The positional arguments of a Python slot method (`__getitem__`, ...), which takes exactly `n` of them. */
function slotArgs(args: readonly unknown[], n: number, name: string): unknown[] {
  const { pos, kw } = splitArgs(args);
  if (kw !== undefined) throw typeError(`${name}() takes no keyword arguments`);
  if (pos.length !== n)
    throw typeError(
      `${name}() takes exactly ${n === 1 ? "one argument" : `${n} arguments`} (${pos.length} given)`,
    );
  return pos;
}

/** The positional arguments of a dict method that takes from `min` to `max` of them and no keywords. */
function positional(
  args: readonly unknown[],
  min: number,
  max: number,
  name: string,
  owner: "dict" | "list" = "dict",
): unknown[] {
  const { pos, kw } = splitArgs(args);
  if (kw !== undefined) throw typeError(`${owner}.${name}() takes no keyword arguments`);
  if (pos.length < min || pos.length > max) {
    const bound = min === max || pos.length < min ? min : max;
    const expected = min === max ? `${min}` : pos.length < min ? `at least ${min}` : `at most ${max}`;
    throw typeError(`${name} expected ${expected} argument${bound === 1 ? "" : "s"}, got ${pos.length}`);
  }
  return pos;
}

function missingKey(key: unknown): TemplateProblem {
  return new TemplateProblem(`KeyError: ${pyRepr(key)}`);
}

/** `self`'s key that `key` finds (by Python equality), or a KeyError. */
function presentKey(self: Mapping, key: unknown): MappingKey {
  const own = ownKey(self, key);
  if (own === undefined) throw missingKey(key);
  return own;
}

export const DICT_METHODS: Record<string, Method> = Object.assign(Object.create(null), {
  get: (self: Mapping, args: readonly unknown[]) => {
    const [key, def] = positional(args, 1, 2, "get");
    const v = findItem(self, key);
    // An undefined default a template passes comes back undefined, as Jinja's Undefined does.
    return v !== NOT_FOUND ? v : args.length > 1 ? def : null;
  },
  keys: (self: Mapping) => {
    const v = view("dict_keys");
    for (const k of mappingKeys(self)) v.push(k);
    return v;
  },
  values: (self: Mapping) => {
    const v = view("dict_values");
    for (const k of mappingKeys(self)) v.push(getItem(self, k));
    return v;
  },
  items: (self: Mapping) => {
    const v = view("dict_items");
    for (const k of mappingKeys(self)) v.push(PyTuple.from2(k, getItem(self, k)));
    return v;
  },
  update,
  pop: (self: Mapping, args: readonly unknown[]) => {
    const [key, def] = positional(args, 1, 2, "pop");
    const k = ownKey(self, key);
    if (k !== undefined) {
      const v = getItem(self, k);
      deleteItem(self, k);
      return v;
    }
    if (args.length > 1) return def;
    throw missingKey(key);
  },
  popitem: (self: Mapping, args: readonly unknown[]) => {
    positional(args, 0, 0, "popitem");
    const keys = mappingKeys(self);
    if (keys.length === 0) throw new TemplateProblem("KeyError: 'popitem(): dictionary is empty'");
    const k = keys[keys.length - 1] as MappingKey;
    const v = getItem(self, k);
    deleteItem(self, k);
    return PyTuple.from2(k, v);
  },
  setdefault: (self: Mapping, args: readonly unknown[]) => {
    const [key, def] = positional(args, 1, 2, "setdefault");
    const v = findItem(self, key);
    if (v !== NOT_FOUND) return v;
    // As `get`: an undefined default a template passes is stored and returned as that undefined value.
    const value = args.length > 1 ? def : null;
    storeItem(self, key as MappingKey, value);
    return value;
  },
  copy: (self: Mapping) => (self instanceof PyDict ? self.copy() : PyDict.fromObject(self)),
  clear: (self: Mapping) => {
    if (self instanceof PyDict) self.clear();
    else for (const k of Object.keys(self)) delete self[k];
    return null;
  },
  fromkeys: (_self: Mapping, args: readonly unknown[]) => pyFromKeys(args),
  // The slot methods Jinja users call on dicts, as `{% do d.__setitem__('k', v) %}` (docs/templates.md).
  __getitem__: (self: Mapping, args: readonly unknown[]) => {
    const [key] = slotArgs(args, 1, "__getitem__");
    return getItem(self, presentKey(self, key));
  },
  __setitem__: (self: Mapping, args: readonly unknown[]) => {
    const [key, value] = slotArgs(args, 2, "__setitem__");
    storeItem(self, key as MappingKey, value);
    return null;
  },
  __delitem__: (self: Mapping, args: readonly unknown[]) => {
    const [key] = slotArgs(args, 1, "__delitem__");
    deleteItem(self, presentKey(self, key));
    return null;
  },
  __contains__: (self: Mapping, args: readonly unknown[]) => {
    const [key] = slotArgs(args, 1, "__contains__");
    return ownKey(self, key) !== undefined;
  },
  __len__: (self: Mapping, args: readonly unknown[]) => {
    slotArgs(args, 0, "__len__");
    return mappingSize(self);
  },
});

function listIndex(self: unknown[], i: unknown): number {
  const n = typeof i === "number" ? i : Number(i);
  return n < 0 ? self.length + n : n;
}

/** The one argument of a list method that takes exactly one (`list.append(x)`), or Python's TypeError. */
function oneArgument(args: readonly unknown[], name: string): unknown {
  const { pos, kw } = splitArgs(args);
  if (kw !== undefined) throw typeError(`list.${name}() takes no keyword arguments`);
  if (pos.length !== 1) throw typeError(`list.${name}() takes exactly one argument (${pos.length} given)`);
  return pos[0];
}

/** What `d.keys()`, `d.values()` and `d.items()` answer to (Python 3's views, not lists). */
export const VIEW_METHODS: Record<string, Method> = Object.assign(Object.create(null), {
  isdisjoint: (self: DictView, args: readonly unknown[]) => {
    if (args.length !== 1)
      throw typeError(`${self.kind}.isdisjoint() takes exactly one argument (${args.length} given)`);
    const src = args[0];
    const other = Array.isArray(src)
      ? src
      : typeof src === "string"
        ? [...src]
        : isMapping(src)
          ? mappingKeys(src)
          : undefined;
    if (other === undefined) throw typeError(`'${pyTypeName(src)}' object is not iterable`);
    return !self.some((item) => other.some((x) => pyEq(item, x)));
  },
});

export const LIST_METHODS: Record<string, Method> = Object.assign(Object.create(null), {
  append: (self: unknown[], args: readonly unknown[]) => {
    self.push(oneArgument(args, "append"));
    return null;
  },
  sort: (self: unknown[], args: readonly unknown[]) => {
    // list.sort(*, key=None, reverse=False): keywords only; sorted in place with `<`, stable.
    const { pos, kw } = splitArgs(args);
    if (pos.length > 0) throw typeError("sort() takes no positional arguments");
    for (const name of Object.keys(kw ?? {})) {
      if (name !== "key" && name !== "reverse")
        throw typeError(`'${name}' is an invalid keyword argument for sort()`);
    }
    const key = kw?.key;
    if (key !== undefined && key !== null && typeof key !== "function")
      throw typeError(`'${pyTypeName(key)}' object is not callable`);
    const keyOf =
      typeof key === "function" ? (v: unknown) => (key as (x: unknown) => unknown)(v) : (v: unknown) => v;
    const sorted = pySorted(self.slice(), keyOf, pyLess, pyBool(kw?.reverse ?? false));
    for (let i = 0; i < sorted.length; i++) self[i] = sorted[i];
    return null;
  },
  extend: (self: unknown[], args: readonly unknown[], account?: RenderAccount) => {
    const src = args[0];
    const added = Array.isArray(src)
      ? src.length
      : typeof src === "string"
        ? src.length
        : isMapping(src)
          ? mappingSize(src)
          : 0;
    charge(account).grow(self.length + added, added, "list.extend");
    // `l.extend(l)` doubles the list once, as in Python (iterating a list while it grows would never end).
    if (Array.isArray(src)) for (const x of src === self ? src.slice() : src) self.push(x);
    else if (typeof src === "string") for (const ch of src) self.push(ch);
    else if (isMapping(src)) for (const k of mappingKeys(src)) self.push(k);
    else throw new TemplateProblem(`TypeError: '${pyTypeName(src)}' object is not iterable`);
    return null;
  },
  insert: (self: unknown[], args: readonly unknown[]) => {
    let i = listIndex(self, args[0]);
    if (i < 0) i = 0;
    self.splice(Math.min(i, self.length), 0, args[1]);
    return null;
  },
  pop: (self: unknown[], args: readonly unknown[]) => {
    if (self.length === 0) throw new TemplateProblem("IndexError: pop from empty list");
    const i = args.length > 0 ? listIndex(self, args[0]) : self.length - 1;
    if (i < 0 || i >= self.length) throw new TemplateProblem("IndexError: pop index out of range");
    return self.splice(i, 1)[0];
  },
  remove: (self: unknown[], args: readonly unknown[], account?: RenderAccount) => {
    const item = oneArgument(args, "remove");
    charge(account).step(self.length);
    const i = self.findIndex((x) => pyEq(x, item));
    if (i === -1) throw new TemplateProblem("ValueError: list.remove(x): x not in list");
    self.splice(i, 1);
    return null;
  },
  index: (self: unknown[], args: readonly unknown[], account?: RenderAccount) => {
    // list.index(x, start, stop): negative bounds count from the end, as slices do.
    const pos = positional(args, 1, 3, "index", "list");
    const bound = (v: unknown, fallback: number) => {
      if (v === undefined || v === null) return fallback;
      const n = Number(v);
      return n < 0 ? Math.max(0, self.length + n) : Math.min(n, self.length);
    };
    const start = bound(pos[1], 0);
    const stop = bound(pos[2], self.length);
    charge(account).step(self.length);
    for (let i = start; i < stop; i++) if (pyEq(self[i], pos[0])) return i;
    throw new TemplateProblem(`ValueError: ${pyRepr(pos[0])} is not in list`);
  },
  count: (self: unknown[], args: readonly unknown[], account?: RenderAccount) => {
    const item = oneArgument(args, "count");
    charge(account).step(self.length);
    return self.filter((x) => pyEq(x, item)).length;
  },
  reverse: (self: unknown[]) => {
    self.reverse();
    return null;
  },
  copy: (self: unknown[]) => self.slice(),
  clear: (self: unknown[]) => {
    self.length = 0;
    return null;
  },
  __getitem__: (self: unknown[], args: readonly unknown[]) => {
    const [index] = slotArgs(args, 1, "__getitem__");
    return self[seqSlot(self.length, index, self, "index out of range")];
  },
  __setitem__: (self: unknown[], args: readonly unknown[]) => {
    const [index, value] = slotArgs(args, 2, "__setitem__");
    if (self instanceof PyTuple) throw typeError("'tuple' object does not support item assignment");
    self[seqSlot(self.length, index, self, "assignment index out of range")] = value;
    return null;
  },
  __delitem__: (self: unknown[], args: readonly unknown[]) => {
    const [index] = slotArgs(args, 1, "__delitem__");
    if (self instanceof PyTuple) throw typeError("'tuple' object doesn't support item deletion");
    self.splice(seqSlot(self.length, index, self, "assignment index out of range"), 1);
    return null;
  },
  __contains__: (self: unknown[], args: readonly unknown[], account?: RenderAccount) => {
    const [item] = slotArgs(args, 1, "__contains__");
    charge(account).step(self.length);
    return self.some((x) => pyEq(x, item));
  },
  __len__: (self: unknown[], args: readonly unknown[]) => {
    slotArgs(args, 0, "__len__");
    return self.length;
  },
});

// A cased character (Python's Lu, Ll and Lt): of ASCII, the letters; the pattern for the rest is built on first use
// (a pattern of Unicode classes costs V8 a good part of a millisecond, at every start).
let casedPattern: RegExp | undefined;
function isCased(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  // biome-ignore lint/complexity/useRegexLiterals: a constructor call, so that lazy-patterns.test.ts sees when it is built
  casedPattern ??= new RegExp("[\\p{Lu}\\p{Ll}\\p{Lt}]", "u");
  return casedPattern.test(ch);
}

/**
 * Characters whose title case (what Python's `title()` and `capitalize()` give a word's first letter) is not their
 * upper case: `ß` is `Ss` (not `SS`), the ligatures `ﬁ` and the like, and the digraphs `ǆ`, `ǉ`, `ǌ`, `ǳ`.
 */
const TITLE_CASE: Readonly<Record<string, string>> = {
  ß: "Ss",
  ﬀ: "Ff",
  ﬁ: "Fi",
  ﬂ: "Fl",
  ﬃ: "Ffi",
  ﬄ: "Ffl",
  ﬅ: "St",
  ﬆ: "St",
  Ǆ: "ǅ",
  ǅ: "ǅ",
  ǆ: "ǅ",
  Ǉ: "ǈ",
  ǈ: "ǈ",
  ǉ: "ǈ",
  Ǌ: "ǋ",
  ǋ: "ǋ",
  ǌ: "ǋ",
  Ǳ: "ǲ",
  ǲ: "ǲ",
  ǳ: "ǲ",
};

function titleCase(ch: string): string {
  return hasOwn(TITLE_CASE, ch) ? (TITLE_CASE[ch] as string) : ch.toUpperCase();
}

/** The array index Python's `seq[index]` means (negative from the end), or its IndexError/TypeError. */
function seqSlot(length: number, index: unknown, self: unknown, problem: string): number {
  const kind = typeof self === "string" ? "string" : self instanceof PyTuple ? "tuple" : "list";
  if (typeof index !== "boolean" && !(typeof index === "number" && Number.isInteger(index)))
    throw typeError(`${kind} indices must be integers or slices, not ${pyTypeName(index)}`);
  const n = Number(index);
  const i = n < 0 ? length + n : n;
  if (i < 0 || i >= length) throw new TemplateProblem(`IndexError: ${kind} ${problem}`);
  return i;
}

/** Python's whitespace for str.split()/strip() without arguments (`str.isspace()`, and `\s` on text). */
export const PY_SPACE =
  " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  const set = chars === undefined || chars === null ? PY_SPACE : String(chars);
  let a = 0;
  let b = s.length;
  if (left) while (a < b && set.includes(s[a] as string)) a++;
  if (right) while (b > a && set.includes(s[b - 1] as string)) b--;
  return s.slice(a, b);
}

function splitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && PY_SPACE.includes(s[i] as string)) i++;
    if (i >= n) break;
    // The rest, from its first non-space character, keeps its trailing white space (as Python's split does).
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(s.slice(i));
      return out;
    }
    let j = i;
    while (j < n && !PY_SPACE.includes(s[j] as string)) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

export function pySplit(s: string, sep: unknown, maxsplit: unknown): string[] {
  const max = maxsplit === undefined || maxsplit === null ? -1 : Number(maxsplit);
  if (sep === undefined || sep === null) return splitWhitespace(s, max);
  const d = String(sep);
  if (d === "") throw new TemplateProblem("ValueError: empty separator");
  const parts = s.split(d);
  if (max < 0 || parts.length <= max + 1) return parts;
  return [...parts.slice(0, max), parts.slice(max).join(d)];
}

function affix(s: string, arg: unknown, test: (s: string, p: string) => boolean): boolean {
  if (Array.isArray(arg)) return arg.some((p) => test(s, String(p)));
  return test(s, String(arg));
}

function textOf(self: unknown): string {
  return isSafeString(self) ? self.val : (self as string);
}

export const STR_METHODS: Record<string, Method> = Object.assign(Object.create(null), {
  split: (self: string, args: readonly unknown[]) => {
    const [sep, max] = bindArgs(args, ["sep", "maxsplit"], "split");
    return pySplit(textOf(self), sep, max);
  },
  rsplit: (self: string, args: readonly unknown[]) => {
    const [sep, maxArg] = bindArgs(args, ["sep", "maxsplit"], "rsplit");
    const max = maxArg === undefined || maxArg === null ? -1 : Number(maxArg);
    const s = textOf(self);
    if (max < 0) return pySplit(s, sep, -1);
    if (sep === undefined || sep === null) {
      const words = splitWhitespace(s, -1);
      // With `max` splits made before the first word, that word keeps the white space before it.
      if (words.length <= max) return words;
      const headWords = words.length - max;
      let idx = s.length;
      const tail: string[] = [];
      for (let k = words.length - 1; k >= headWords; k--) {
        idx = s.lastIndexOf(words[k] as string, idx - 1);
        tail.unshift(words[k] as string);
      }
      return [stripChars(s.slice(0, idx), undefined, false, true), ...tail];
    }
    const parts = s.split(String(sep));
    if (parts.length <= max + 1) return parts;
    return [parts.slice(0, parts.length - max).join(String(sep)), ...parts.slice(parts.length - max)];
  },
  splitlines: (self: string, args: readonly unknown[]) => {
    const keep = args[0] === true;
    const s = textOf(self);
    const out: string[] = [];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: Python's splitlines() splits on these separators.
    const re = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
    let last = 0;
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      out.push(s.slice(last, keep ? m.index + m[0].length : m.index));
      last = m.index + m[0].length;
    }
    if (last < s.length) out.push(s.slice(last));
    return out;
  },
  strip: (self: string, args: readonly unknown[]) => stripChars(textOf(self), args[0], true, true),
  lstrip: (self: string, args: readonly unknown[]) => stripChars(textOf(self), args[0], true, false),
  rstrip: (self: string, args: readonly unknown[]) => stripChars(textOf(self), args[0], false, true),
  startswith: (self: string, args: readonly unknown[]) =>
    affix(textOf(self), args[0], (s, p) => s.startsWith(p)),
  endswith: (self: string, args: readonly unknown[]) => affix(textOf(self), args[0], (s, p) => s.endsWith(p)),
  lower: (self: string) => textOf(self).toLowerCase(),
  upper: (self: string) => textOf(self).toUpperCase(),
  title: (self: string) => {
    // Python: a cased character after an uncased one is title-cased, the others lower-cased.
    let out = "";
    let previousCased = false;
    for (const ch of textOf(self)) {
      const cased = isCased(ch);
      out += cased ? (previousCased ? ch.toLowerCase() : titleCase(ch)) : ch;
      previousCased = cased;
    }
    return out;
  },
  capitalize: (self: string) => {
    const [first = "", ...rest] = Array.from(textOf(self));
    return titleCase(first) + rest.join("").toLowerCase();
  },
  swapcase: (self: string) =>
    Array.from(textOf(self), (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(""),
  replace: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const s = textOf(self);
    const old = String(args[0]);
    const rep = String(args[1]);
    const count = args.length > 2 ? Number(args[2]) : -1;
    // Python finds the empty string before every character and at the end.
    const parts = old === "" ? ["", ...Array.from(s), ""] : s.split(old);
    const n = count < 0 ? parts.length - 1 : Math.min(count, parts.length - 1);
    charge(account).build(s.length + n * (rep.length - old.length), "str.replace");
    if (old === "") return parts.slice(0, n + 1).join(rep) + parts.slice(n + 1).join("");
    if (count < 0) return parts.join(rep);
    if (parts.length <= count + 1) return parts.join(rep);
    return parts.slice(0, count + 1).join(rep) + old + parts.slice(count + 1).join(old);
  },
  format: (self: string, args: readonly unknown[], account?: RenderAccount) =>
    pyFormatMethod(textOf(self), args, charge(account)),
  format_map: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const mapping = args[0];
    if (!isMapping(mapping)) throw typeError(`'${pyTypeName(mapping)}' object is not a mapping`);
    // No prototype: a key `__proto__` is a field name like any other.
    const keywords: Record<string, unknown> = Object.create(null);
    for (const key of mappingKeys(mapping))
      if (typeof key === "string") keywords[key] = getItem(mapping, key);
    return pyFormatMethod(textOf(self), [makeKeywordArgs(keywords)], charge(account));
  },
  join: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const src = args[0];
    const items = Array.isArray(src)
      ? src
      : typeof src === "string"
        ? Array.from(src)
        : isMapping(src)
          ? mappingKeys(src)
          : [];
    for (const item of items) {
      if (typeof item !== "string" && !isSafeString(item)) {
        throw new TemplateProblem(
          `TypeError: sequence item: expected str instance, ${pyTypeName(item)} found`,
        );
      }
    }
    const sep = textOf(self);
    let size = Math.max(0, items.length - 1) * sep.length;
    for (const item of items) size += textOf(item).length;
    charge(account).build(size, "str.join");
    return items.map((x) => pyStr(x)).join(sep);
  },
  find: (self: string, args: readonly unknown[]) => textOf(self).indexOf(String(args[0])),
  rfind: (self: string, args: readonly unknown[]) => textOf(self).lastIndexOf(String(args[0])),
  index: (self: string, args: readonly unknown[]) => {
    const i = textOf(self).indexOf(String(args[0]));
    if (i === -1) throw new TemplateProblem("ValueError: substring not found");
    return i;
  },
  count: (self: string, args: readonly unknown[]) => {
    const sub = String(args[0]);
    const s = textOf(self);
    return sub === "" ? s.length + 1 : s.split(sub).length - 1;
  },
  isdigit: (self: string) => /^[0-9]+$/.test(textOf(self)),
  isnumeric: (self: string) => /^\p{N}+$/u.test(textOf(self)),
  isalpha: (self: string) => /^\p{L}+$/u.test(textOf(self)),
  isalnum: (self: string) => /^[\p{L}\p{N}]+$/u.test(textOf(self)),
  isspace: (self: string) =>
    textOf(self).length > 0 && stripChars(textOf(self), undefined, true, true) === "",
  islower: (self: string) => /\p{Ll}/u.test(textOf(self)) && !/\p{Lu}/u.test(textOf(self)),
  isupper: (self: string) => /\p{Lu}/u.test(textOf(self)) && !/\p{Ll}/u.test(textOf(self)),
  zfill: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const s = textOf(self);
    const width = padWidth(s, args[0], account, "str.zfill");
    if (s.length >= width) return s;
    const sign = s[0] === "-" || s[0] === "+" ? (s[0] as string) : "";
    return sign + "0".repeat(width - s.length) + s.slice(sign.length);
  },
  center: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const s = textOf(self);
    const width = padWidth(s, args[0], account, "str.center");
    const fill = args.length > 1 ? String(args[1]) : " ";
    if (s.length >= width) return s;
    const total = width - s.length;
    const left = Math.floor(total / 2) + (total & width & 1);
    return fill.repeat(left) + s + fill.repeat(total - left);
  },
  ljust: (self: string, args: readonly unknown[], account?: RenderAccount) =>
    textOf(self).padEnd(
      padWidth(textOf(self), args[0], account, "str.ljust"),
      args.length > 1 ? String(args[1]) : " ",
    ),
  rjust: (self: string, args: readonly unknown[], account?: RenderAccount) =>
    textOf(self).padStart(
      padWidth(textOf(self), args[0], account, "str.rjust"),
      args.length > 1 ? String(args[1]) : " ",
    ),
  partition: (self: string, args: readonly unknown[]) => {
    const s = textOf(self);
    const sep = String(args[0]);
    const i = s.indexOf(sep);
    return i === -1 ? PyTuple.of_([s, "", ""]) : PyTuple.of_([s.slice(0, i), sep, s.slice(i + sep.length)]);
  },
  rpartition: (self: string, args: readonly unknown[]) => {
    const s = textOf(self);
    const sep = String(args[0]);
    if (sep === "") throw new TemplateProblem("ValueError: empty separator");
    const i = s.lastIndexOf(sep);
    return i === -1 ? PyTuple.of_(["", "", s]) : PyTuple.of_([s.slice(0, i), sep, s.slice(i + sep.length)]);
  },
  rindex: (self: string, args: readonly unknown[]) => {
    const i = textOf(self).lastIndexOf(String(args[0]));
    if (i === -1) throw new TemplateProblem("ValueError: substring not found");
    return i;
  },
  removeprefix: (self: string, args: readonly unknown[]) => {
    const s = textOf(self);
    const prefix = textOf(args[0]);
    return prefix !== "" && s.startsWith(prefix) ? s.slice(prefix.length) : s;
  },
  removesuffix: (self: string, args: readonly unknown[]) => {
    const s = textOf(self);
    const suffix = textOf(args[0]);
    return suffix !== "" && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
  },
  // Full case folding is what upper- then lower-casing gives for all but a few scripts (`ß` is `ss`).
  casefold: (self: string) => textOf(self).toUpperCase().toLowerCase(),
  isdecimal: (self: string) => /^\p{Nd}+$/u.test(textOf(self)),
  isidentifier: (self: string) =>
    /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(textOf(self)),
  istitle: (self: string) => {
    // Upper- and title-case characters only after uncased ones, lower-case ones only after cased ones; one at least.
    let previousCased = false;
    let cased = false;
    for (const ch of textOf(self)) {
      if (/[\p{Lu}\p{Lt}]/u.test(ch)) {
        if (previousCased) return false;
        previousCased = true;
        cased = true;
      } else if (/\p{Ll}/u.test(ch)) {
        if (!previousCased) return false;
        previousCased = true;
        cased = true;
      } else previousCased = false;
    }
    return cased;
  },
  expandtabs: (self: string, args: readonly unknown[], account?: RenderAccount) => {
    const [sizeArg = 8] = bindArgs(args, ["tabsize"], "expandtabs");
    const size = Number(sizeArg);
    let out = "";
    let column = 0;
    for (const ch of textOf(self)) {
      if (ch === "\t") {
        const pad = size > 0 ? size - (column % size) : 0;
        charge(account).build(out.length + pad, "str.expandtabs");
        out += " ".repeat(pad);
        column += pad;
      } else {
        out += ch;
        column = ch === "\n" || ch === "\r" ? 0 : column + 1;
      }
    }
    return out;
  },
  translate: (self: string, args: readonly unknown[]) => {
    const table = args[0];
    let out = "";
    for (const ch of textOf(self)) {
      const found = isMapping(table) ? findItem(table, ch.codePointAt(0) as number) : NOT_FOUND;
      if (found === NOT_FOUND) out += ch;
      else if (found === null) continue;
      else if (typeof found === "number") out += String.fromCodePoint(found);
      else if (typeof found === "string" || isSafeString(found)) out += textOf(found);
      else throw typeError("character mapping must return integer, None or str");
    }
    return out;
  },
  encode: (self: string) => textOf(self),
  decode: (self: string) => textOf(self),
  __getitem__: (self: string, args: readonly unknown[]) => {
    const [index] = slotArgs(args, 1, "__getitem__");
    const chars = Array.from(textOf(self));
    return chars[seqSlot(chars.length, index, "", "index out of range")];
  },
  __contains__: (self: string, args: readonly unknown[]) => {
    const [item] = slotArgs(args, 1, "__contains__");
    if (typeof item !== "string" && !isSafeString(item))
      throw typeError(`'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    return textOf(self).includes(textOf(item));
  },
  __len__: (self: string, args: readonly unknown[]) => {
    slotArgs(args, 0, "__len__");
    return Array.from(textOf(self)).length;
  },
});

/** The string methods as an opaque render runs them (see opaque-methods.ts). */
export const OPAQUE_STR_METHODS: Record<string, Method> = opaqueStrMethods(STR_METHODS);

/** A padding width, charged when it makes the text longer. */
function padWidth(s: string, width: unknown, account: RenderAccount | undefined, what: string): number {
  const w = Number(width);
  if (w > s.length) charge(account).build(w, what);
  return w;
}

/** A range's methods: Python's `index` and `count` (it cannot be changed). */
const RANGE_METHODS: Record<string, Method> = Object.assign(Object.create(null), {
  index: (self: PyRange, args: readonly unknown[], account?: RenderAccount) => {
    const item = oneArgument(args, "index");
    charge(account).step(self.length);
    const i = self.findIndex((x) => pyEq(x, item));
    if (i === -1) throw new TemplateProblem(`ValueError: ${pyRepr(item)} is not in range`);
    return i;
  },
  count: LIST_METHODS.count,
});

/** Whether the method `name` of `table` returns a value it built (charged by its size), not one it holds. */
export function methodBuilds(table: Record<string, Method>, name: string): boolean {
  if (table === STR_METHODS) return true;
  return name === "copy" || name === "keys" || name === "values" || name === "items" || name === "fromkeys";
}

/** The Python method `name` of `self`, or undefined when its type has no such method. */
export function methodTable(self: unknown): Record<string, Method> | undefined {
  if (typeof self === "string" || isSafeString(self))
    return opaqueActive() ? OPAQUE_STR_METHODS : STR_METHODS;
  if (self instanceof DictView) return VIEW_METHODS;
  if (self instanceof PyRange) return RANGE_METHODS;
  const numeric = numberMethods(self);
  if (numeric !== undefined) return numeric as Record<string, Method>;
  if (Array.isArray(self)) return LIST_METHODS;
  if (isMapping(self)) return DICT_METHODS;
  return undefined;
}
