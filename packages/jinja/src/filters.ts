// Jinja's built-in filters and tests with Jinja/Python behaviour (nunjucks' versions differ in many small ways),
// plus Salt's serializer filters. Registered per environment; nunjucks' globals are untouched.
import {
  compareCodePoints,
  getItem,
  hasOwn,
  isMapping,
  keyIdentity,
  mappingKeys,
  mappingSize,
  PyFloat,
  pyFloat,
} from "@merge/core";
import { buildCostOf, type RenderAccount, sizeOf } from "./budget.js";
import { chargedAdd } from "./charged.js";
import { fixedPy, roundPy } from "./decimal.js";
import { TemplateProblem, typeError, undefinedOperand } from "./errors.js";
import { bindArgs, bindCall, isKwargs, missingArguments, splitArgs } from "./kwargs.js";
import { methodTable, pySplit, STR_METHODS } from "./methods.js";
import { floatValue, intValue, isFloat, isNumber, normInt, numAbs, toDouble, truncToInt } from "./numbers.js";
import { titleFilter } from "./opaque-filters.js";
import { pyPercent } from "./pyformat.js";
import { pyCompare, pyIn, pyLess, pyMod, textOf } from "./operators.js";
import { pySorted } from "./pysort.js";
import { missProblem, pyGetattr, pyIter } from "./runtime.js";
import {
  DictView,
  GroupTuple,
  htmlEscape,
  isSafeString,
  markSafe,
  PyTuple,
  pyBool,
  pyEq,
  pyRepr,
  pyStr,
  pyTypeName,
} from "./pyvalues.js";
import { pyJsonDumps, pyPformat } from "./serialize-python.js";
import { traverseOr } from "./salt.js";
import { wrapLine } from "./textwrap.js";
import { urlize } from "./urlize.js";
import { saltXml } from "./xml.js";
import { saltYamlDquote, saltYamlEncode, saltYamlSquote } from "./yaml-bridge.js";
import { findItem, NOT_FOUND, opaqueActive, plainOpaque } from "./opaque.js";

/** What a filter sees as `this`: nunjucks' render Context. */
export interface FilterThis {
  readonly env: {
    readonly pyState: { readonly account: RenderAccount };
    getFilter(name: string): (...a: unknown[]) => unknown;
    getTest(name: string): (...a: unknown[]) => unknown;
    pyParse(kind: string, text: string): unknown;
    pyYaml(value: unknown, flowStyle: unknown): string;
  };
}
type Filter = (this: FilterThis, value: unknown, ...args: unknown[]) => unknown;

const getattr = pyGetattr;

function text(v: unknown): string {
  return pyStr(v);
}

/**
 * Jinja's `environment.getitem` as the attribute getters use it: the item (an int part indexes a list and is an int
 * key of a mapping), then the attribute; undefined when neither exists.
 */
function itemOrAttr(cur: unknown, part: string | number): unknown {
  if (cur === undefined || cur === null) return undefined;
  if (isMapping(cur)) {
    const found = findItem(cur, part);
    if (found !== NOT_FOUND) return found;
    return typeof part === "string" ? getattr(cur, part, part) : undefined;
  }
  if (typeof part === "number") {
    if (Array.isArray(cur)) return cur[part];
    const s = textOf(cur);
    return s === undefined ? undefined : Array.from(s)[part];
  }
  return getattr(cur, part, part);
}

