// JSON in templates (`load_json`, `import_json`, `|load_json`) is read by @merge/core's `parseJson`, Python's
// json.loads into the exact model. Expected values are what Python 3.11's json.loads returns or raises, printed as
// Jinja prints them (test/oracle runs many more through the real Jinja).
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase } from "./test-vars.js";

const loads = (text: string) => renderCase("{{ text|load_json }}", {}, { text });
const fileError = (text: string) =>
  failure(() => renderCase('{% import_json "data.json" as x %}', { "data.json": text }));

describe("Python's json.loads", () => {
  it("reads NaN, Infinity and -Infinity as the float tokens, and leaves the words inside strings alone", () => {
    expect(loads('[NaN, Infinity, -Infinity, "Avengers: Infinity War", "NaN", {"NaN": 1}]')).toBe(
      "[nan, inf, -inf, 'Avengers: Infinity War', 'NaN', {'NaN': 1}]",
    );
  });

  it("keeps integers of any size exact and floats as floats, reads -0 as 0 and too large floats as infinity", () => {
    expect(loads("[12345678901234567890, -9007199254740993, -0, 1e400, -1.5e-3, 9.0, 1e22, 2]")).toBe(
      "[12345678901234567890, -9007199254740993, 0, inf, -0.0015, 9.0, 1e+22, 2]",
    );
  });

  it("lets the last of duplicate keys win in the first one's place and keeps __proto__ as data", () => {
    expect(
      renderCase(
        "{% set v = text|load_json %}{{ v }}|{{ v.polluted is defined }}|{{ v.keys()|list }}",
        {},
        { text: '{"a": 1, "b": 2, "a": 3, "__proto__": {"polluted": 1}, "10": 4, "9": 5}' },
      ),
    ).toBe(
      "{'a': 3, 'b': 2, '__proto__': {'polluted': 1}, '10': 4, '9': 5}|False|['a', 'b', '__proto__', '10', '9']",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("joins escaped surrogate pairs and keeps a lone surrogate, as Python does", () => {
    expect(loads('"\\ud83d\\ude00|\\ud800A|\\u00e9"')).toBe("😀|\ud800A|é");
  });

  it("fails with Python's message, line, column and offset (for a file without Jinja, whose text may be shown)", () => {
    const cases: [string, string][] = [
      ["", "Expecting value: line 1 column 1 (char 0)"],
      ["-NaN", "Expecting value: line 1 column 1 (char 0)"],
      ["nan", "Expecting value: line 1 column 1 (char 0)"],
      ["01", "Extra data: line 1 column 2 (char 1)"],
      ["[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"],
      ['{"a":1,}', "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"],
      ['{\n"a" 1}', "Expecting ':' delimiter: line 2 column 5 (char 6)"],
      ['"\\x41"', "Invalid \\escape: line 1 column 2 (char 1)"],
      ['"\\u12"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
      ['"a\u0001b"', "Invalid control character at: line 1 column 3 (char 2)"],
      ['"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
      ["\ufeff1", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ];
    for (const [text, message] of cases) {
      const error = fileError(text);
      expect(error.code, text).toBe("TEMPLATE_RENDER");
      expect(error.message, text).toMatch(/^Unable to load json from .*data\.json: /);
      expect(error.message.endsWith(message), `${text}: ${error.message}`).toBe(true);
    }
  });

  it("refuses nesting past Python's recursion limit with a coded error, not a stack overflow", () => {
    const error = fileError(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(error.code).toBe("TEMPLATE_RENDER");
    expect(
      renderCase("{{ (text|load_json)|length }}", {}, { text: `${"[".repeat(900)}${"]".repeat(900)}` }),
    ).toBe("1");
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

  it("keep whole floats as floats through every reader and writer", () => {
    const files = { "data.json": '{"version": 9.0, "port": 8080}' };
    const src =
      '{% import_json "data.json" as a %}{{ a.version }}|/etc/postgresql/{{ a.version }}/main|{{ a|json }}|' +
      "{{ a|yaml }}|{{ a|python }}|{{ a.version ~ '' }}|{{ '%s' % a.version }}|{{ '{}'.format(a.version) }}";
    expect(renderCase(src, files)).toBe(
      '9.0|/etc/postgresql/9.0/main|{"port": 8080, "version": 9.0}|{port: 8080, version: 9.0}|' +
        "{'port': 8080, 'version': 9.0}|9.0|9.0|9.0",
    );
  });
});
