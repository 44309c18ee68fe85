// Opaque text: text that came from a value the template's author does not control (a minion's id and grains) and
// that must stay text, whatever the rendered output is later read as (lines, YAML, glob patterns, paths).
//
// Every character of such a value that could mean something to a later reader is replaced by a private-use code
// point — one UTF-16 code unit for one — before the render; the characters that mean nothing to any reader (letters,
// digits, `_`, `-`, most non-ASCII characters, and a `.` between two of those) are left alone, so ordinary values
// are unchanged. During a render with opaque text on, the template's semantics see through the marks: comparisons,
// lookups, conversions and string methods use the characters the marks stand for, and the pieces a string operation
// returns keep their marks (one code unit for one, so they are cut by the same indices). The caller unmarks the
// output at the end and decides what each marked character may become (see source-stack's config reading).
import {
  getItem,
  hasOwn,
  isPlainObject,
  keyIdentity,
  keyText,
  type Mapping,
  type MappingKey,
  mappingKeys,
  PyDict,
  setKey,
} from "@merge/core";

/** Marks of the code units U+0000–U+00FF: U+E000 + the code unit. */
const LOW = 0xe000;
/** Marks of the other characters that are never inert, in the order of `EXTRA`: U+E100 + the index. */
const HIGH = 0xe100;
/** The mark of a code unit that has no mark of its own (a lone surrogate); it stands for U+FFFD. */
const UNKNOWN = 0xe1ff;
const FIRST_MARK = LOW;
const LAST_MARK = UNKNOWN;

/**
 * The characters above U+00FF that are never inert: separators (which Python splits on and YAML may end a line at),
 * format characters (invisible, some reorder the text around them when it is shown), and U+FFFE/U+FFFF (which
 * YAML rejects).
 */
const EXTRA: string = [
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x1680, 0x1680],
  [0x180e, 0x180e],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x2064],
  [0x2066, 0x206f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
  [0xfff9, 0xfffb],
  [0xfffe, 0xffff],
]
  .map(([a, b]) => {
    let s = "";
    for (let c = a as number; c <= (b as number); c++) s += String.fromCharCode(c);
    return s;
  })
  .join("");

const HAS_MARK = /[\ue000-\ue1ff]/;
// Host names, addresses, versions: inert runs joined by single dots, which stay unmarked.
const ALL_INERT = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)?$/;

/** Whether code unit `c` of `s` (at `i`) is inert, `.` aside (its inertness depends on its neighbours). */
function inertUnit(s: string, i: number, c: number): boolean {
  if (c < 0x80) {
    return (
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x5f ||
      c === 0x2d
    );
  }
  if (c < 0x100) return c >= 0xa1 && c !== 0xad;
  if (c >= FIRST_MARK && c <= LAST_MARK) return false;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = s.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff;
  }
  return EXTRA.indexOf(String.fromCharCode(c)) < 0;
}

function inertNeighbour(s: string, j: number): boolean {
  if (j < 0 || j >= s.length) return false;
  const c = s.charCodeAt(j);
  return c !== 0x2e && inertUnit(s, j, c);
}

/** The mark standing for code unit `c` (at `i` of `s`), or `c` itself when it is inert or already a mark. */
function markUnit(s: string, i: number, c: number): number {
  if (c === 0x2e) return inertNeighbour(s, i - 1) && inertNeighbour(s, i + 1) ? c : LOW + c;
  if (inertUnit(s, i, c)) return c;
  if (c < 0x100) return LOW + c;
  if (c >= FIRST_MARK && c <= LAST_MARK) return c;
  const extra = EXTRA.indexOf(String.fromCharCode(c));
  return extra >= 0 ? HIGH + extra : UNKNOWN;
}

/**
 * `s` with every character that is not inert replaced by its mark. Marks already in `s` stay as they are (so
 * marking twice changes nothing, and a value that arrives holding code points of the mark range is read as marked
 * text: it can stand only for a literal character, never for structure).
 */
