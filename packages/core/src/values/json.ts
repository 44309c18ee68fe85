import { DEFAULT_MAX_DEPTH } from "../engine.js";
import { MergeError } from "../errors.js";
import { isPlainObject } from "../kinds.js";
import { keyText, PyDict } from "./pydict.js";
import { PyFloat, pyFloat, pyFloatRepr } from "./pyfloat.js";

export interface ParseJsonOptions {
  /** Names the input in errors. */
  readonly file?: string;
  /** Deepest nesting accepted; deeper is `DEPTH_LIMIT`. Default 1000 (Python's recursion limit is about that). */
  readonly maxDepth?: number;
}

/**
 * Reads JSON as Python's `json.loads` does, into the exact model: objects become `PyDict`s (a repeated key keeps its
 * first place and its last value), numbers with a fraction or exponent are floats (`1.0` stays a float), others ints
 * (exact beyond 2^53 as `bigint`), and the tokens `NaN`, `Infinity` and `-Infinity` are floats. Strings may hold
 * lone surrogates (`"\ud800"`), as in Python. Errors are `JSON_PARSE` with Python's wording and the position.
 * The parser is iterative, so any nesting up to `maxDepth` is safe.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): unknown {
  return new JsonReader(text, options).document();
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** Python's default `sys.get_int_max_str_digits()`: `json.loads` refuses longer integers (Python 3.11 and later). */
const INT_MAX_STR_DIGITS = 4300;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const SAFE_DIGITS = 15;

class JsonReader {
  private at = 0;
  private readonly maxDepth: number;

  constructor(
    private readonly text: string,
    private readonly options: ParseJsonOptions,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  document(): unknown {
    if (this.text.charCodeAt(0) === 0xfeff) this.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    this.skip();
    const value = this.value();
    this.skip();
    if (this.at < this.text.length) this.fail("Extra data", this.at);
    return value;
  }

  /** One value; containers are filled through an explicit stack instead of recursion. */
  private value(): unknown {
    type Frame = { container: unknown[] | PyDict; key: string | undefined };
    const stack: Frame[] = [];
    for (;;) {
      let value: unknown;
      let opened: Frame | undefined;
      const c = this.text.charCodeAt(this.at);
      if (c === 0x7b /* { */) {
        opened = { container: new PyDict(), key: undefined };
        this.at++;
      } else if (c === 0x5b /* [ */) {
        opened = { container: [], key: undefined };
        this.at++;
      } else {
        value = this.scalar();
      }
      if (opened !== undefined) {
        if (stack.length >= this.maxDepth) {
          throw new MergeError(
            "DEPTH_LIMIT",
            `the JSON nests deeper than the limit of ${this.maxDepth} levels`,
            {
              source: this.position(this.at - 1),
              details: { maxDepth: this.maxDepth },
            },
          );
        }
        stack.push(opened);
        this.skip();
        const close = opened.container instanceof PyDict ? 0x7d : 0x5d;
        if (this.text.charCodeAt(this.at) === close) {
          this.at++;
          stack.pop();
          value = opened.container;
        } else {
          if (opened.container instanceof PyDict) opened.key = this.key();
          continue;
        }
      }
      // Store the finished value into its parent, then close every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        if (top.container instanceof PyDict) top.container.set(top.key!, value);
        else top.container.push(value);
        this.skip();
        const c2 = this.text.charCodeAt(this.at);
        const isObject = top.container instanceof PyDict;
        if (c2 === 0x2c /* , */) {
          this.at++;
          this.skip();
          if (isObject) top.key = this.key();
          break;
        }
        if (c2 === (isObject ? 0x7d : 0x5d)) {
          this.at++;
          stack.pop();
          value = top.container;
          continue;
        }
        this.fail("Expecting ',' delimiter", this.at);
      }
    }
  }

