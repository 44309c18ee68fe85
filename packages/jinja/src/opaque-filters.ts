// Filters and tests in a render with opaque text on (see opaque.ts). Most need nothing: they move strings around
// whole, compare through pyEq/pyCompare, or iterate through pyIter, all of which see through marks already. The
// ones below read the text itself; outside an opaque render, or when nothing they are given holds a mark, each
// runs exactly as registered.
import { getItem, isMapping, isPlainObject, mappingKeys, PyDict, setKey } from "@merge/core";
import { OPAQUE_STR_METHODS } from "./methods.js";
import { hasMarks, markOpaque, markText, opaqueActive, plainOpaque, seen } from "./opaque.js";
import { isSafeString, markSafe, pyStr } from "./pyvalues.js";

type Fn = (this: never, value: unknown, ...args: unknown[]) => unknown;

/** Whether a filter's input holds a mark: in a string, a list of strings or a mapping's keys and string values. */
function marked(value: unknown): boolean {
  if (typeof value === "string") return hasMarks(value);
  if (isSafeString(value)) return hasMarks(value.val);
  if (Array.isArray(value)) return value.some((v) => typeof v === "string" && hasMarks(v));
  if (isMapping(value))
    return mappingKeys(value).some((k) => {
      const v = getItem(value, k);
      return (typeof k === "string" && hasMarks(k)) || (typeof v === "string" && hasMarks(v));
    });
  return false;
}

function plainValue(value: unknown): unknown {
  if (typeof value === "string") return plainOpaque(value);
  if (isSafeString(value)) return markSafe(plainOpaque(value.val));
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? plainOpaque(v) : v));
  if (value instanceof PyDict) {
    const out = new PyDict();
    for (const [k, v] of value)
      out.set(typeof k === "string" ? plainOpaque(k) : k, typeof v === "string" ? plainOpaque(v) : v);
    return out;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      const v = value[k];
      setKey(out, plainOpaque(k), typeof v === "string" ? plainOpaque(v) : v);
    }
    return out;
  }
  return value;
}

function remark(result: unknown): unknown {
  if (typeof result === "string") return markText(result);
  if (isSafeString(result)) return markSafe(markText(result.val));
  return result;
}

/** Numbers and answers about the text: computed from the plain text. */
const PLAIN = new Set(["int", "float", "round", "abs", "filesizeformat", "wordcount"]);
/** Text these filters rewrite as a whole: computed from the plain text, and all of the result counts as marked. */
const REMARK = new Set([
  "truncate",
  "striptags",
  "urlencode",
  "escape",
  "e",
  "forceescape",
  "wordwrap",
  "xmlattr",
  "urlize",
]);
/** Text cut into pieces: the opaque string methods, which keep each character's mark. */
const METHOD: Readonly<Record<string, string>> = { trim: "strip", replace: "replace" };
/** Decoders: the plain text is decoded, and every string of the result is marked (it came from marked text). */
const DECODE = new Set(["load_yaml", "load_json"]);

/**
 * Jinja's `title` filter (not Python's `str.title()`): the text is split before runs of `-`, white space and
 * `({[<`, and each piece gets its first character upper-cased and the rest lower-cased. The runs are found in the
 * plain text, so a minion's marked space or bracket separates words as the character itself would.
 */
export function titleFilter(s: string): string {
  const plain = seen(s);
  let out = "";
  let from = 0;
  const piece = (to: number) => {
    const item = s.slice(from, to);
    const first = String.fromCodePoint(item.codePointAt(0) ?? 0);
    if (item !== "") out += first.toUpperCase() + item.slice(first.length).toLowerCase();
    from = to;
  };
  for (const m of plain.matchAll(/[-\s({[<]+/gu)) {
    piece(m.index);
    out += s.slice(m.index, m.index + m[0].length);
    from = m.index + m[0].length;
  }
  piece(s.length);
  return out;
}

/** `filter` as an opaque render runs it. */
export function opaqueFilter<F extends Fn>(name: string, filter: F): F {
  const method = METHOD[name];
  if (method !== undefined) {
    return function (this: unknown, value: unknown, ...args: unknown[]) {
      if (!opaqueActive()) return filter.call(this as never, value, ...args);
      if (name === "replace") {
        const [old, rep, count] = args;
        const list = count === undefined || count === null ? [old, rep] : [old, rep, count];
        return OPAQUE_STR_METHODS.replace?.(text(value) as never, list);
      }
      const list = name === "trim" && args[0] !== undefined ? [args[0]] : [];
      return OPAQUE_STR_METHODS[method]?.(text(value) as never, list);
    } as unknown as F;
  }
  const plain = PLAIN.has(name);
  const again = REMARK.has(name);
  const decode = DECODE.has(name);
  if (!plain && !again && !decode) return filter;
  return function (this: unknown, value: unknown, ...args: unknown[]) {
    if (!opaqueActive() || !(marked(value) || args.some(marked)))
      return filter.call(this as never, value, ...args);
    const result = filter.call(this as never, plainValue(value), ...args.map(plainValue));
    if (decode) return markOpaque(result);
    return again ? remark(result) : result;
  } as unknown as F;
}

/** `test` as an opaque render runs it: the tests that read text read the plain text. */
export function opaqueTest<F extends Fn>(name: string, test: F): F {
  if (name !== "lower" && name !== "upper") return test;
  return function (this: unknown, value: unknown, ...args: unknown[]) {
    return opaqueActive()
      ? test.call(this as never, plainValue(value), ...args)
      : test.call(this as never, value, ...args);
  } as unknown as F;
}

function text(value: unknown): string {
  return pyStr(value);
}
