import { parseJson, PyDict } from "@merge/core";

/**
 * Reads a JSON patch document as Python's `jsonpatch` loads it: `json.loads` (core's `parseJson`: ints and floats
 * apart, `NaN`/`Infinity` tokens, Python's error messages) with the library's `multidict` hook, under which a key
 * written more than once in an object holds the list of all its values, in order, at the place of its first
 * occurrence (`{"value": 1, "value": 2}` reads as `{"value": [1, 2]}`).
 *
 * Documents without a repeated key, nearly all of them, are what `parseJson` returns; only a document that repeats a
 * key is read again, member by member, to collect the values `parseJson` would have replaced.
 */
export function parsePatchJson(text: string, file?: string): unknown {
  const value = parseJson(text, { file });
  return repeatsAKey(text) ? new MultiReader(text).document() : value;
}

/** Whether any object of a valid JSON text names a key twice (escapes decoded: `"a"` and `"\u0061"` are one key). */
function repeatsAKey(text: string): boolean {
  const objects: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const keys = objects[objects.length - 1];
      if (expectKey && keys !== undefined) {
        const key = decodeString(text, i, end);
        if (keys.has(key)) return true;
        keys.add(key);
        expectKey = false;
      }
      i = end - 1;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(undefined);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = objects[objects.length - 1] !== undefined;
    }
  }
  return false;
}

/** The offset just past the closing quote of the string that starts at `start` (the text is valid JSON). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    i += c === 0x5c /* \ */ ? 2 : 1;
  }
}

function decodeString(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.includes("\\") ? (JSON.parse(text.slice(start, end)) as string) : inner;
}

const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Builds the multidict reading of a valid JSON text. Containers are walked here; every scalar is read by
 * `parseJson`, so numbers and strings mean exactly what they mean elsewhere. Recursion is bounded by the nesting
 * `parseJson` already accepted.
 */
class MultiReader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    this.skip();
    return this.value();
  }

  private value(): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    const start = this.at;
    if (c === 0x22) this.at = stringEnd(this.text, start);
    else {
      while (this.at < this.text.length && !/[\s,\]}]/.test(this.text[this.at]!)) this.at++;
    }
    return parseJson(this.text.slice(start, this.at));
  }

  private object(): PyDict {
    const values = new Map<string, unknown[]>();
    this.at++;
    this.skip();
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at++;
      return new PyDict();
    }
    for (;;) {
      const start = this.at;
      this.at = stringEnd(this.text, start);
      const key = decodeString(this.text, start, this.at);
      this.skip();
      this.at++; // :
      this.skip();
      const value = this.value();
      const seen = values.get(key);
      if (seen === undefined) values.set(key, [value]);
      else seen.push(value);
      this.skip();
      if (this.text.charCodeAt(this.at++) === 0x7d) break;
      this.skip();
    }
    const out = new PyDict();
    for (const [key, list] of values) out.set(key, list.length === 1 ? list[0] : list);
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    this.skip();
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skip();
      if (this.text.charCodeAt(this.at++) === 0x5d) break;
      this.skip();
    }
    return out;
  }

  private skip(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }
}
