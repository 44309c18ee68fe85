// Python's json.loads, as Salt's `load_json`/`import_json` call it: standard JSON plus the `NaN`, `Infinity` and
// `-Infinity` tokens (only as values, never inside strings), integers of any size (bigint past 2^53), the last of
// duplicate keys winning in the first one's place, and Python's error messages with line, column and offset.
// JSON.parse cannot do this: it refuses the three tokens, and rewriting the text before parsing it changes strings.
import { setKey } from "@merge/core";
import { TemplateProblem } from "./errors.js";

/** Python's json scanner gives up past this nesting (its recursion limit); so do we, with its message. */
const MAX_DEPTH = 1000;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

class JsonReader {
  private pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string, at: number = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    throw new TemplateProblem(`${message}: line ${line} column ${column} (char ${at})`);
  }

  skipSpace(): void {
    const s = this.text;
    let i = this.pos;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
    this.pos = i;
  }

  document(): unknown {
    if (this.text.charCodeAt(0) === 0xfeff) this.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    this.skipSpace();
    const value = this.value(0);
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail("Extra data");
    return value;
  }

  value(depth: number): unknown {
    const s = this.text;
    const start = this.pos;
    const c = s[start];
    if (c === '"') return this.string();
    if (c === "{") return this.object(depth + 1);
    if (c === "[") return this.array(depth + 1);
    if (s.startsWith("null", start)) return this.word(4, null);
    if (s.startsWith("true", start)) return this.word(4, true);
    if (s.startsWith("false", start)) return this.word(5, false);
    if (s.startsWith("NaN", start)) return this.word(3, Number.NaN);
    if (s.startsWith("Infinity", start)) return this.word(8, Number.POSITIVE_INFINITY);
    if (s.startsWith("-Infinity", start)) return this.word(9, Number.NEGATIVE_INFINITY);
    NUMBER.lastIndex = start;
    const m = NUMBER.exec(s);
    if (m === null) return this.fail("Expecting value");
    this.pos = start + m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      // Python's int: exact at any size; -0 is 0.
      return Number.isSafeInteger(n) ? n + 0 : BigInt(m[0]);
    }
    return Number(m[0]);
  }

  word(length: number, value: unknown): unknown {
    this.pos += length;
    return value;
  }

  string(): string {
    const s = this.text;
    const begin = this.pos;
    let i = begin + 1;
    let out = "";
    let chunk = i;
    for (;;) {
      if (i >= s.length) this.fail("Unterminated string starting at", begin);
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        out += s.slice(chunk, i);
        this.pos = i + 1;
        return out;
      }
      if (c < 0x20) this.fail("Invalid control character at", i);
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += s.slice(chunk, i);
      const e = s[i + 1];
      if (e === undefined) this.fail("Unterminated string starting at", begin);
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i += 2;
      } else if (e === "u") {
        let unit = this.hex4(i);
        i += 6;
        // A high surrogate followed by an escaped low one is one character, as in Python.
        if (unit >= 0xd800 && unit <= 0xdbff && s[i] === "\\" && s[i + 1] === "u") {
          const low = this.hex4(i);
          if (low >= 0xdc00 && low <= 0xdfff) {
            unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
            i += 6;
          }
        }
        out += String.fromCodePoint(unit);
      } else this.fail("Invalid \\escape", i);
      chunk = i;
    }
  }

  hex4(at: number): number {
    const hex = this.text.slice(at + 2, at + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape", at + 1);
    return Number.parseInt(hex, 16);
  }

  object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) this.tooDeep("object");
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail("Expecting property name enclosed in double quotes");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipSpace();
      setKey(out, key, this.value(depth));
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "}") return out;
      if (c !== ",") this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipSpace();
    }
  }

  array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) this.tooDeep("array");
    const out: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "]") return out;
      if (c !== ",") this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipSpace();
    }
  }

  tooDeep(what: string): never {
    throw new TemplateProblem(
      `RecursionError: maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`,
    );
  }
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** `json.loads(text)`: throws a `TemplateProblem` with Python's message (`Expecting value: line 1 column 1 (char 0)`). */
export function pyJsonLoads(text: string): unknown {
  return new JsonReader(text).document();
}