export function markText(s: string): string {
  if (ALL_INERT.test(s)) return s;
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const m = markUnit(s, i, c);
    if (m === c) continue;
    out += s.slice(from, i) + String.fromCharCode(m);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Whether `s` holds any mark. */
export function hasMarks(s: string): boolean {
  return HAS_MARK.test(s);
}

/** Whether a code unit is a mark. */
export function isMark(code: number): boolean {
  return code >= FIRST_MARK && code <= LAST_MARK;
}

/**
 * The character a mark stands for: a string of one code unit, `null` for a mark with no known character (a lone
 * surrogate), `undefined` when `code` is not a mark.
 */
export function opaqueChar(code: number): string | null | undefined {
  if (code < FIRST_MARK || code > LAST_MARK) return undefined;
  if (code < HIGH) return String.fromCharCode(code - LOW);
  const extra = code - HIGH;
  return extra < EXTRA.length ? (EXTRA[extra] as string) : null;
}

/** `s` with every mark replaced by the character it stands for (U+FFFD when it stands for none). */
export function plainOpaque(s: string): string {
  if (!HAS_MARK.test(s)) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = opaqueChar(c);
    out += ch === undefined ? s[i] : (ch ?? "\ufffd");
  }
  return out;
}

/**
 * A copy of `value` whose strings — mapping keys included, at any depth, in lists, mappings (plain objects and
 * `PyDict`s, each copied in its own representation) and `Map`s — are marked with `markText`. Other values are kept
 * as they are. Shared and cyclic subtrees stay shared and cyclic.
 */
export function markOpaque(value: unknown): unknown {
  const copies = new Map<object, unknown>();
  const copy = (v: unknown): unknown => {
    if (typeof v === "string") return markText(v);
    if (typeof v !== "object" || v === null) return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      copies.set(v, out);
      pending.push(() => {
        for (const item of v) out.push(copy(item));
      });
      return out;
    }
    if (v instanceof PyDict) {
      const out = new PyDict();
      copies.set(v, out);
      pending.push(() => {
        for (const [k, item] of v) out.set(typeof k === "string" ? markText(k) : k, copy(item));
      });
      return out;
    }
    if (isPlainObject(v)) {
      const out: Record<string, unknown> = {};
      copies.set(v, out);
      pending.push(() => {
        for (const k of Object.keys(v)) setKey(out, markText(k), copy(v[k]));
      });
      return out;
    }
    if (v instanceof Map) {
      const out = new Map<unknown, unknown>();
      copies.set(v, out);
      pending.push(() => {
        for (const [k, item] of v) out.set(copy(k), copy(item));
      });
      return out;
    }
    return v;
  };
  // Children are filled in from a work list, not by recursion: any depth is safe.
  const pending: (() => void)[] = [];
  const root = copy(value);
  while (pending.length > 0) pending.pop()?.();
  return root;
}

/**
 * Marks a `.` at either end of `piece`, a piece cut out of a longer string. Inside a marked value a `.` is left
 * unmarked only between two inert characters; cutting can leave it at an edge, where another piece could put it
 * next to a `.` or a `/`. Outside an opaque render, or without such a dot, `piece` is returned as it is.
 */
export function cutPiece(piece: string): string {
  if (!active || piece.length === 0) return piece;
  const last = piece.length - 1;
  const head = piece.charCodeAt(0) === 0x2e;
  const tail = piece.charCodeAt(last) === 0x2e;
  if (!head && !tail) return piece;
  const dot = String.fromCharCode(LOW + 0x2e);
  if (last === 0) return dot;
  return (head ? dot : piece[0]) + piece.slice(1, last) + (tail ? dot : piece[last]);
}

// Whether the render running now reads marks as the characters they stand for. Rendering is synchronous: the flag
// is set for the duration of one `render()` call and restored when it returns or throws (see `withOpaqueText`).
let active = false;

/** Whether the current render has opaque text on. */
export function opaqueActive(): boolean {
  return active;
}

/** Runs `render` with opaque text on or off, restoring the previous setting afterwards. */
export function withOpaqueText<T>(on: boolean, render: () => T): T {
  const previous = active;
  active = on;
  try {
    return render();
  } finally {
    active = previous;
  }
}

