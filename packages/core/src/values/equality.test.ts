import { describe, expect, it } from "vitest";
import { pyEquals } from "./equality.js";
import { PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

describe("pyEquals", () => {
  it("compares numbers across int, float and bool, as Python's ==", () => {
    expect(pyEquals(1, true)).toBe(true);
    expect(pyEquals(new PyFloat(1), 1)).toBe(true);
    expect(pyEquals(new PyFloat(0), false)).toBe(true);
    expect(pyEquals(2n ** 60n, 2 ** 60)).toBe(true);
    expect(pyEquals(1, "1")).toBe(false);
    expect(pyEquals(Number.NaN, Number.NaN)).toBe(true);
  });

  it("compares mappings of either representation by keys and values, in any order", () => {
    const exact = new PyDict<unknown>([
      [1, new PyFloat(2)],
      ["b", [true]],
    ]);
    expect(
      pyEquals(
        exact,
        new PyDict<unknown>([
          ["b", [1]],
          [true, 2],
        ]),
      ),
    ).toBe(true);
    expect(pyEquals({ b: [1] }, new PyDict([["b", [new PyFloat(1)]]]))).toBe(true);
    expect(
      pyEquals(
        exact,
        new PyDict<unknown>([
          ["1", 2],
          ["b", [true]],
        ]),
      ),
    ).toBe(false);
    expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it("treats null and undefined as None and lists element-wise", () => {
    expect(pyEquals(null, undefined)).toBe(true);
    expect(pyEquals([1, [2]], [true, [new PyFloat(2)]])).toBe(true);
    expect(pyEquals([1], [1, 2])).toBe(false);
    expect(pyEquals(new Date(5), new Date(5))).toBe(true);
  });
});