  /** A key and its colon; leaves the reader at the value. */
  private key(): string {
    if (this.text.charCodeAt(this.at) !== 0x22) {
      this.fail("Expecting property name enclosed in double quotes", this.at);
    }
    const key = this.string();
    this.skip();
    if (this.text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("Expecting ':' delimiter", this.at);
    this.at++;
    this.skip();
    return key;
  }

  private scalar(): unknown {
    const text = this.text;
    const c = text.charCodeAt(this.at);
    if (c === 0x22) return this.string();
    if (text.startsWith("null", this.at)) return this.word(4, null);
    if (text.startsWith("true", this.at)) return this.word(4, true);
    if (text.startsWith("false", this.at)) return this.word(5, false);
    if (text.startsWith("NaN", this.at)) return this.word(3, Number.NaN);
    if (text.startsWith("Infinity", this.at)) return this.word(8, Number.POSITIVE_INFINITY);
    if (text.startsWith("-Infinity", this.at)) return this.word(9, Number.NEGATIVE_INFINITY);
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(text);
    if (match === null) this.fail("Expecting value", this.at);
    const literal = match[0];
    this.at += literal.length;
    if (match[1] !== undefined || match[2] !== undefined) return pyFloat(Number(literal));
    const digits = literal.length - (literal.charCodeAt(0) === 0x2d ? 1 : 0);
    if (digits <= SAFE_DIGITS) return Number(literal) + 0;
    if (digits > INT_MAX_STR_DIGITS) {
      this.fail(
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits`,
        this.at - literal.length,
      );
    }
    const big = BigInt(literal);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big;
  }

  private word(length: number, value: unknown): unknown {
    this.at += length;
    return value;
  }

  private string(): string {
    const text = this.text;
    const start = this.at;
    let i = start + 1;
    let out = "";
    let chunk = i;
    for (;;) {
      if (i >= text.length) this.fail("Unterminated string starting at", start);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(chunk, i);
        this.at = i + 1;
        return out;
      }
      if (c < 0x20) this.fail("Invalid control character at", i);
      if (c !== 0x5c /* \ */) {
        i++;
        continue;
      }
      out += text.slice(chunk, i);
      const e = text[i + 1];
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e;
          i += 2;
          break;
        case "b":
          out += "\b";
          i += 2;
          break;
        case "f":
          out += "\f";
          i += 2;
          break;
        case "n":
          out += "\n";
          i += 2;
          break;
        case "r":
          out += "\r";
          i += 2;
          break;
        case "t":
          out += "\t";
          i += 2;
          break;
        case "u": {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape", i + 1);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 6;
          break;
        }
        default:
          this.fail("Invalid \\escape", i);
      }
      chunk = i;
    }
  }

  private skip(): void {
    const text = this.text;
    while (this.at < text.length && WHITESPACE.has(text.charCodeAt(this.at))) this.at++;
  }

  private position(offset: number): { file?: string; line: number; column: number; offset: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const where = { line, column: offset - lineStart + 1, offset };
    return this.options.file === undefined ? where : { file: this.options.file, ...where };
  }

  private fail(message: string, offset: number): never {
    const where = this.position(offset);
    throw new MergeError(
      "JSON_PARSE",
      `${message}: line ${where.line} column ${where.column} (char ${offset})`,
      { source: where },
    );
  }
}

export interface FormatJsonOptions {
  /** Spaces per level; 0 writes one line with `", "` and `": "` as Python's `json.dumps` does. Default 2. */
  readonly indent?: number;
  /**
   * With `indent: 0`, the texts of frozen values written before, to be written again without walking them: a
   * `PyDict` frozen with `freeze()` or an array frozen with `Object.freeze`, when everything inside is frozen too
   * (dates, binary data and sets never count as frozen). Pays where many values share frozen parts, as the hosts of
   * a batch share the parsed files of their stack; give the same map to each call.
   */
  readonly frozenTexts?: WeakMap<object, FrozenText>;
}

/** A frozen value's JSON text and how deep it nests (for the depth limit where the value is met again). */
export interface FrozenText {
  readonly text: string;
  readonly height: number;
}

/**
 * Writes a value as JSON the way the exact model reads: mappings in their own key order (a `PyDict`'s keys named as
 * `json.dumps` names them: `8080`, `true`, `null`, `1.5`), floats as Python writes them (`9.0`, `1e+22`, `NaN`,
 * `Infinity`), ints exact (`bigint` too), non-ASCII as is. Dates are written as their ISO text (a YAML timestamp as
 * Python's `isoformat()`), binary data as base64, sets as lists, undefined as `null`.
 */
export function formatJson(value: unknown, options: FormatJsonOptions = {}): string {
  const indent = options.indent ?? 2;
  const writer = new JsonWriter(indent, indent === 0 ? options.frozenTexts : undefined);
  writer.value(value, 0);
  return writer.out;
}

/**
 * formatJson's state. The text grows by `+=` (V8 keeps it as a rope and flattens it once) and mappings are walked
 * with `forEach`: no array of parts and no `[key, value]` pair per entry. A `--minions` batch formats every host's
 * pillar, and those allocations were a third of its per-host garbage.
 */
class JsonWriter {
  out = "";
  /** Between items: `", "` on one line, `","` before a line break. */
  private readonly comma: string;
  /** Line break and indentation by depth, made once per depth. */
  private readonly breaks: string[] = [];
  /** The deepest container depth reached, and how many containers that are not frozen were written (frozenTexts). */
  private deepest = 0;
  private unfrozen = 0;

  constructor(
    private readonly indent: number,
    private readonly frozenTexts: WeakMap<object, FrozenText> | undefined,
  ) {
    this.comma = indent > 0 ? "," : ", ";
  }

  /** Writes a frozen container from its stored text, or writes it and stores the text when all of it is frozen. */
  private frozen(v: PyDict | readonly unknown[], depth: number): void {
    const known = this.frozenTexts!.get(v);
    if (known !== undefined && depth + known.height < DEFAULT_MAX_DEPTH) {
      this.out += known.text;
      this.deepest = Math.max(this.deepest, depth + known.height);
      return;
    }
    const outside = this.out;
    const deepest = this.deepest;
    const unfrozen = this.unfrozen;
    this.out = "";
    this.deepest = depth;
    if (v instanceof PyDict) this.dict(v, depth);
    else this.list(v, depth);
    const text = this.out;
    if (this.unfrozen === unfrozen) this.frozenTexts!.set(v, { text, height: this.deepest - depth });
    this.out = outside + text;
    this.deepest = Math.max(deepest, this.deepest);
  }

  private newline(depth: number): void {
    if (this.indent === 0) return;
    let text = this.breaks[depth];
    if (text === undefined) {
      text = `\n${" ".repeat(this.indent * depth)}`;
      this.breaks[depth] = text;
    }
    this.out += text;
  }

  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case "string":
        this.out += JSON.stringify(v);
        return;
      case "number":
        this.out += Number.isInteger(v) ? String(v + 0) : floatJson(v);
        return;
      case "bigint":
        this.out += v.toString();
        return;
      case "boolean":
        this.out += v ? "true" : "false";
        return;
      case "undefined":
        this.out += "null";
        return;
      default:
        break;
    }
    if (v === null) {
      this.out += "null";
      return;
    }
    if (v instanceof PyFloat) {
      this.out += floatJson(v.value);
      return;
    }
    if (depth >= DEFAULT_MAX_DEPTH) {
      throw new MergeError(
        "DEPTH_LIMIT",
        `the value nests deeper than the limit of ${DEFAULT_MAX_DEPTH} levels`,
        {
          details: { maxDepth: DEFAULT_MAX_DEPTH },
        },
      );
    }
    if (depth > this.deepest) this.deepest = depth;
    if (Array.isArray(v) || v instanceof Set) {
      if (this.frozenTexts !== undefined) {
        if (Array.isArray(v) && Object.isFrozen(v)) {
          this.frozen(v, depth);
          return;
        }
        this.unfrozen++;
      }
      this.list(Array.isArray(v) ? v : [...v], depth);
      return;
    }
    if (v instanceof PyDict) {
      if (this.frozenTexts !== undefined) {
        if (v.isFrozen) {
          this.frozen(v, depth);
          return;
        }
        this.unfrozen++;
      }
      this.dict(v, depth);
      return;
    }
    // Anything else that is not a scalar may change: a text holding it is not kept.
    this.unfrozen++;
    if (isPlainObject(v)) {
      this.object(v, depth);
      return;
    }
    if (v instanceof Uint8Array) {
      this.out += JSON.stringify(base64(v));
      return;
    }
    if (v instanceof Date) {
      const python = (v as { toPythonIsoformat?: () => string }).toPythonIsoformat;
      const text = Number.isNaN(v.getTime())
        ? null
        : typeof python === "function"
          ? python.call(v)
          : v.toISOString();
      this.out += text === null ? "null" : JSON.stringify(text);
      return;
    }
    this.out += JSON.stringify(String(v));
  }

  private list(items: readonly unknown[], depth: number): void {
    if (items.length === 0) {
      this.out += "[]";
      return;
    }
    this.out += "[";
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.out += this.comma;
      this.newline(depth + 1);
      this.value(items[i], depth + 1);
    }
    this.newline(depth);
    this.out += "]";
  }

  private dict(dict: PyDict, depth: number): void {
    if (dict.size === 0) {
      this.out += "{}";
      return;
    }
    this.out += "{";
    let first = true;
    dict.forEach((child, key) => {
      if (first) first = false;
      else this.out += this.comma;
      this.entry(key, child, depth);
    });
    this.newline(depth);
    this.out += "}";
  }

  private object(object: Record<string, unknown>, depth: number): void {
    const keys = Object.keys(object);
    if (keys.length === 0) {
      this.out += "{}";
      return;
    }
    this.out += "{";
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) this.out += this.comma;
      this.entry(keys[i]!, object[keys[i]!], depth);
    }
    this.newline(depth);
    this.out += "}";
  }

  private entry(key: unknown, child: unknown, depth: number): void {
    this.newline(depth + 1);
    this.out += JSON.stringify(keyText(key));
    this.out += ": ";
    this.value(child, depth + 1);
  }
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding; here rather than `Buffer` so that core also runs in a browser. */
function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    out += BASE64[a >> 2]! + BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? "=" : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? "=" : BASE64[c & 63]!;
  }
  return out;
}

function floatJson(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return pyFloatRepr(value);
}
