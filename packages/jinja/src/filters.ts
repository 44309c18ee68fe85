// Jinja's built-in filters and tests with Jinja/Python behaviour (nunjucks' versions differ in many small ways),
// plus Salt's serializer filters. Registered per environment; nunjucks' globals are untouched.
import { hasOwn } from "@merge/core";
import { type RenderAccount, sizeOf } from "./budget.js";
import { chargedAdd } from "./charged.js";
import { fixedPy, roundPy } from "./decimal.js";
import { TemplateProblem, typeError } from "./errors.js";
import { bindArgs, splitArgs } from "./kwargs.js";
import { STR_METHODS } from "./methods.js";
import { titleFilter } from "./opaque-filters.js";
import { pyPercent } from "./pyformat.js";
import { pyCompare, pyIn, textOf } from "./operators.js";
import { pyGetattr, pyIter } from "./runtime.js";
import { isDict, isSafeString, markSafe, PyTuple, pyBool, pyEq, pyStr, pyTypeName } from "./pyvalues.js";
import { pyJsonDumps, pyPformat } from "./serialize-python.js";
import { traverse } from "./salt.js";
import { saltXml } from "./xml.js";
import { saltYamlDquote, saltYamlEncode, saltYamlSquote } from "./yaml-bridge.js";
import { opaqueActive, plainOpaque } from "./opaque.js";

/** An item of `groupby`: a `(grouper, list)` tuple with those two names as attributes. */
export class GroupTuple extends PyTuple {
  static make(grouper: unknown, items: unknown[]): GroupTuple {
    const t = new GroupTuple(2);
    t[0] = grouper;
    t[1] = items;
    return t;
  }
  get grouper(): unknown {
    return this[0];
  }
  get list(): unknown {
    return this[1];
  }
}

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

/** Jinja's `attribute='a.b'` / `'0'` lookups used by sort, map, groupby, sum, ... */
function attrGetter(attribute: unknown): (v: unknown) => unknown {
  if (attribute === undefined || attribute === null) return (v) => v;
  const parts = String(attribute).split(".");
  return (v) => {
    let cur = v;
    for (const p of parts) {
      if (cur === undefined) return undefined;
      if (Array.isArray(cur) && /^\d+$/.test(p)) cur = cur[Number(p)];
      else if (isDict(cur)) cur = hasOwn(cur, p) ? cur[p] : undefined;
      else cur = getattr(cur, p, p);
    }
    return cur;
  };
}

function sortKey(v: unknown, caseSensitive: boolean): unknown {
  if (!caseSensitive && typeof v === "string") return v.toLowerCase();
  return v;
}

function pyCmp(a: unknown, b: unknown): number {
  return pyCompare("<", a, b) ? -1 : pyEq(a, b) ? 0 : 1;
}

function list(value: unknown): unknown[] {
  return [...pyIter(value, "value")];
}

function length(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === "string") return Array.from(value).length;
  if (isSafeString(value)) return Array.from(value.val).length;
  if (Array.isArray(value)) return value.length;
  if (isDict(value)) return Object.keys(value).length;
  if (value instanceof Map || value instanceof Set) return value.size;
  throw typeError(`object of type '${pyTypeName(value)}' has no len()`);
}

