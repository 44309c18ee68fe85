import { DEFAULT_MAX_DEPTH, type Dict, MergeError, setKey } from "@merge/core";

/**
 * The one place a JSON column is read (`as_json`), with Python's `json.loads` semantics, which is what Salt applies
 * to such a column:
 *
 * - whitespace is space, tab, CR and LF only; nothing may follow the value;
 * - `NaN`, `Infinity` and `-Infinity` are accepted (as the numbers they name);
 * - a number without fraction or exponent is an integer: exact, as a `bigint` beyond ±2^53, `-0` is `0`; more than
 *   4300 digits is an error, as in Python 3.11 and later; other numbers are doubles (`1e400` is `Infinity`);
 * - a key written twice keeps the last value at the place of the first;
 * - a raw control character inside a string is an error, lone surrogates (`"\ud800"`) are kept;
 * - nesting deeper than the engine's limit (1000) is `DEPTH_LIMIT` where Python raises `RecursionError`.
 *
 * Floats and integers are both JavaScript numbers here (`1.0` reads as `1`); the value model of `@merge/core` will
 * keep them apart, and this function is then replaced by the core's exact reader. Errors are `SQL_JSON` (with the
 * 0-based offset in `details.offset`) or `DEPTH_LIMIT`.
 */
export function parseJsonValue(text: string): unknown {
  return new JsonReader(text).read();
}

/** Python's default `sys.get_int_max_str_digits()`: longer integers are refused by `int()` and so by `json.loads`. */
export const PY_INT_MAX_STR_DIGITS = 4300;

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

interface Frame {
  readonly container: Dict | unknown[];
  key: string;
}

class JsonReader {
  private at = 0;

  constructor(private readonly text: string) {}

  read(): unknown {
    const stack: Frame[] = [];
    this.skipSpace();
    for (;;) {
      let value: unknown;
      const c = this.text.charCodeAt(this.at);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length >= DEFAULT_MAX_DEPTH) {
          throw new MergeError(
            "DEPTH_LIMIT",
            `the JSON value nests deeper than the limit of ${DEFAULT_MAX_DEPTH} levels`,
            { details: { maxDepth: DEFAULT_MAX_DEPTH, offset: this.at } },
          );
        }
        this.at++;
        this.skipSpace();
        if (c === 0x7b) {
          if (this.text.charCodeAt(this.at) === 0x7d /* } */) {
            this.at++;
            value = {};
          } else {
            stack.push({ container: {}, key: this.readKey() });
            continue;
          }
        } else if (this.text.charCodeAt(this.at) === 0x5d /* ] */) {
          this.at++;
          value = [];
        } else {
          stack.push({ container: [], key: "" });
          continue;
        }
      } else {
        value = this.readScalar();
      }
      // Attach the value to the open containers, closing those that end here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          this.skipSpace();
          if (this.at !== this.text.length) this.fail("Extra data");
          return value;
        }
        if (Array.isArray(top.container)) top.container.push(value);
        else setKey(top.container, top.key, value);
        this.skipSpace();
        const d = this.text.charCodeAt(this.at);
        if (d === 0x2c /* , */) {
          this.at++;
          this.skipSpace();
          if (!Array.isArray(top.container)) top.key = this.readKey();
          break;
        }
        if (d === (Array.isArray(top.container) ? 0x5d : 0x7d)) {
          this.at++;
          stack.pop();
          value = top.container;
          continue;
        }
        this.fail("Expecting ',' delimiter");
      }
    }
  }

  /** `"name"` followed by `:`; leaves the position at the value. */
  private readKey(): string {
    if (this.text.charCodeAt(this.at) !== 0x22)
      this.fail("Expecting property name enclosed in double quotes");
    this.at++;
    const key = this.readString();
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("Expecting ':' delimiter");
    this.at++;
    this.skipSpace();
    return key;
  }

  private readScalar(): unknown {
    const text = this.text;
    const c = text.charCodeAt(this.at);
    if (c === 0x22) {
      this.at++;
      return this.readString();
    }
    for (const [word, value] of WORDS) {
      if (text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(text);
    if (match === null) this.fail("Expecting value");
    const literal = match[0];
    const start = this.at;
    this.at += literal.length;
    if (match[1] !== undefined || match[2] !== undefined) return Number(literal);
    const digits = literal.startsWith("-") ? literal.length - 1 : literal.length;
    if (digits > PY_INT_MAX_STR_DIGITS) {
      throw new MergeError(
        "SQL_JSON",
        `an integer of ${digits} digits exceeds Python's limit of ${PY_INT_MAX_STR_DIGITS} digits`,
        { details: { offset: start } },
      );
    }
    const number = Number(literal);
    if (Number.isSafeInteger(number)) return number === 0 ? 0 : number;
    return BigInt(literal);
  }

  /** The rest of a string whose opening quote has been read. */
  private readString(): string {
    const text = this.text;
    let out = "";
    let from = this.at;
    for (;;) {
      if (this.at >= text.length) {
        this.at = from - 1;
        this.fail("Unterminated string starting at");
      }
      const c = text.charCodeAt(this.at);
      if (c === 0x22) {
        out += text.slice(from, this.at);
        this.at++;
        return out;
      }
      if (c < 0x20) this.fail("Invalid control character at");
      if (c !== 0x5c /* \ */) {
        this.at++;
        continue;
      }
      out += text.slice(from, this.at);
      const escaped = text.charAt(this.at + 1);
      if (escaped === "u") {
        const hex = text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape");
        // UTF-16 code units: a pair of escaped surrogates forms one character, a lone one stays as it is.
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
      } else {
        const replacement = ESCAPES[escaped];
        if (replacement === undefined) this.fail("Invalid \\escape");
        out += replacement;
        this.at += 2;
      }
      from = this.at;
    }
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.at++;
    }
  }

  private fail(what: string): never {
    throw new MergeError("SQL_JSON", `${what} (character ${this.at + 1})`, { details: { offset: this.at } });
  }
}

const WORDS: readonly (readonly [string, unknown])[] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
];
