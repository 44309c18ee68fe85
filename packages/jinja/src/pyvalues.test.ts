// Expected strings are what CPython 3.11 prints.
import { describe, expect, it } from "vitest";
import { roundPy } from "./decimal.js";
import { pyPercent } from "./pyformat.js";
import { floatRepr, PyTuple, pyBool, pyEq, pyRepr, pyStr, strRepr } from "./pyvalues.js";
import { compareCodePoints } from "@merge/core";
import { pyJsonDumps } from "./serialize-python.js";
import { traverse } from "./salt.js";

describe("Python values", () => {
  it("writes floats as repr() does", () => {
    const cases: [number, string][] = [
      [0.1, "0.1"],
      [1e16, "1e+16"],
      [1e-5, "1e-05"],
      [2.5e-5, "2.5e-05"],
      [123456789.123, "123456789.123"],
      [1e22, "1e+22"],
      [-0, "-0.0"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [0.0001, "0.0001"],
      [1.23e16, "1.23e+16"],
      [1.5, "1.5"],
    ];
    for (const [x, s] of cases) expect(floatRepr(x)).toBe(s);
  });

  it("quotes strings as repr() does", () => {
    expect(strRepr("it's")).toBe(`"it's"`);
    expect(strRepr('a"b')).toBe(`'a"b'`);
    expect(strRepr(`both ' "`)).toBe(`'both \\' "'`);
    expect(strRepr("\x00\x7f\u200bé😀")).toBe("'\\x00\\x7f\\u200bé😀'");
  });

  it("prints containers, tuples and None like str()", () => {
    expect(pyStr({ a: [1, "x", null, true, 1.5], b: PyTuple.of_([1]) })).toBe(
      "{'a': [1, 'x', None, True, 1.5], 'b': (1,)}",
    );
    expect(pyStr(undefined)).toBe("");
    expect(pyRepr(undefined)).toBe("Undefined");
    expect(pyStr(12345678901234567890n)).toBe("12345678901234567890");
  });

  it("has Python truthiness and equality", () => {
    expect([[], {}, "", 0, null, undefined, Number.NaN].map(pyBool)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(pyEq(1, true)).toBe(true);
    expect(pyEq({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(pyEq([1], PyTuple.of_([1]))).toBe(false);
  });
});

describe("formatting", () => {
  it("rounds from the exact binary value, ties to even", () => {
    expect(
      pyPercent(
        "%.2f|%.2f|%.2f|%.1f|%.3e|%g|%g|%10.4f|%-8.2e|%+.0f",
        PyTuple.of_([2.675, 0.125, 0.375, 1e22, 123456.5, 1e-5, 123456789.0, 2.71, 0.000123, 2.5]),
      ),
    ).toBe("2.67|0.12|0.38|10000000000000000000000.0|1.235e+05|1e-05|1.23457e+08|    2.7100|1.23e-04|+2");
    expect([
      roundPy(2.5, 0),
      roundPy(3.5, 0),
      roundPy(2.675, 2),
      roundPy(-0.5, 0),
      roundPy(1234.5678, -2),
    ]).toEqual([2, 4, 2.67, -0, 1200]);
  });

  it("checks the argument count like Python", () => {
    expect(() => pyPercent("%s %s", PyTuple.of_([1]))).toThrow("not enough arguments for format string");
    expect(() => pyPercent("%s", PyTuple.of_([1, 2]))).toThrow(
      "not all arguments converted during string formatting",
    );
  });
});

describe("json.dumps", () => {
  it("sorts keys by code point and uses Python's separators", () => {
    expect(pyJsonDumps({ b: 1, a: [1, 2.5, null], "\u{1F600}": 0, "\uFFFD": 1 })).toBe(
      '{"a": [1, 2.5, null], "b": 1, "\uFFFD": 1, "\u{1F600}": 0}',
    );
    expect(["\u{1F600}", "\uFFFD", "a"].sort(compareCodePoints)).toEqual(["a", "\uFFFD", "\u{1F600}"]);
    expect(pyJsonDumps([Number.NaN, Number.POSITIVE_INFINITY, "é\n"])).toBe('[NaN, Infinity, "é\\n"]');
    expect(pyJsonDumps({ a: [] }, { indent: 2 })).toBe('{\n  "a": []\n}');
  });
});

describe("traverse", () => {
  it("walks dicts, list indexes and dicts inside lists, returning the default on any miss", () => {
    const data = { a: { b: [{ c: 1 }, { d: 2 }, "x"] } };
    expect(traverse(data, "a:b:1:d")).toBe(2);
    expect(traverse(data, "a:b:d")).toBe(2);
    expect(traverse(data, "a:b:-1")).toBe("x");
    expect(traverse(data, "a:b:9", "dflt")).toBe("dflt");
    expect(traverse(data, "a:zz")).toBe(null);
    expect(traverse(data, "a/b/2", null, "/")).toBe("x");
  });
});