function indent(this: FilterThis, value: unknown, ...args: unknown[]): string {
  const [width = 4, first = false, blank = false] = bindArgs(args, ["width", "first", "blank"], "indent");
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

/** A text key equal for values Python finds equal (`1`, `1.0`, `True`), or Python's error for unhashable ones. */
function hashKey(v: unknown): string {
  // With opaque text on, a marked string hashes as the text it stands for (as `==` compares it).
  if (typeof v === "string") return `s${opaqueActive() ? plainOpaque(v) : v}`;
  if (isSafeString(v)) return `s${opaqueActive() ? plainOpaque(v.val) : v.val}`;
  if (typeof v === "number" || typeof v === "boolean") return `n${Number(v)}`;
  if (typeof v === "bigint") return `n${v}`;
  if (v === null) return "N";
  if (v instanceof PyTuple) return `t(${v.map(hashKey).join(",")})`;
  throw typeError(`unhashable type: '${pyTypeName(v)}'`);
}

function unique(value: unknown, ...args: unknown[]): unknown[] {
  const [caseSensitive = false, attribute] = bindArgs(args, ["case_sensitive", "attribute"], "unique");
  const get = attrGetter(attribute);
  // Python keeps a set of what it has seen.
  const seen = new Set<string>();
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
  const get = attrGetter(attribute);
  const cs = pyBool(caseSensitive);
  const items = list(value);
  items.sort((a, b) => pyCmp(sortKey(get(a), cs), sortKey(get(b), cs)));
  if (pyBool(reverse)) items.reverse();
  return items;
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
  if (pos.length === 0 && kw !== undefined && hasOwn(kw, "attribute")) {
    const get = attrGetter(kw.attribute);
    return list(value).map((v) => {
      const r = get(v);
      return r === undefined && hasOwn(kw, "default") ? kw.default : r;
    });
  }
  const name = String(pos[0]);
  const f = this.env.getFilter(name);
  const rest = pos.slice(1);
  return list(value).map((v) => f.call(this, v, ...rest));
}

function roundFilter(value: unknown, ...args: unknown[]): number {
  const [precision = 0, method = "common"] = bindArgs(args, ["precision", "method"], "round");
  const p = 10 ** Number(precision);
  if (method !== "common" && !Number.isFinite(p))
    throw new TemplateProblem("OverflowError: int too large to convert to float");
  const n = Number(value) * p;
  if (method === "ceil") return Math.ceil(n) / p;
  if (method === "floor") return Math.floor(n) / p;
  return roundPy(Number(value), Number(precision));
}

function toInt(value: unknown, ...args: unknown[]): number {
  const [def = 0, base = 10] = bindArgs(args, ["default", "base"], "int");
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  const s = text(value).trim().replace(/_/g, "");
  const b = Number(base);
  if (b === 10 && /^[-+]?\d+$/.test(s)) return Number.parseInt(s, 10);
  if (b !== 10) {
    const body = s.replace(/^[-+]?0[xob]/i, (m) => m.slice(0, m.length - 2));
    const n = Number.parseInt(body, b);
    if (!Number.isNaN(n)) return n;
  }
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return Math.trunc(Number(s));
  return def as number;
}

function toFloat(value: unknown, ...args: unknown[]): number {
  const [def = 0] = bindArgs(args, ["default"], "float");
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const s = text(value).trim().toLowerCase();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([e][-+]?\d+)?$/.test(s)) return Number(s);
  if (/^[-+]?(inf|infinity)$/.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
  if (/^[-+]?nan$/.test(s)) return Number.NaN;
  return def as number;
}

function dictsort(value: unknown, ...args: unknown[]): PyTuple[] {
  const [caseSensitive = false, by = "key", reverse = false] = bindArgs(
    args,
    ["case_sensitive", "by", "reverse"],
    "dictsort",
  );
  if (!isDict(value)) throw typeError("dictsort: you can only sort by either a dict");
  const pos = by === "value" ? 1 : 0;
  const items = Object.keys(value).map((k) => PyTuple.from2<unknown>(k, value[k]));
  const cs = pyBool(caseSensitive);
  items.sort((a, b) => pyCmp(sortKey(a[pos], cs), sortKey(b[pos], cs)));
  if (pyBool(reverse)) items.reverse();
  return items;
}

function batch(this: FilterThis, value: unknown, ...args: unknown[]): unknown[][] {
  const [count, fill] = bindArgs(args, ["linecount", "fill_with"], "batch");
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

function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c] as string,
  );
}