/** The steps of an `attribute='a.b'` / `'0'` argument: digits are int parts. */
function attributeParts(attribute: unknown): (string | number)[] {
  return typeof attribute === "number"
    ? [attribute]
    : String(attribute)
        .split(".")
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** Jinja's `attribute='a.b'` / `'0'` lookups used by sort, map, groupby, sum, ...: digits are int parts. */
function attrGetter(attribute: unknown, def?: unknown): (v: unknown) => unknown {
  if (attribute === undefined || attribute === null) return (v) => v;
  const parts = attributeParts(attribute);
  return (v) => {
    let cur = v;
    for (const p of parts) {
      cur = itemOrAttr(cur, p);
      if (cur === undefined && def !== undefined && def !== null) cur = def;
    }
    return cur;
  };
}

/**
 * What Jinja's `make_attrgetter` gives `sort` and `groupby` for an item that lacks the attribute: an Undefined that
 * remembers the lookup. Such keys are equal to each other; ordering one raises its lookup's message
 * (`'str object' has no attribute 'uid'`), as comparing an Undefined does in Jinja.
 */
class MissedKey {
  constructor(readonly problem: TemplateProblem) {}
}

/** `attrGetter` for sorting: a miss is a `MissedKey`, and a lookup on one raises its message, as in Jinja. */
function sortAttrGetter(attribute: unknown, def?: unknown): (v: unknown) => unknown {
  if (attribute === undefined || attribute === null) return (v) => v;
  const parts = attributeParts(attribute);
  return (v) => {
    let cur: unknown = v;
    for (const p of parts) {
      if (cur instanceof MissedKey) throw cur.problem;
      const next = itemOrAttr(cur, p);
      cur = next === undefined ? new MissedKey(missProblem(cur, p)) : next;
      if (cur instanceof MissedKey && def !== undefined && def !== null) cur = def;
    }
    return cur;
  };
}

function keyEq(a: unknown, b: unknown): boolean {
  if (a instanceof MissedKey || b instanceof MissedKey)
    return a instanceof MissedKey && b instanceof MissedKey;
  return pyEq(a, b);
}

/** Python's `<` on sort keys, a missed key raising its lookup's message. */
function keyLess(a: unknown, b: unknown): boolean {
  if (a instanceof MissedKey) throw a.problem;
  if (b instanceof MissedKey) throw b.problem;
  return pyLess(a, b);
}

/** Python's `<` on the lists `sort` makes its keys: item by item, `==` first, then `keyLess`. */
function keyListLess(a: readonly unknown[], b: readonly unknown[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (!keyEq(a[i], b[i])) return keyLess(a[i], b[i]);
  return a.length < b.length;
}

function sortKey(v: unknown, caseSensitive: boolean): unknown {
  if (!caseSensitive && typeof v === "string") return v.toLowerCase();
  return v;
}

function list(value: unknown): unknown[] {
  return [...pyIter(value, "value")];
}

function length(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === "string") return Array.from(value).length;
  if (isSafeString(value)) return Array.from(value.val).length;
  if (Array.isArray(value)) return value.length;
  if (isMapping(value)) return mappingSize(value);
  if (value instanceof Map || value instanceof Set) return value.size;
  if (value instanceof Uint8Array) return value.length;
  throw typeError(`object of type '${pyTypeName(value)}' has no len()`);
}

function indent(this: FilterThis, value: unknown, ...args: unknown[]): string {
  const [width = 4, first = false, blank = false] = bindArgs(args, ["width", "first", "blank"], "indent");
  if (value === undefined) throw undefinedOperand("the filter indent");
  // Jinja appends a line break to the value and splits its lines: text only.
  if (textOf(value) === undefined) {
    // A tuple cannot take the `+= "\n"`; a list takes it (as its characters) and then has no splitlines().
    if (value instanceof PyTuple) throw typeError('can only concatenate tuple (not "str") to tuple');
    if (Array.isArray(value))
      throw new TemplateProblem(
        `AttributeError: '${pyTypeName(value)}' object has no attribute 'splitlines'`,
      );
    throw typeError(`unsupported operand type(s) for +=: '${pyTypeName(value)}' and 'str'`);
  }
  const s = `${text(value)}\n`;
  const lines = STR_METHODS.splitlines?.(s as never, []) as string[];
  const padLength = typeof width === "string" ? width.length : Math.max(0, Number(width));
  this.env.pyState.account.build(s.length + padLength * lines.length, "the filter indent");
  const pad = typeof width === "string" ? width : " ".repeat(padLength);
  let rv: string;
  if (pyBool(blank)) rv = lines.join(`\n${pad}`);
  else {
    rv = lines.shift() ?? "";
    if (lines.length > 0) rv += `\n${lines.map((l) => (l ? pad + l : l)).join("\n")}`;
  }
  return pyBool(first) ? pad + rv : rv;
}

const UNDEFINED_KEY = Symbol("Undefined");

/** A key equal for values Python finds equal (`1`, `1.0`, `True`), or Python's error for unhashable ones. */
function hashKey(v: unknown): unknown {
  // With opaque text on, a marked string hashes as the text it stands for (as `==` compares it).
  if (typeof v === "string") return opaqueActive() ? plainOpaque(v) : v;
  if (isSafeString(v)) return opaqueActive() ? plainOpaque(v.val) : v.val;
  if (v === undefined) return UNDEFINED_KEY;
  if (v instanceof PyTuple) return keyIdentity(v);
  if (Array.isArray(v) || isMapping(v) || v instanceof Set)
    throw typeError(`unhashable type: '${pyTypeName(v)}'`);
  return keyIdentity(v);
}

function unique(value: unknown, ...args: unknown[]): unknown[] {
  const [caseSensitive = false, attribute] = bindArgs(args, ["case_sensitive", "attribute"], "unique");
  const get = attrGetter(attribute);
  // Python keeps a set of what it has seen.
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const item of pyIter(value, "value")) {
    const key = hashKey(sortKey(get(item), pyBool(caseSensitive)));
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function sortFilter(value: unknown, ...args: unknown[]): unknown[] {
  const [reverse = false, caseSensitive = false, attribute] = bindArgs(
    args,
    ["reverse", "case_sensitive", "attribute"],
    "sort",
  );
  const cs = pyBool(caseSensitive);
  // `attribute='a,b'` sorts by several attributes (Jinja's make_multi_attrgetter): the key is their list.
  const getters =
    typeof attribute === "string" && attribute.includes(",")
      ? attribute.split(",").map((a) => sortAttrGetter(a))
      : undefined;
  const get = sortAttrGetter(attribute);
  // The key is a list even for one attribute, as Jinja makes it: lists compare item by item with `==` first, so
  // items whose attribute is undefined everywhere keep their order (Undefined equals Undefined).
  const key =
    getters === undefined
      ? (item: unknown) => [sortKey(get(item), cs)]
      : (item: unknown) => getters.map((g) => sortKey(g(item), cs));
  return pySorted(list(value), key, keyListLess, pyBool(reverse));
}

function testFn(self: FilterThis, args: unknown[]): (v: unknown) => boolean {
  if (args.length === 0) return pyBool;
  const name = String(args[0]);
  const test = self.env.getTest(name);
  const rest = args.slice(1);
  return (v) => test.call(self, v, ...rest) === true;
}

function mapFilter(this: FilterThis, value: unknown, ...args: unknown[]): unknown[] {
  const { pos, kw } = splitArgs(args);
  // Jinja's map, select and reject go through the value only when it is true (`if value:`): None gives nothing.
  if (!pyBool(value)) return [];
  if (pos.length === 0 && kw !== undefined && hasOwn(kw, "attribute")) {
    const get = attrGetter(kw.attribute);
    return list(value).map((v) => {
      const r = get(v);
      return r === undefined && hasOwn(kw, "default") ? kw.default : r;
    });
  }
  if (pos.length === 0) throw new TemplateProblem("map requires a filter argument");
  const name = String(pos[0]);
  const f = this.env.getFilter(name);
  const rest = pos.slice(1);
  return list(value).map((v) => f.call(this, v, ...rest));
}

/** An int argument (`precision`, `ndigits`): Python's TypeError for a float or a string. */
function intArgument(v: unknown): number {
  const n = intValue(v);
  if (n === undefined) throw typeError(`'${pyTypeName(v)}' object cannot be interpreted as an integer`);
  return Number(n);
}

/** `round(x, n)` of an int with `n < 0`: to a multiple of 10^-n, ties to even (an int stays an int). */
function roundInt(x: number | bigint, places: number): number | bigint {
  if (places >= 0) return x;
  const big = typeof x === "bigint" ? x : BigInt(x);
  const unit = 10n ** BigInt(-places);
  let q = big / unit;
  let r = big % unit;
  if (r < 0n) {
    q -= 1n;
    r += unit;
  }
  if (r * 2n > unit || (r * 2n === unit && q % 2n !== 0n)) q += 1n;
  return normInt(q * unit);
}

/**
 * Jinja's `round`: `round(value, precision)` for `common` (an int stays an int, a float gives a float), and
 * `math.ceil`/`math.floor` of `value * 10**precision` divided back (always a float).
 */
function roundFilter(value: unknown, ...args: unknown[]): unknown {
  const [precision = 0, method = "common"] = bindArgs(args, ["precision", "method"], "round");
  if (method !== "common" && method !== "ceil" && method !== "floor")
    throw new TemplateProblem("method must be common, ceil or floor");
  if (!isNumber(value)) throw typeError(`type ${pyTypeName(value)} doesn't define __round__ method`);
  const places = intArgument(precision);
  if (method === "common") {
    const n = intValue(value);
    if (n !== undefined) return roundInt(n, places);
    return pyFloat(roundPy(toDouble(value), places));
  }
  const p = 10 ** places;
  if (!Number.isFinite(p)) throw new TemplateProblem("OverflowError: int too large to convert to float");
  const scaled = toDouble(value) * p;
  if (!Number.isFinite(scaled))
    throw new TemplateProblem(
      Number.isNaN(scaled)
        ? "ValueError: cannot convert float NaN to integer"
        : "OverflowError: cannot convert float infinity to integer",
    );
  return pyFloat((method === "ceil" ? Math.ceil(scaled) : Math.floor(scaled)) / p);
}

/** Digits as Python's int() and float() read them: underscores only between digits. */
const DIGITS = "\\d+(?:_\\d+)*";
const INT_TEXT = new RegExp(`^[-+]?${DIGITS}$`);
const FLOAT_TEXT = new RegExp(
  `^[-+]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:e[-+]?${DIGITS})?$`,
  "i",
);
const FLOAT_WORD = /^[-+]?(?:inf|infinity|nan)$/i;

/** Python's `int(text)` in base 10: an int of any size, or undefined for text it refuses. */
function parseIntText(s: string): number | bigint | undefined {
  if (!INT_TEXT.test(s)) return undefined;
  const digits = s.replace(/_/g, "");
  const n = Number.parseInt(digits, 10);
  return Number.isSafeInteger(n) ? n + 0 : normInt(BigInt(digits));
}

/** Python's `int(text, base)` for bases 2 to 36 (a `0x`/`0o`/`0b` prefix allowed where it matches the base). */
function parseIntBase(s: string, base: number): number | bigint | undefined {
  if (base === 10) return parseIntText(s);
  // Python refuses other bases (a ValueError, so Jinja tries `float` next).
  if (!Number.isInteger(base) || base === 1 || base < 0 || base > 36) return undefined;
  const sign = s.startsWith("-") ? -1n : 1n;
  let body = s.replace(/^[-+]/, "");
  const prefix = /^0([xob])_?/i.exec(body);
  const prefixBase =
    prefix === null ? undefined : { x: 16, o: 8, b: 2 }[(prefix[1] as string).toLowerCase() as "x"];
  if (base === 0) {
    // The prefix tells the base; without one it is decimal, where a leading zero is allowed only in zero itself.
    if (prefixBase === undefined) {
      if (/^0+(?:_0+)*$/.test(body)) return 0;
      return body.startsWith("0") ? undefined : parseIntText(s);
    }
    base = prefixBase;
  }
  if (prefix !== null && prefixBase === base) body = body.slice(prefix[0].length);
  if (!/^[0-9a-z]+(?:_[0-9a-z]+)*$/i.test(body)) return undefined;
  let n = 0n;
  for (const ch of body.replace(/_/g, "").toLowerCase()) {
    const d = Number.parseInt(ch, 36);
    if (d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
  }
  return normInt(sign * n);
}

/** Python's `float(text)`, or undefined for text it refuses. */
function parseFloatText(s: string): number | undefined {
  if (FLOAT_TEXT.test(s)) return Number(s.replace(/_/g, ""));
  if (!FLOAT_WORD.test(s)) return undefined;
  const word = s.replace(/^[-+]/, "").toLowerCase();
  if (word === "nan") return Number.NaN;
  return s.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

/** Python's `float(value)`: `floatOf` with the errors for what it cannot read. */
function pythonFloat(value: unknown): number {
  const x = floatOf(value);
  if (x !== undefined) return x;
  const s = textOf(value);
  if (s !== undefined)
    throw new TemplateProblem(`ValueError: could not convert string to float: ${pyRepr(s)}`);
  throw typeError(`float() argument must be a string or a real number, not '${pyTypeName(value)}'`);
}

/** An item of a `urlencode` list as Python unpacks `for k, v in value`: exactly two items, or its error. */
function pairOf(item: unknown): unknown[] {
  let items: readonly unknown[];
  if (isMapping(item)) items = mappingKeys(item);
  else if (textOf(item) !== undefined || Array.isArray(item)) items = pyIter(item, "value");
  else throw typeError(`cannot unpack non-iterable ${pyTypeName(item)} object`);
  if (items.length > 2) throw new TemplateProblem("ValueError: too many values to unpack (expected 2)");
  if (items.length < 2)
    throw new TemplateProblem(`ValueError: not enough values to unpack (expected 2, got ${items.length})`);
  return [...items];
}

function floatOf(value: unknown): number | undefined {
  if (isNumber(value)) return toDouble(value);
  const s = textOf(value);
  return s === undefined ? undefined : parseFloatText(s.trim());
}

/**
 * Jinja's `int`: `int(value, base)` for text, `int(value)` for the rest; what fails tries `int(float(value))` (so
 * `'42.23'|int` is 42), and what fails again gives `default`.
 */
function toInt(value: unknown, ...args: unknown[]): unknown {
  const [def = 0, base = 10] = bindArgs(args, ["default", "base"], "int");
  // int(Undefined) fails in Jinja (it is not a value `int()` refuses, which would give the default).
  if (value === undefined) throw undefinedOperand("the filter int");
  const n = intValue(value);
  if (n !== undefined) return n;
  const f = floatValue(value);
  // int(nan) is a ValueError (the default); int(inf) an OverflowError, which Jinja does not catch.
  if (f !== undefined) return Number.isNaN(f) ? def : truncToInt(f);
  const s = textOf(value);
  if (s === undefined) return def;
  // A base that is not an int is a TypeError in Python: Jinja then tries `float`.
  const parsed =
    typeof base === "number" || typeof base === "bigint" || typeof base === "boolean"
      ? parseIntBase(s.trim(), Number(base))
      : undefined;
  if (parsed !== undefined) return parsed;
  const x = parseFloatText(s.trim());
  if (x === undefined || Number.isNaN(x)) return def;
  return truncToInt(x);
}

/**
 * Jinja's `wordwrap`: each line of the text (`str.splitlines()`) wrapped by Python's `textwrap.wrap`, the pieces
 * joined with `wrapstring` (a line break).
 */
function wordwrap(
  self: FilterThis,
  value: unknown,
  width: unknown,
  breakLongWords: unknown,
  wrapstring: unknown,
  breakOnHyphens: unknown,
): unknown {
  // Python looks up `wrapstring.join` before it reads the text.
  // None (the default) is the environment's line break.
  const join = wrapstring === null ? "\n" : textOf(wrapstring);
  if (join === undefined)
    throw new TemplateProblem(`AttributeError: '${pyTypeName(wrapstring)}' object has no attribute 'join'`);
  if (value === undefined) throw undefinedOperand("the filter wordwrap");
  const s = textOf(value);
  if (s === undefined)
    throw new TemplateProblem(`AttributeError: '${pyTypeName(value)}' object has no attribute 'splitlines'`);
  const lines = STR_METHODS.splitlines?.(s as never, []) as string[];
  if (lines.length === 0) return "";
  const w = widthOf(width);
  if (!(w > 0)) throw new TemplateProblem(`ValueError: invalid width ${pyRepr(width)} (must be > 0)`);
  const options = {
    width: w,
    breakLongWords: pyBool(breakLongWords),
    // textwrap splits at hyphens only when the option `is True`; it cuts long words at them when it is true at all.
    splitAtHyphens: breakOnHyphens === true,
    cutAtHyphens: pyBool(breakOnHyphens),
  };
  const pieces = lines.map((line) => wrapLine(line, options));
  let size = 0;
  let count = 0;
  for (const piece of pieces) {
    for (const part of piece) size += part.length;
    count += Math.max(piece.length, 1);
  }
  self.env.pyState.account.build(size + Math.max(count - 1, 0) * join.length, "the filter wordwrap");
  // A Markup `wrapstring` joins as Markup does: each wrapped piece escaped, the text markup-safe.
  if (isSafeString(wrapstring))
    return markSafe(pieces.map((piece) => piece.map(htmlEscape).join(join)).join(join));
  return pieces.map((piece) => piece.join(join)).join(join);
}

/**
 * Jinja's `urlize` with its default policies: `rel="noopener"` added to the given `rel` (and `nofollow`), no
 * target, no further schemes. Each scheme given must look like one (`ftp://`, `tel:`).
 */
function urlizeFilter(
  value: unknown,
  trimUrlLimit: unknown,
  nofollow: unknown,
  target: unknown,
  rel: unknown,
  extraSchemes: unknown,
): string {
  const relText = pyBool(rel) ? textOf(rel) : "";
  if (relText === undefined)
    throw new TemplateProblem(`AttributeError: '${pyTypeName(rel)}' object has no attribute 'split'`);
  const rels = new Set(pySplit(relText, undefined, -1));
  if (pyBool(nofollow)) rels.add("nofollow");
  rels.add("noopener");
  const schemes = extraSchemes === null ? [] : pyIter(extraSchemes, "value").map((scheme) => text(scheme));
  for (const scheme of schemes) {
    if (!/^[\p{L}\p{N}_.+-]{2,}:\/{0,2}$/u.test(scheme))
      throw new TemplateProblem(`${pyRepr(scheme)} is not a valid URI scheme prefix.`);
  }
  let limit: number | undefined;
  if (trimUrlLimit !== null) {
    if (!isNumber(trimUrlLimit) && typeof trimUrlLimit !== "boolean")
      throw typeError(`'>' not supported between instances of 'int' and '${pyTypeName(trimUrlLimit)}'`);
    limit = Number(trimUrlLimit);
  }
  return urlize(isSafeString(value) ? value.val : text(value), isSafeString(value), {
    trimUrlLimit: limit,
    rel: [...rels].sort(compareCodePoints).join(" "),
    target: pyBool(target) ? text(target) : undefined,
    extraSchemes: extraSchemes === null ? undefined : schemes,
  });
}

/**
 * Jinja's `xmlattr` (as of Jinja 3.1.4): ` key="value"` for each item whose value is neither None nor undefined, key
 * and value HTML-escaped; a key with white space, `/`, `>` or `=` is refused (earlier Jinja wrote it as it was).
 */
function xmlattr(value: unknown, autospace: unknown): string {
  if (value === undefined) throw undefinedOperand("the filter xmlattr");
  if (!isMapping(value))
    throw new TemplateProblem(`AttributeError: '${pyTypeName(value)}' object has no attribute 'items'`);
  const items: string[] = [];
  for (const key of mappingKeys(value)) {
    const item = getItem(value, key);
    if (item === null || item === undefined) continue;
    const name = textOf(key);
    if (name === undefined) throw typeError(`expected string or bytes-like object, got '${pyTypeName(key)}'`);
    // Python's ASCII white space, `/`, `>` and `=`.
    if (/[\t\n\v\f\r />=]/.test(name))
      throw new TemplateProblem(`ValueError: Invalid character in attribute name: ${pyRepr(key)}`);
    const shown = isSafeString(item) ? item.val : htmlEscape(text(item));
    items.push(`${htmlEscape(name)}="${shown}"`);
  }
  const out = items.join(" ");
  return pyBool(autospace) && out !== "" ? ` ${out}` : out;
}

/** A wrap width as Python compares it: a number (a bool is one), else the TypeError of `width <= 0`. */
function widthOf(width: unknown): number {
  if (typeof width === "boolean") return width ? 1 : 0;
  if (isNumber(width)) return toDouble(width);
  throw typeError(`'<=' not supported between instances of '${pyTypeName(width)}' and 'int'`);
}

/** Jinja's `float`: `float(value)`, or `default` (0.0) for what Python cannot convert. */
function toFloat(value: unknown, ...args: unknown[]): unknown {
  const [def = new PyFloat(0)] = bindArgs(args, ["default"], "float");
  if (value === undefined) throw undefinedOperand("the filter float");
  const x = floatOf(value);
  return x === undefined ? def : pyFloat(x);
}

function dictsort(value: unknown, ...args: unknown[]): PyTuple[] {
  const [caseSensitive = false, by = "key", reverse = false] = bindArgs(
    args,
    ["case_sensitive", "by", "reverse"],
    "dictsort",
  );
  if (by !== "key" && by !== "value")
    throw new TemplateProblem('You can only sort by either "key" or "value"');
  if (value === undefined) throw undefinedOperand("the filter dictsort");
  if (!isMapping(value))
    throw new TemplateProblem(`AttributeError: '${pyTypeName(value)}' object has no attribute 'items'`);
  const pos = by === "value" ? 1 : 0;
  const items = mappingKeys(value).map((k) => PyTuple.from2<unknown>(k, getItem(value, k)));
  const cs = pyBool(caseSensitive);
  return pySorted(items, (item) => sortKey(item[pos], cs), pyLess, pyBool(reverse));
}

function batch(this: FilterThis, value: unknown, ...args: unknown[]): unknown[][] {
  const [count, fill] = bindArgs(args, ["linecount", "fill_with"], "batch", 1, "do_batch");
  const n = Number(count);
  if (fill !== undefined) this.env.pyState.account.build(n, "the filter batch");
  const out: unknown[][] = [];
  let cur: unknown[] = [];
  for (const x of pyIter(value, "value")) {
    if (cur.length === n) {
      out.push(cur);
      cur = [];
    }
    cur.push(x);
  }
  if (cur.length > 0) {
    if (fill !== undefined) while (cur.length < n) cur.push(fill);
    out.push(cur);
  }
  return out;
}

/** Python's `min`/`max` with a key: the first item no later item beats (`later < best` for min, `>` for max). */
function minmax(op: "<" | ">") {
  return (value: unknown, ...args: unknown[]): unknown => {
    const [caseSensitive = false, attribute] = bindArgs(
      args,
      ["case_sensitive", "attribute"],
      op === "<" ? "min" : "max",
    );
    const get = attrGetter(attribute);
    const cs = pyBool(caseSensitive);
    const items = list(value);
    if (items.length === 0) return undefined;
    let best = items[0];
    let bestKey = sortKey(get(best), cs);
    for (let i = 1; i < items.length; i++) {
      const key = sortKey(get(items[i]), cs);
      if (pyCompare(op, key, bestKey)) {
        best = items[i];
        bestKey = key;
      }
    }
    return best;
  };
}

/** A JSON indent is repeated once per level on every line: its width is charged before any of that is made. */
function chargeIndent(self: FilterThis, indent: unknown, filter: string): void {
  const width = typeof indent === "number" ? indent : typeof indent === "string" ? indent.length : 0;
  if (width > 0) self.env.pyState.account.build(width, `the filter ${filter}`);
}

/** Filters that return a value they were given (or a number), or charge what they build themselves. */
const HOLDING_FILTERS = new Set([
  "abs",
  "attr",
  "center",
  "count",
  "d",
  "default",
  "first",
  "float",
  "indent",
  "int",
  "join",
  "last",
  "length",
  "load_json",
  "load_text",
  "load_yaml",
  "max",
  "min",
  "random",
  "replace",
  "round",
  "safe",
  "sum",
  "traverse",
  "wordcount",
]);

/** Filters that answer without visiting the items of a list or mapping they are given. */
const CONSTANT_TIME_FILTERS = new Set(["attr", "count", "d", "default", "first", "last", "length"]);
/** Filters that sort: n·log2(n) comparisons. */
const SORTING_FILTERS = new Set(["dictsort", "groupby", "sort"]);

/**
 * `filter` with its costs charged to the render's account: each item of a list or mapping it visits is a step
 * (a sort n·log2(n) of them), and the size of what it returns (characters, items) is built, unless it only
 * returns something it was given. Renderers register their filters through this.
 */
export function chargedFilter(name: string, filter: Filter): Filter {
  const builds = !HOLDING_FILTERS.has(name);
  const visits = !CONSTANT_TIME_FILTERS.has(name);
  const sorts = SORTING_FILTERS.has(name);
  return function charged(this: FilterThis, value: unknown, ...args: unknown[]): unknown {
    const account = this.env.pyState.account;
    if (visits && (Array.isArray(value) || isMapping(value))) {
      const n = sizeOf(value);
      account.step(sorts && n > 1 ? Math.ceil(n * Math.log2(n)) : n);
    }
    const result = filter.call(this, value, ...args);
    // `|string` of a string is that string.
    if (builds && (name !== "string" || textOf(value) === undefined))
      account.build(buildCostOf(result), `the filter ${name}`);
    return result;
  };
}

export function jinjaFilters(): Record<string, Filter> {
  const f: Record<string, Filter> = {
    abs: (v) => {
      if (!isNumber(v)) throw typeError(`bad operand type for abs(): '${pyTypeName(v)}'`);
      return numAbs(v);
    },
    attr: (v, ...args) => {
      const [name] = bindArgs(args, ["name"], "attr", 1, "do_attr");
      // getattr(Undefined, name) fails as using it fails.
      if (v === undefined) throw undefinedOperand("the filter attr");
      const key = String(name);
      // An attribute only (Python's getattr): a dict's items are not attributes, its methods are.
      if (isMapping(v) && methodTable(v)?.[key] === undefined) return undefined;
      return getattr(v, key, "value");
    },
    batch,
    capitalize: (v) => STR_METHODS.capitalize?.(text(v) as never, []),
    center(this: FilterThis, v, ...args) {
      // Jinja's do_center(value, width=80): no fill character (that is str.center's).
      const { pos } = splitArgs(args);
      if (pos.length > 1)
        throw typeError(
          `do_center() takes from 1 to 2 positional arguments but ${pos.length + 1} were given`,
        );
      const [width = 80] = bindArgs(args, ["width"], "center");
      return STR_METHODS.center?.(text(v) as never, [width], this.env.pyState.account);
    },
    count: (v) => length(v),
    default: (v, ...args) => {
      const [def, boolean = false] = bindArgs(args, ["default_value", "boolean"], "default");
      // A default given as an undefined value is that value (`x|default(y)` with `y` undefined), not `''`.
      const { pos, kw } = splitArgs(args);
      const given = pos.length > 0 || (kw !== undefined && hasOwn(kw, "default_value"));
      if (v === undefined || (pyBool(boolean) && !pyBool(v))) return given ? def : "";
      return v;
    },
    dictsort,
    escape: (v) => (isSafeString(v) ? v : markSafe(htmlEscape(text(v)))),
    first: (v) => {
      if (v === undefined) return undefined;
      const items = pyIter(v, "value");
      return items[0];
    },
    float: toFloat,
    format(this: FilterThis, v, ...args) {
      const { pos, kw } = splitArgs(args);
      if (pos.length > 0 && kw !== undefined)
        throw new TemplateProblem("can't handle positional and keyword arguments at the same time");
      return pyPercent(text(v), kw !== undefined ? { ...kw } : PyTuple.of_(pos), this.env.pyState.account);
    },
    indent,
    int: toInt,
    items: (v) => {
      if (v === undefined) return [];
      if (!isMapping(v)) throw typeError("Can only get item pairs from a mapping.");
      return mappingKeys(v).map((k) => PyTuple.from2(k, getItem(v, k)));
    },
    join(this: FilterThis, v, ...args) {
      const [d = "", attribute] = bindArgs(args, ["d", "attribute"], "join");
      const get = attrGetter(attribute);
      const parts = pyIter(v, "value").map((x) => text(get(x)));
      const sep = text(d);
      let size = Math.max(0, parts.length - 1) * sep.length;
      for (const part of parts) size += part.length;
      this.env.pyState.account.build(size, "the filter join");
      return parts.join(sep);
    },
    last: (v) => {
      if (v === undefined) return undefined;
      // Jinja takes next(reversed(value)): sequences and dicts only.
      if (textOf(v) === undefined && !Array.isArray(v) && !isMapping(v))
        throw typeError(`'${pyTypeName(v)}' object is not reversible`);
      const items = pyIter(v, "value");
      return items[items.length - 1];
    },
    length: (v) => length(v),
    list: (v) => list(v),
    lower: (v) => text(v).toLowerCase(),
    map: mapFilter,
    max: minmax(">"),
    min: minmax("<"),
    pprint: (v) => pyPformat(v),
    reject(this: FilterThis, v, ...args) {
      if (!pyBool(v)) return [];
      const t = testFn(this, args);
      return list(v).filter((x) => !t(x));
    },
    rejectattr(this: FilterThis, v, ...args) {
      if (!pyBool(v)) return [];
      const get = attrGetter(args[0]);
      const t = testFn(this, args.slice(1));
      return list(v).filter((x) => !t(get(x)));
    },
    replace(this: FilterThis, v, ...args) {
      const [old, rep, count] = bindArgs(args, ["old", "new", "count"], "replace", 2, "do_replace");
      return STR_METHODS.replace?.(
        text(v) as never,
        count === undefined || count === null ? [old, rep] : [old, rep, count],
        this.env.pyState.account,
      );
    },
    reverse: (v) => {
      if (typeof v === "string" || isSafeString(v)) return Array.from(text(v)).reverse().join("");
      if (v === null || typeof v !== "object" || v instanceof PyFloat)
        throw new TemplateProblem("argument must be iterable");
      return list(v).reverse();
    },
    round: roundFilter,
    safe: (v) => (isSafeString(v) ? v : markSafe(text(v))),
    select(this: FilterThis, v, ...args) {
      if (!pyBool(v)) return [];
      const t = testFn(this, args);
      return list(v).filter((x) => t(x));
    },
    selectattr(this: FilterThis, v, ...args) {
      if (!pyBool(v)) return [];
      const get = attrGetter(args[0]);
      const t = testFn(this, args.slice(1));
      return list(v).filter((x) => t(get(x)));
    },
    filesizeformat: (v, ...args) => {
      const [binary = false] = bindArgs(args, ["binary"], "filesizeformat");
      if (v === undefined) throw undefinedOperand("the filter filesizeformat");
      const bytes = pythonFloat(v);
      const base = pyBool(binary) ? 1024 : 1000;
      const prefixes = pyBool(binary)
        ? ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
        : ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
      if (bytes === 1) return "1 Byte";
      if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
      let unit = base;
      let prefix = prefixes[0] as string;
      for (let i = 0; i < prefixes.length; i++) {
        unit = base ** (i + 2);
        prefix = prefixes[i] as string;
        if (bytes < unit) break;
      }
      return `${fixedPy((base * bytes) / unit, 1)} ${prefix}`;
    },
    forceescape: (v) => markSafe(htmlEscape(text(v))),
    groupby: (v, ...args) => {
      const [attribute, def, caseSensitive = false] = bindArgs(
        args,
        ["attribute", "default", "case_sensitive"],
        "groupby",
        1,
        "sync_do_groupby",
      );
      const get = sortAttrGetter(attribute, def);
      const cs = pyBool(caseSensitive);
      const keyOf = (item: unknown) => sortKey(get(item), cs);
      // Sorted by the key, then grouped by `==` (itertools.groupby); the group's name is the first item's value.
      const items = pySorted(list(v), keyOf, keyLess);
      const out: GroupTuple[] = [];
      let lastKey: unknown;
      for (const item of items) {
        const key = keyOf(item);
        const last = out[out.length - 1];
        if (last !== undefined && keyEq(lastKey, key)) (last[1] as unknown[]).push(item);
        else {
          const grouper = cs ? key : get(item);
          out.push(GroupTuple.make(grouper instanceof MissedKey ? undefined : grouper, [item]));
          lastKey = key;
        }
      }
      return out;
    },
    random: (v) => {
      // Python's random.choice indexes its argument.
      if (v instanceof DictView) throw typeError(`'${v.kind}' object is not subscriptable`);
      if (isMapping(v)) {
        // A dict is indexed by a random int below its size: the value of that int key, or Python's KeyError.
        const size = mappingKeys(v).length;
        if (size === 0) return undefined;
        const i = Math.floor(Math.random() * size);
        const found = findItem(v, i);
        if (found === NOT_FOUND) throw new TemplateProblem(`KeyError: ${i}`);
        return found;
      }
      const items = list(v);
      return items[Math.floor(Math.random() * items.length)];
    },
    striptags: (v) =>
      text(v)
        .replace(/<!--[\s\S]*?-->|<[^>]*>/g, "")
        .split(/\s+/)
        .filter((w) => w !== "")
        .join(" "),
    urlencode: (v) => {
      const enc = (s: unknown) =>
        encodeURIComponent(text(s))
          .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
          .replace(/%7E/g, "~");
      const qs = (x: unknown) => enc(x).replace(/%20/g, "+");
      if (isMapping(v))
        return mappingKeys(v)
          .map((k) => `${qs(k)}=${qs(getItem(v, k))}`)
          .join("&");
      if (Array.isArray(v)) return v.map((p) => pairOf(p).map(qs).join("=")).join("&");
      return enc(v).replace(/%2F/g, "/");
    },
    slice(this: FilterThis, v, ...args) {
      const [count, fill] = bindArgs(args, ["slices", "fill_with"], "slice", 1, "sync_do_slice");
      const items = list(v);
      const n = Number(count);
      this.env.pyState.account.build(n, "the filter slice");
      const per = Math.floor(items.length / n);
      const extra = items.length % n;
      const out: unknown[][] = [];
      let offset = 0;
      for (let i = 0; i < n; i++) {
        const start = offset + i * per;
        if (i < extra) offset++;
        const part = items.slice(start, offset + (i + 1) * per);
        if (fill !== undefined && i >= extra) part.push(fill);
        out.push(part);
      }
      return out;
    },
    sort: sortFilter,
    // Jinja's soft_str: a Markup value is a str already and stays Markup (so `|load_yaml` still refuses it).
    string: (v) => (isSafeString(v) ? v : text(v)),
    sum(this: FilterThis, v, ...args) {
      const [attribute, start = 0] = bindArgs(args, ["attribute", "start"], "sum");
      const get = attrGetter(attribute);
      let total: unknown = start;
      for (const x of pyIter(v, "value")) total = chargedAdd(total, get(x), this.env.pyState.account);
      return total;
    },
    title: (v) => titleFilter(text(v)),
    tojson(this: FilterThis, v, ...args) {
      const [ind] = bindArgs(args, ["indent"], "tojson");
      chargeIndent(this, ind, "tojson");
      const json = pyJsonDumps(v, { sortKeys: true, indent: ind as number | undefined, asciiOnly: true });
      return markSafe(
        json.replace(/[<>&']/g, (c) => `\\u00${c.charCodeAt(0).toString(16).padStart(2, "0")}`),
      );
    },
    trim: (v, chars) => STR_METHODS.strip?.(text(v) as never, chars === undefined ? [] : [chars]),
    unique,
    upper: (v) => text(v).toUpperCase(),
    wordwrap(this: FilterThis, v, ...args) {
      const [width = 79, breakLongWords = true, wrapstring = null, breakOnHyphens = true] = bindArgs(
        args,
        ["width", "break_long_words", "wrapstring", "break_on_hyphens"],
        "wordwrap",
      );
      return wordwrap(this, v, width, breakLongWords, wrapstring, breakOnHyphens);
    },
    urlize(v, ...args) {
      const [trimUrlLimit = null, nofollow = false, target = null, rel = null, extraSchemes = null] =
        bindArgs(args, ["trim_url_limit", "nofollow", "target", "rel", "extra_schemes"], "urlize");
      return urlizeFilter(v, trimUrlLimit, nofollow, target, rel, extraSchemes);
    },
    xmlattr(v, ...args) {
      const [autospace = true] = bindArgs(args, ["autospace"], "xmlattr");
      return xmlattr(v, autospace);
    },
    // Python's \w: letters, digits and numerals of any script, and `_`.
    wordcount: (v) => (text(v).match(/[\p{L}\p{N}_]+/gu) ?? []).length,
    truncate: (v, ...args) => {
      const [len = 255, killwords = false, end = "...", leeway = 5] = bindArgs(
        args,
        ["length", "killwords", "end", "leeway"],
        "truncate",
      );
      const n = Number(len);
      const e = text(end);
      if (n < Array.from(e).length)
        throw new TemplateProblem(`AssertionError: expected length >= ${Array.from(e).length}, got ${n}`);
      if (Number(leeway) < 0)
        throw new TemplateProblem(`AssertionError: expected leeway >= 0, got ${leeway}`);
      // Jinja measures and cuts the value itself: only text is cut; a shorter list comes back as it is.
      if (textOf(v) === undefined) {
        const size = length(v);
        if (size <= n + Number(leeway)) return v;
        throw new TemplateProblem(`AttributeError: '${pyTypeName(v)}' object has no attribute 'rsplit'`);
      }
      const s = text(v);
      if (s.length <= n + Number(leeway)) return s;
      if (pyBool(killwords)) return s.slice(0, n - e.length) + e;
      const cut = s.slice(0, n - e.length);
      const i = cut.lastIndexOf(" ");
      return (i === -1 ? cut : cut.slice(0, i)) + e;
    },
  };
  f.d = f.default as Filter;
  f.e = f.escape as Filter;
  return f;
}

/**
 * A Salt filter's arguments after the filtered value, bound to `names` as Python binds a call of `fn` (Salt's method
 * or function; `bound` counts the parameters before `names`: the value, and `self` for the serializer extension's
 * methods), so that too many or unknown arguments fail with Salt's TypeError.
 */
function saltArgs(
  args: readonly unknown[],
  fn: string,
  names: readonly string[],
  required = 0,
  bound = 2,
): Map<string, unknown> {
  return bindCall(args, fn, names, required, bound);
}

const EXT = "SerializerExtension";

/** Salt's serializer filters (SerializerExtension) and the Salt filters issue 8 asks for. */
export function saltFilters(strict: boolean): Record<string, Filter> {
  const f: Record<string, Filter> = {
    json(this: FilterThis, v, ...args) {
      const given = saltArgs(args, `${EXT}.format_json`, ["sort_keys", "indent"]);
      const ind = given.get("indent") ?? null;
      chargeIndent(this, ind, "json");
      const sortKeys = given.has("sort_keys") ? pyBool(given.get("sort_keys")) : true;
      return markSafe(
        pyJsonDumps(v, { sortKeys, indent: ind as number | string | null, othersAsStr: true }).trim(),
      );
    },
    yaml(this: FilterThis, v, ...args) {
      const given = saltArgs(args, `${EXT}.format_yaml`, ["flow_style"]);
      return markSafe(this.env.pyYaml(v, given.has("flow_style") ? given.get("flow_style") : true));
    },
    xml: (v, ...args) => {
      saltArgs(args, `${EXT}.format_xml`, []);
      return saltXml(v);
    },
    python: (v, ...args) => {
      saltArgs(args, `${EXT}.format_python`, []);
      return markSafe(pyPformat(v).trim());
    },
    load_yaml(this: FilterThis, v, ...args) {
      saltArgs(args, `${EXT}.load_yaml`, []);
      // libyaml's parser reads a str exactly (no Markup, which `|json` and `|yaml` return) or a stream, and asks an
      // undefined value for its `read`, which Jinja's Undefined refuses.
      if (v === undefined) throw undefinedOperand("the filter load_yaml");
      if (typeof v !== "string") throw typeError("a string or stream input is required");
      return this.env.pyParse("yaml", v);
    },
    load_json(this: FilterThis, v, ...args) {
      saltArgs(args, `${EXT}.load_json`, []);
      const s = textOf(v);
      // json.loads takes text only; Salt turns its TypeError into this error (the value is not shown).
      if (s === undefined)
        throw new TemplateProblem(`Unable to load json from a ${pyTypeName(v)} value: not text`);
      return this.env.pyParse("json", s);
    },
    load_text: (v, ...args) => {
      saltArgs(args, `${EXT}.load_text`, []);
      return v;
    },
  };
  if (!strict) {
    f.yaml_dquote = (v, ...args) => {
      saltArgs(args, "yaml_dquote", [], 0, 1);
      return saltYamlDquote(v);
    };
    f.yaml_squote = (v, ...args) => {
      saltArgs(args, "yaml_squote", [], 0, 1);
      return saltYamlSquote(v);
    };
    f.yaml_encode = (v, ...args) => {
      saltArgs(args, "yaml_encode", [], 0, 1);
      return saltYamlEncode(v);
    };
    f.traverse = (v, ...args) => {
      const given = saltArgs(args, "traverse_dict_and_list", ["key", "default", "delimiter"], 1, 1);
      // Salt indexes an undefined value, which Jinja's Undefined refuses.
      if (v === undefined) throw undefinedOperand("the filter traverse");
      // A default the template gave comes back as it is, an undefined one too (Salt's filter returns Jinja's
      // Undefined, which prints nothing); only a default left out is None.
      const def = given.has("default") ? given.get("default") : null;
      const delimiter = given.has("delimiter") ? String(given.get("delimiter")) : ":";
      return traverseOr(v, given.get("key"), def, delimiter);
    };
  }
  return f;
}

type Test = (this: FilterThis, value: unknown, ...args: unknown[]) => boolean;

/** `value % n == 0`, as Jinja's `divisibleby`, `even` and `odd` compute it. */
function remainderIs(value: unknown, n: unknown, want: number): boolean {
  return pyEq(pyMod(value, n), want);
}

/**
 * The function Jinja implements a test with, for Python's TypeError when a template passes the wrong arguments:
 * a `def` with its parameters (the tested value first; `env` when Jinja passes its environment first), or one of
 * Python's built-ins (`operator.eq`, `callable`), which word it otherwise.
 */
type TestSignature =
  | { readonly def: string; readonly params: readonly string[]; readonly env?: true }
  | { readonly builtin: "operator" | "callable"; readonly name: string };

/** `test` with its arguments checked as Python checks a call of `signature`. */
function checkedTest(test: Test, signature: TestSignature): Test {
  // How many positional arguments (the tested value included) a call takes; every parameter is required.
  const arity = "builtin" in signature ? (signature.builtin === "operator" ? 2 : 1) : signature.params.length;
  return function (this: FilterThis, value: unknown, ...args: unknown[]): boolean {
    // The usual call (`x is defined`, `x is divisibleby 3`) binds as it is: no keywords, the right count.
    if (args.length + 1 === arity && !isKwargs(args[args.length - 1])) return test.call(this, value, ...args);
    const { pos, kw } = splitArgs(args);
    const given = 1 + pos.length;
    if ("builtin" in signature) {
      const name = signature.name;
      if (kw !== undefined && Object.keys(kw).length > 0) {
        const qualified = signature.builtin === "operator" ? `_operator.${name}` : name;
        throw typeError(`${qualified}() takes no keyword arguments`);
      }
      if (signature.builtin === "callable" && given !== 1)
        throw typeError(`callable() takes exactly one argument (${given} given)`);
      if (signature.builtin === "operator" && given !== 2)
        throw typeError(`${name} expected 2 arguments, got ${given}`);
    } else {
      const { def, params } = signature;
      const extra = signature.env === true ? 1 : 0;
      for (const k in kw ?? {}) {
        if (params.indexOf(k) < 1) throw typeError(`${def}() got an unexpected keyword argument '${k}'`);
      }
      const total = params.length + extra;
      if (given + extra > total) {
        throw typeError(
          `${def}() takes ${total} positional argument${total === 1 ? "" : "s"} but ${given + extra} were given`,
        );
      }
      const missing = params.filter((name, i) => i >= given && (kw === undefined || !(name in kw)));
      if (missing.length > 0) throw typeError(`${def}() missing ${missingArguments(missing)}`);
      // Keywords bound to their places (`divisibleby(num=3)`).
      if (kw !== undefined) {
        const bound = params.slice(1).map((name, i) => (i < pos.length ? pos[i] : kw[name]));
        return test.call(this, value, ...bound);
      }
    }
    return test.call(this, value, ...args);
  };
}

const ONE = ["value"] as const;

export function jinjaTests(): Record<string, Test> {
  const cmp = pyCompare;
  const def = (name: string, test: Test, params: readonly string[] = ONE): Test =>
    checkedTest(test, { def: name, params });
  const operator = (name: string, op: "==" | "!=" | "<" | "<=" | ">" | ">="): Test =>
    checkedTest((a, b) => cmp(op, a, b), { builtin: "operator", name });
  // `filter` and `test`: whether the value names one (`value in env.filters`): only a string can.
  const names = (kind: "getFilter" | "getTest"): Test =>
    function (this: FilterThis, v: unknown): boolean {
      const name = textOf(v);
      if (name === undefined) return false;
      try {
        this.env[kind](name);
        return true;
      } catch {
        return false;
      }
    };
  const t: Record<string, Test> = {
    boolean: def("test_boolean", (v) => typeof v === "boolean"),
    // Jinja's Undefined is callable (calling it fails), iterable (as nothing) and a sequence (of length 0).
    callable: checkedTest((v) => v === undefined || typeof v === "function", {
      builtin: "callable",
      name: "callable",
    }),
    defined: def("test_defined", (v) => v !== undefined),
    divisibleby: def("test_divisibleby", (v, n) => remainderIs(v, n, 0), ["value", "num"]),
    escaped: def("test_escaped", (v) => isSafeString(v)),
    even: def("test_even", (v) => remainderIs(v, 2, 0)),
    false: def("test_false", (v) => v === false),
    float: def("test_float", (v) => isFloat(v)),
    in: def("test_in", (v, seq) => pyIn(v, seq), ["value", "seq"]),
    integer: def("test_integer", (v) => typeof v !== "boolean" && intValue(v) !== undefined),
    iterable: def(
      "test_iterable",
      (v) =>
        v === undefined ||
        typeof v === "string" ||
        Array.isArray(v) ||
        isMapping(v) ||
        isSafeString(v) ||
        v instanceof Map ||
        v instanceof Set,
    ),
    lower: def("test_lower", (v) => {
      const s = text(v);
      return s === s.toLowerCase() && s !== s.toUpperCase();
    }),
    mapping: def("test_mapping", (v) => isMapping(v) || v instanceof Map),
    none: def("test_none", (v) => v === null),
    number: def("test_number", (v) => isNumber(v)),
    odd: def("test_odd", (v) => remainderIs(v, 2, 1)),
    sameas: def("test_sameas", (v, other) => v === other, ["value", "other"]),
    sequence: def(
      "test_sequence",
      (v) =>
        v === undefined ||
        typeof v === "string" ||
        isSafeString(v) ||
        (Array.isArray(v) && !(v instanceof DictView)) ||
        isMapping(v),
    ),
    string: def("test_string", (v) => typeof v === "string" || isSafeString(v)),
    true: def("test_true", (v) => v === true),
    undefined: def("test_undefined", (v) => v === undefined),
    upper: def("test_upper", (v) => {
      const s = text(v);
      return s === s.toUpperCase() && s !== s.toLowerCase();
    }),
    eq: operator("eq", "=="),
    ne: operator("ne", "!="),
    lt: operator("lt", "<"),
    le: operator("le", "<="),
    gt: operator("gt", ">"),
    ge: operator("ge", ">="),
    filter: checkedTest(names("getFilter"), { def: "test_filter", params: ONE, env: true }),
    test: checkedTest(names("getTest"), { def: "test_test", params: ONE, env: true }),
  };
  t.null = t.none as Test;
  t.equalto = t.eq as Test;
  t["=="] = t.eq as Test;
  t["!="] = t.ne as Test;
  t["<"] = t.lt as Test;
  t["<="] = t.le as Test;
  t[">"] = t.gt as Test;
  t[">="] = t.ge as Test;
  t.lessthan = t.lt as Test;
  t.greaterthan = t.gt as Test;
  return t;
}
