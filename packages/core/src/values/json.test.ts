import { describe, expect, it } from "vitest";
import { isMergeError, type MergeError } from "../errors.js";
import { formatJson, parseJson } from "./json.js";
import { PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

function failure(text: string): MergeError {
  try {
    parseJson(text, { file: "in.json" });
  } catch (error) {
    if (isMergeError(error)) return error;
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe("parseJson", () => {
  it("keeps ints and floats apart, as json.loads does", () => {
    // Python: json.loads('[1.0, 1, 12345678901234567890, -0, -0.0, 1E400, 2.5]')
    const [a, b, c, d, e, f, g] = parseJson(
      "[1.0, 1, 12345678901234567890, -0, -0.0, 1E400, 2.5]",
    ) as unknown[];
    expect(a).toEqual(new PyFloat(1));
    expect(b).toBe(1);
    expect(c).toBe(12345678901234567890n);
    expect(Object.is(d, 0)).toBe(true);
    expect(e).toBeInstanceOf(PyFloat);
    expect(String(e)).toBe("-0.0");
    expect(f).toBe(Number.POSITIVE_INFINITY);
    expect(g).toBe(2.5);
    expect(parseJson("9007199254740993")).toBe(9007199254740993n);
    expect(parseJson("9007199254740991")).toBe(9007199254740991);
  });

  it("reads NaN and Infinity only as tokens, never inside strings", () => {
    const value = parseJson('{"film": "Avengers: Infinity War", "n": NaN, "i": -Infinity}') as PyDict;
    expect(value.get("film")).toBe("Avengers: Infinity War");
    expect(value.get("n")).toBeNaN();
    expect(value.get("i")).toBe(Number.NEGATIVE_INFINITY);
  });

  it("gives objects as PyDicts: a repeated key keeps its first place and its last value", () => {
    const value = parseJson('{"10": 1, "9": 2, "B": 3, "10": 4}') as PyDict;
    expect(value.keyList()).toEqual(["10", "9", "B"]);
    expect(value.get("10")).toBe(4);
    expect((parseJson('{"__proto__": {"x": 1}}') as PyDict).has("__proto__")).toBe(true);
  });

  it("reads escapes and keeps lone surrogates", () => {
    expect(parseJson('"a\\u00e9\\n\\/\\ud83d\\ude00"')).toBe("aé\n/😀");
    expect(parseJson('"\\ud800x"')).toBe("\ud800x");
    expect(parseJson(" \t\n[ ]\r\n")).toEqual([]);
  });

  // Messages and positions are Python 3.11's json.loads.
  it.each([
    ["", "Expecting value: line 1 column 1 (char 0)"],
    [" ", "Expecting value: line 1 column 2 (char 1)"],
    ["[1,]", "Expecting value: line 1 column 4 (char 3)"],
    ['{"a":1,}', "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"],
    ["[1] x", "Extra data: line 1 column 5 (char 4)"],
    ["{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ['"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ["[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['"\\x"', "Invalid \\escape: line 1 column 2 (char 1)"],
    ['"\\u12"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ["tru", "Expecting value: line 1 column 1 (char 0)"],
    ['"a\tb"', "Invalid control character at: line 1 column 3 (char 2)"],
    ["[[[", "Expecting value: line 1 column 4 (char 3)"],
    ['{"a":', "Expecting value: line 1 column 6 (char 5)"],
    ["\ufeff1", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ["[1,\n  x]", "Expecting value: line 2 column 3 (char 6)"],
  ])("refuses %j: %s", (text, message) => {
    const error = failure(text);
    expect(error.code).toBe("JSON_PARSE");
    expect(error.message).toBe(message);
    expect(error.source?.file).toBe("in.json");
  });

  it("reads any nesting up to the limit without recursion, and stops past it", () => {
    expect(parseJson(`${"[".repeat(900)}${"]".repeat(900)}`)).toBeInstanceOf(Array);
    expect(failure(`${"[".repeat(100_000)}${"]".repeat(100_000)}`).code).toBe("DEPTH_LIMIT");
  });
});

describe("formatJson", () => {
  it("writes the exact model: key order, int keys, whole floats", () => {
    const value = new PyDict<unknown>([
      ["10", 1],
      ["9", new PyFloat(9)],
      [8080, [1e22, new PyFloat(1e22), 2.5e-5]],
      [true, null],
    ]);
    expect(formatJson(value, { indent: 0 })).toBe(
      '{"10": 1, "9": 9.0, "8080": [1e+22, 1e+22, 2.5e-05], "true": null}',
    );
    expect(formatJson(value)).toBe(
      '{\n  "10": 1,\n  "9": 9.0,\n  "8080": [\n    1e+22,\n    1e+22,\n    2.5e-05\n  ],\n  "true": null\n}',
    );
  });

  it("writes what JSON cannot hold as Python's json.dumps or as text", () => {
    expect(formatJson([Number.NaN, Number.NEGATIVE_INFINITY, 2n ** 64n, undefined], { indent: 0 })).toBe(
      "[NaN, -Infinity, 18446744073709551616, null]",
    );
    expect(formatJson(new Uint8Array([104, 105, 33]), { indent: 0 })).toBe('"aGkh"');
    expect(formatJson(new Set(["a"]), { indent: 0 })).toBe('["a"]');
    expect(formatJson({}, { indent: 2 })).toBe("{}");
    expect(formatJson("é\u2028", { indent: 0 })).toBe('"é\u2028"');
  });

  it("writes plain data as JSON.stringify does with an indent, keys in order, in both models", () => {
    // A seeded walk of random JSON: nested lists and objects, strings with quotes, escapes and non-ASCII, ints and
    // floats whose JavaScript and Python spellings agree (eighths), booleans and null.
    let seed = 13;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = ["a", "Z", '"', "\\", "\n", "\t", "é", "\u2028", "\u0001", " ", ":", ","];
    const text = () => Array.from({ length: next(6) }, () => alphabet[next(alphabet.length)]).join("");
    const random = (depth: number): unknown => {
      const kind = next(depth > 3 ? 5 : 7);
      if (kind === 0) return text();
      if (kind === 1) return next(2000) - 1000;
      if (kind === 2) return (next(2000) - 1000) / 8 + 0.125;
      if (kind === 3) return next(2) === 0;
      if (kind === 4) return null;
      if (kind === 5) return Array.from({ length: next(4) }, () => random(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = next(4); i > 0; i--) out[`${text()}k${i}`] = random(depth + 1);
      return out;
    };
    const exact = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(exact)
        : v !== null && typeof v === "object"
          ? new PyDict(Object.entries(v).map(([k, child]) => [k, exact(child)]))
          : v;
    for (let round = 0; round < 300; round++) {
      const value = random(0);
      const want = JSON.stringify(value, null, 2);
      expect(formatJson(value)).toBe(want);
      expect(formatJson(exact(value))).toBe(want);
      const line = formatJson(exact(value), { indent: 0 });
      expect(line).not.toContain("\n");
      expect(JSON.parse(line)).toEqual(value);
      expect(formatJson(parseJson(line), { indent: 0 })).toBe(line);
    }
  });

  it("reads back what it writes", () => {
    const text = '{"a": [1, 2.0, {"b": NaN}], "c": "Infinity"}';
    expect(formatJson(parseJson(text), { indent: 0 })).toBe(text);
  });
});