function minmax(sign: number) {
  return (value: unknown, ...args: unknown[]): unknown => {
    const [caseSensitive = false, attribute] = bindArgs(args, ["case_sensitive", "attribute"], "min");
    const get = attrGetter(attribute);
    const items = list(value);
    if (items.length === 0) return undefined;
    let best = items[0];
    for (const x of items.slice(1)) {
      const c = pyCmp(sortKey(get(x), pyBool(caseSensitive)), sortKey(get(best), pyBool(caseSensitive)));
      if (c * sign < 0) best = x;
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
    if (visits && (Array.isArray(value) || isDict(value))) {
      const n = sizeOf(value);
      account.step(sorts && n > 1 ? Math.ceil(n * Math.log2(n)) : n);
    }
    const result = filter.call(this, value, ...args);
    // `|string` of a string is that string.
    if (builds && (name !== "string" || textOf(value) === undefined))
      account.build(sizeOf(result), `the filter ${name}`);
    return result;
  };
}

export function jinjaFilters(): Record<string, Filter> {
  const f: Record<string, Filter> = {
    abs: (v) => Math.abs(Number(v)),
    attr: (v, name) => getattr(v, String(name), "value"),
    batch,
    capitalize: (v) => STR_METHODS.capitalize?.(text(v) as never, []),
    center(this: FilterThis, v, width = 80) {
      return STR_METHODS.center?.(text(v) as never, [width], this.env.pyState.account);
    },
    count: (v) => length(v),
    default: (v, ...args) => {
      const [def = "", boolean = false] = bindArgs(args, ["default_value", "boolean"], "default");
      if (v === undefined || (pyBool(boolean) && !pyBool(v))) return def;
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
    items: (v) =>
      v === undefined
        ? []
        : isDict(v)
          ? Object.keys(v).map((k) => PyTuple.from2(k, v[k]))
          : typeError("items() needs a mapping"),
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
      const items = pyIter(v, "value");
      return items[items.length - 1];
    },
    length: (v) => length(v),
    list: (v) => list(v),
    lower: (v) => text(v).toLowerCase(),
    map: mapFilter,
    max: minmax(-1),
    min: minmax(1),
    pprint: (v) => pyPformat(v),
    reject(this: FilterThis, v, ...args) {
      const t = testFn(this, args);
      return list(v).filter((x) => !t(x));
    },
    rejectattr(this: FilterThis, v, ...args) {
      const get = attrGetter(args[0]);
      const t = testFn(this, args.slice(1));
      return list(v).filter((x) => !t(get(x)));
    },
    replace(this: FilterThis, v, old, rep, count) {
      return STR_METHODS.replace?.(
        text(v) as never,
        count === undefined || count === null ? [old, rep] : [old, rep, count],
        this.env.pyState.account,
      );
    },
    reverse: (v) => {
      if (typeof v === "string" || isSafeString(v)) return Array.from(text(v)).reverse().join("");
      return list(v).reverse();
    },
    round: roundFilter,
    safe: (v) => (isSafeString(v) ? v : markSafe(text(v))),
    select(this: FilterThis, v, ...args) {
      const t = testFn(this, args);
      return list(v).filter((x) => t(x));
    },
    selectattr(this: FilterThis, v, ...args) {
      const get = attrGetter(args[0]);
      const t = testFn(this, args.slice(1));
      return list(v).filter((x) => t(get(x)));
    },
    filesizeformat: (v, ...args) => {
      const [binary = false] = bindArgs(args, ["binary"], "filesizeformat");
      const bytes = Number(v);
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
      );
      const get = attrGetter(attribute);
      const cs = pyBool(caseSensitive);
      const keyOf = (item: unknown) => {
        const k = get(item);
        return k === undefined ? def : k;
      };
      const items = list(v).sort((a, b) => pyCmp(sortKey(keyOf(a), cs), sortKey(keyOf(b), cs)));
      const out: GroupTuple[] = [];
      for (const item of items) {
        const key = keyOf(item);
        const last = out[out.length - 1];
        if (last !== undefined && pyEq(sortKey(last[0], cs), sortKey(key, cs)))
          (last[1] as unknown[]).push(item);
        else out.push(GroupTuple.make(key, [item]));
      }
      return out;
    },
    random: (v) => {
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
      if (isDict(v))
        return Object.keys(v)
          .map((k) => `${qs(k)}=${qs(v[k])}`)
          .join("&");
      if (Array.isArray(v))
        return v.map((p) => `${qs((p as unknown[])[0])}=${qs((p as unknown[])[1])}`).join("&");
      return enc(v).replace(/%2F/g, "/");
    },
    slice(this: FilterThis, v, ...args) {
      const [count, fill] = bindArgs(args, ["slices", "fill_with"], "slice");
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
    string: (v) => text(v),
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
    // Python's \w: letters, digits and numerals of any script, and `_`.
    wordcount: (v) => (text(v).match(/[\p{L}\p{N}_]+/gu) ?? []).length,
    truncate: (v, ...args) => {
      const [len = 255, killwords = false, end = "...", leeway = 5] = bindArgs(
        args,
        ["length", "killwords", "end", "leeway"],
        "truncate",
      );
      const s = text(v);
      const n = Number(len);
      const e = text(end);
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

/** Salt's serializer filters (SerializerExtension) and the Salt filters issue 8 asks for. */
export function saltFilters(strict: boolean): Record<string, Filter> {
  const f: Record<string, Filter> = {
    json(this: FilterThis, v, ...args) {
      const [sortKeys = true, ind] = bindArgs(args, ["sort_keys", "indent"], "json");
      chargeIndent(this, ind, "json");
      return markSafe(
        pyJsonDumps(v, { sortKeys: pyBool(sortKeys), indent: ind as number | string | undefined }).trim(),
      );
    },
    yaml(this: FilterThis, v, ...args) {
      const [flow = true] = bindArgs(args, ["flow_style"], "yaml");
      return markSafe(this.env.pyYaml(v, flow));
    },
    xml: (v) => saltXml(v),
    python: (v) => markSafe(pyPformat(v).trim()),
    load_yaml(this: FilterThis, v) {
      return this.env.pyParse("yaml", text(v));
    },
    load_json(this: FilterThis, v) {
      return this.env.pyParse("json", text(v));
    },
    load_text: (v) => text(v),
  };
  if (!strict) {
    f.yaml_dquote = (v) => saltYamlDquote(v);
    f.yaml_squote = (v) => saltYamlSquote(v);
    f.yaml_encode = (v) => saltYamlEncode(v);
    f.traverse = (v, ...args) => {
      const [key, def = null, delimiter = ":"] = bindArgs(args, ["key", "default", "delimiter"], "traverse");
      return traverse(v, key, def, String(delimiter));
    };
  }
  return f;
}

type Test = (this: FilterThis, value: unknown, ...args: unknown[]) => boolean;

function isNumber(v: unknown): boolean {
  return typeof v === "number" || typeof v === "boolean" || typeof v === "bigint";
}

export function jinjaTests(): Record<string, Test> {
  const cmp = pyCompare;
  const t: Record<string, Test> = {
    boolean: (v) => typeof v === "boolean",
    callable: (v) => typeof v === "function",
    defined: (v) => v !== undefined,
    divisibleby: (v, n) => Number(v) % Number(n) === 0,
    escaped: (v) => isSafeString(v),
    even: (v) => Number(v) % 2 === 0,
    false: (v) => v === false,
    float: (v) => typeof v === "number" && !Number.isInteger(v),
    in: (v, seq) => pyIn(v, seq),
    integer: (v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint",
    iterable: (v) =>
      typeof v === "string" ||
      Array.isArray(v) ||
      isDict(v) ||
      isSafeString(v) ||
      v instanceof Map ||
      v instanceof Set,
    lower: (v) => {
      const s = text(v);
      return s === s.toLowerCase() && s !== s.toUpperCase();
    },
    mapping: (v) => isDict(v) || v instanceof Map,
    none: (v) => v === null,
    number: (v) => isNumber(v),
    odd: (v) => Math.abs(Number(v) % 2) === 1,
    sameas: (v, other) => v === other,
    sequence: (v) => typeof v === "string" || isSafeString(v) || Array.isArray(v) || isDict(v),
    string: (v) => typeof v === "string" || isSafeString(v),
    true: (v) => v === true,
    undefined: (v) => v === undefined,
    upper: (v) => {
      const s = text(v);
      return s === s.toUpperCase() && s !== s.toLowerCase();
    },
    eq: (a, b) => cmp("==", a, b),
    ne: (a, b) => cmp("!=", a, b),
    lt: (a, b) => cmp("<", a, b),
    le: (a, b) => cmp("<=", a, b),
    gt: (a, b) => cmp(">", a, b),
    ge: (a, b) => cmp(">=", a, b),
    filter(this: FilterThis, v) {
      try {
        this.env.getFilter(String(v));
        return true;
      } catch {
        return false;
      }
    },
    test(this: FilterThis, v) {
      try {
        this.env.getTest(String(v));
        return true;
      } catch {
        return false;
      }
    },
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
