import { describe, expect, it } from "vitest";
import { kindOf } from "../kinds.js";
import { isPyFloat, numberValue, PyFloat, pyFloat, pyFloatRepr } from "./pyfloat.js";

describe("pyFloatRepr", () => {
  // Expected texts are Python 3.11's repr(float(text)).
  it.each([
    [1, "1.0"],
    [100, "100.0"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [1e22, "1e+22"],
    [1e-5, "1e-05"],
    [2.5e-5, "2.5e-05"],
    [0.0001, "0.0001"],
    [123456789012345.6, "123456789012345.6"],
    [1.5e300, "1.5e+300"],
    [5e-324, "5e-324"],
    [0.1 + 0.2, "0.30000000000000004"],
    [-0, "-0.0"],
    [0, "0.0"],
    [Number.NaN, "nan"],
    [Number.POSITIVE_INFINITY, "inf"],
    [Number.NEGATIVE_INFINITY, "-inf"],
  ])("writes %s as %s", (value, text) => {
    expect(pyFloatRepr(value)).toBe(text);
  });
});

describe("PyFloat", () => {
  it("boxes only whole floats, which would otherwise print as ints", () => {
    expect(pyFloat(9)).toBeInstanceOf(PyFloat);
    expect(pyFloat(-0)).toBeInstanceOf(PyFloat);
    expect(pyFloat(1e22)).toBeInstanceOf(PyFloat);
    expect(pyFloat(1.5)).toBe(1.5);
    expect(pyFloat(Number.NaN)).toBeNaN();
    expect(pyFloat(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it("prints as Python and computes as a number", () => {
    const nine = new PyFloat(9);
    expect(String(nine)).toBe("9.0");
    expect(`${new PyFloat(1e22)}`).toBe("1e+22");
    expect(+nine * 2).toBe(18);
    expect(JSON.stringify({ v: nine })).toBe('{"v":9}');
  });

  it("is of kind number and tells floats from ints", () => {
    expect(kindOf(new PyFloat(1))).toBe("number");
    expect(isPyFloat(new PyFloat(1))).toBe(true);
    expect(isPyFloat(1.5)).toBe(true);
    expect(isPyFloat(Number.NaN)).toBe(true);
    expect(isPyFloat(1)).toBe(false);
    expect(isPyFloat(10n)).toBe(false);
    expect(numberValue(new PyFloat(3))).toBe(3);
    expect(numberValue(7n)).toBe(7n);
    expect(numberValue("7")).toBeUndefined();
  });
});