/** Python's `==` on two strings, seeing through marks when opaque text is on. */
export function opaqueStrEq(a: string, b: string): boolean {
  return active && (HAS_MARK.test(a) || HAS_MARK.test(b)) && plainOpaque(a) === plainOpaque(b);
}

/**
 * `s.split(sep)` as Python reads it in an opaque render: `sep` is found in the plain text, and the pieces are cut
 * out of `s` (keeping their marks).
 */
export function splitText(s: string, sep: string): string[] {
  if (!active) return s.split(sep);
  const p = plainOpaque(s);
  const d = plainOpaque(sep);
  if (d === "" || (p === s && d === sep)) return s.split(sep).map(cutPiece);
  const out: string[] = [];
  let from = 0;
  for (let i = p.indexOf(d); i !== -1; i = p.indexOf(d, from)) {
    out.push(cutPiece(s.slice(from, i)));
    from = i + d.length;
  }
  out.push(cutPiece(s.slice(from)));
  return out;
}

/** `s` as comparisons and conversions see it: the plain text when opaque text is on. */
export function seen(s: string): string {
  return active ? plainOpaque(s) : s;
}

/** What `findItem` returns for a key the mapping does not hold. */
export const NOT_FOUND: unique symbol = Symbol("not found");

/**
 * The key of `mapping` that `key` finds, or undefined: `key` itself (by Python's equality in a `PyDict`, by the
 * name `json.dumps` gives it in a plain object), or, when opaque text is on, a key with the same plain text (a marked
 * grain used to look up an author's mapping, or an author's key looking up a marked grains mapping). Every lookup of
 * a mapping key in a render goes through here or `findItem`. An unhashable key is a `MergeError` (`UNHASHABLE_KEY`).
 */
export function ownKey(mapping: Mapping, key: unknown): MappingKey | undefined {
  if (mapping instanceof PyDict) {
    if (mapping.has(key)) return key as MappingKey;
  } else {
    const name = typeof key === "string" ? key : plainName(key);
    if (hasOwn(mapping, name)) return name;
  }
  if (!active || typeof key !== "string") return undefined;
  return opaqueKey(mapping, key);
}

/** The value of `mapping` at `key` (found as `ownKey` finds it), or `NOT_FOUND`. */
export function findItem(mapping: Mapping, key: unknown): unknown {
  if (mapping instanceof PyDict) {
    const value = mapping.get(key);
    if (value !== undefined || mapping.has(key)) return value;
  } else {
    const name = typeof key === "string" ? key : plainName(key);
    if (hasOwn(mapping, name)) return mapping[name];
  }
  if (!active || typeof key !== "string") return NOT_FOUND;
  const own = opaqueKey(mapping, key);
  return own === undefined ? NOT_FOUND : getItem(mapping, own);
}

/**
 * The name a key has in a plain object (`json.dumps`'s: `8080`, `1.0`, `true`, `null`); an unhashable key (a list,
 * a mapping) is refused as a `PyDict` refuses it, so plain objects and `PyDict`s fail alike.
 */
export function plainName(key: unknown): string {
  if (typeof key === "object" && key !== null) keyIdentity(key);
  return keyText(key);
}

/** A key of `mapping` whose plain text is the plain text of `key` (a key `ownKey` did not find as it is). */
function opaqueKey(mapping: Mapping, key: string): MappingKey | undefined {
  const has = (k: string) => (mapping instanceof PyDict ? mapping.has(k) : hasOwn(mapping, k));
  const plain = plainOpaque(key);
  if (plain !== key && has(plain)) return plain;
  const marked = markText(plain);
  if (marked !== key && has(marked)) return marked;
  // A key put together from marked and unmarked pieces: compare plain texts (only keys that can hold marks).
  if (marked === plain && plain === key) return undefined;
  for (const k of mappingKeys(mapping)) if (typeof k === "string" && plainOpaque(k) === plain) return k;
  return undefined;
}
