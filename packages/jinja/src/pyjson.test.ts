// Expected values are what Python 3.11's json.loads returns or raises (test/oracle runs many more through Jinja).
import { describe, expect, it } from "vitest";
import { pyJsonLoads } from "./pyjson.js";
import { pyStr } from "./pyvalues.js";
import { renderCase } from "./test-vars.js";

const message = (text: string) => {
  try {
    pyJsonLoads(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("Python's json.loads", () => {
  it("reads NaN, Infinity and -Infinity as the float tokens, and leaves the words inside strings alone", () => {
    const value = pyJsonLoads('[NaN, Infinity, -Infinity, "Avengers: Infinity War", "NaN", {"NaN": 1}]');
    expect(pyStr(value)).toBe("[nan, inf, -inf, 'Avengers: Infinity War', 'NaN', {'NaN': 1}]");
  });

  it("keeps integers of any size exact, reads -0 as 0 and too large floats as infinity", () => {
    expect(pyJsonLoads("12345678901234567890")).toBe(12345678901234567890n);
    expect(pyJsonLoads("-9007199254740993")).toBe(-9007199254740993n);
    expect(Object.is(pyJsonLoads("-0"), 0)).toBe(true);
    expect(pyJsonLoads("1e400")).toBe(Number.POSITIVE_INFINITY);
    expect(pyJsonLoads("-1.5e-3")).toBe(-0.0015);
  });

  it("lets the last of duplicate keys win in the first one's place and keeps __proto__ as data", () => {
    const value = pyJsonLoads('{"a": 1, "b": 2, "a": 3, "__proto__": {"polluted": 1}}') as Record<
      string,
      unknown
    >;
    expect(Object.keys(value)).toEqual(["a", "b", "__proto__"]);
    expect(value.a).toBe(3);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("joins escaped surrogate pairs and keeps a lone surrogate, as Python does", () => {
    expect(pyJsonLoads('"\\ud83d\\ude00|\\ud800A|\\u00e9"')).toBe("😀|\ud800A|é");
  });

  it("fails with Python's message, line, column and offset", () => {
    expect(message("")).toBe("Expecting value: line 1 column 1 (char 0)");
    expect(message("-NaN")).toBe("Expecting value: line 1 column 1 (char 0)");
    expect(message("nan")).toBe("Expecting value: line 1 column 1 (char 0)");
    expect(message("01")).toBe("Extra data: line 1 column 2 (char 1)");
    expect(message("[1 2]")).toBe("Expecting ',' delimiter: line 1 column 4 (char 3)");
    expect(message('{"a":1,}')).toBe(
      "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)",
    );
    expect(message('{\n"a" 1}')).toBe("Expecting ':' delimiter: line 2 column 5 (char 6)");
    expect(message('"\\x41"')).toBe("Invalid \\escape: line 1 column 2 (char 1)");
    expect(message('"\\u12"')).toBe("Invalid \\uXXXX escape: line 1 column 3 (char 2)");
    expect(message('"a\u0001b"')).toBe("Invalid control character at: line 1 column 3 (char 2)");
    expect(message('"abc')).toBe("Unterminated string starting at: line 1 column 1 (char 0)");
    expect(message("\ufeff1")).toBe(
      "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
    );
  });

  it("refuses nesting past Python's recursion limit with a message, not a stack overflow", () => {
    expect(message(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toMatch(/^RecursionError: /);
    expect(pyJsonLoads(`${"[".repeat(900)}${"]".repeat(900)}`)).toBeInstanceOf(Array);
  });
});

describe("load_json, import_json and |load_json", () => {
  it("print NaN and Infinity as Python prints them, and keep the words in strings", () => {
    const files = { "data.json": '{"rating": NaN, "max": Infinity, "title": "Avengers: Infinity War"}' };
    const src =
      '{% import_json "data.json" as a %}{% load_json as b %}[-Infinity, "NaN"]{% endload %}' +
      "{{ a }}|{{ b }}|{{ '[NaN]'|load_json }}|{{ a|json }}";
    expect(renderCase(src, files)).toBe(
      "{'rating': nan, 'max': inf, 'title': 'Avengers: Infinity War'}|[-inf, 'NaN']|[nan]|" +
        '{"max": Infinity, "rating": NaN, "title": "Avengers: Infinity War"}',
    );
  });
});
