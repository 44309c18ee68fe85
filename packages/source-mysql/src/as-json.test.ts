import { describe, expect, it } from "vitest";
import { catchMergeError } from "../../../test-kit/errors.js";
import { type Dict, formatMergeError, type PyDict, pyEquals, toPlain } from "@merge/core";
import { pyListUnion } from "./py-equal.js";
import { createShaper, shapeRows } from "./shape.js";

// Expectations are written as plain objects (the exact result with keys named as json.dumps names them).
const json = (rows: unknown[], options: Record<string, unknown> = {}) =>
  toPlain(
    shapeRows(
      ["doc"],
      rows.map((row) => [row]),
      { asJson: true, ...options },
    ),
  ) as Dict;

describe("as_json", () => {
  it("merges each row's object recursively, later values winning", () => {
    expect(json(['{"a": {"b": 1, "c": [1]}, "x": 1}', '{"a": {"b": 2, "d": 3}, "x": {"y": 1}}'])).toEqual({
      a: { b: 2, c: [1], d: 3 },
      x: { y: 1 },
    });
  });

  it("joins lists without repeating items only with as_list, using Python's ==", () => {
    const rows = [
      '{"l": [1, "1", {"k": [1]}, true]}',
      '{"l": [1.0, true, "1", {"k": [1]}, {"k": [2]}, 2, null]}',
    ];
    expect(json(rows)).toEqual({ l: [1, true, "1", { k: [1] }, { k: [2] }, 2, null] });
    // 1.0 == 1 == true, {"k": [1]} == {"k": [1]}: only {"k": [2]}, 2 and null are new.
    expect(json(rows, { asList: true })).toEqual({ l: [1, "1", { k: [1] }, true, { k: [2] }, 2, null] });
  });

  it("is ignored for queries of more than one column, as in Salt", () => {
    expect(toPlain(shapeRows(["k", "v"], [["a", '{"x": 1}']], { asJson: true }))).toEqual({ a: '{"x": 1}' });
  });

  it("writes under a named root and can be the root's only content", () => {
    const shaper = createShaper();
    shaper.enterRoot("cfg");
    const sink = shaper.begin(["doc"], { as_json: true });
    sink.push(['{"port": 80}']);
    sink.push([Buffer.from('{"host": "h\\u00e9"}')]);
    sink.end();
    expect(toPlain(shaper.result())).toEqual({ cfg: { port: 80, host: "hé" } });
  });

  it("keeps integers exact and NaN/Infinity as numbers", () => {
    expect(json(['{"big": 12345678901234567890, "n": NaN, "i": -Infinity, "f": 0.5}'])).toEqual({
      big: 12345678901234567890n,
      n: Number.NaN,
      i: Number.NEGATIVE_INFINITY,
      f: 0.5,
    });
  });

  it("keeps __proto__ from JSON as an ordinary key, merging into it as data", () => {
    const result = json(['{"__proto__": {"admin": true}}', '{"__proto__": {"x": 1}}']);
    expect(Object.keys(result)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(result, "__proto__")?.value).toEqual({ admin: true, x: 1 });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("refuses a value that is not an object with SQL_SHAPE, as Salt raises TypeError", () => {
    for (const value of ["42", "[1]", '"text"', "null", null, 42]) {
      const error = catchMergeError(() => json([value]));
      expect(error.code, String(value)).toBe("SQL_SHAPE");
    }
  });

  it("refuses text that is not JSON with SQL_JSON naming the row", () => {
    const error = catchMergeError(() => json(['{"a": 1}', "{'a': 1}"], { query: { root: "cfg", index: 0 } }));
    expect(error.code).toBe("SQL_JSON");
    expect(formatMergeError(error)).toMatch(/^query "cfg": row 2: the column is not valid JSON/);
    expect(catchMergeError(() => json([Buffer.from([0x7b, 0xff, 0x7d])])).code).toBe("SQL_JSON");
  });

  it("refuses JSON nested past the limit with DEPTH_LIMIT instead of overflowing", () => {
    const deep = `{"a": ${"[".repeat(5000)}${"]".repeat(5000)}}`;
    expect(catchMergeError(() => json([deep])).code).toBe("DEPTH_LIMIT");
    // The row's object merges into the result: 999 lists inside it make 1000 levels, the most allowed.
    const fits = `{"a": ${"[".repeat(999)}${"]".repeat(999)}}`;
    expect(() => json([fits])).not.toThrow();
    const over = `{"a": ${"[".repeat(1000)}${"]".repeat(1000)}}`;
    expect(catchMergeError(() => json([over])).code).toBe("DEPTH_LIMIT");
  });

  it("copies decoded mappings it is given and checks them", () => {
    const row = { a: { b: [1] } };
    const result = json([row, { a: { c: 2 } }]);
    expect(result).toEqual({ a: { b: [1], c: 2 } });
    expect(row).toEqual({ a: { b: [1] } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(catchMergeError(() => json([cyclic])).code).toBe("CYCLIC_INPUT");
  });
});

describe("Python equality of JSON values", () => {
  it("follows Python's == across bool, int and float, and by value for containers", () => {
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(1, 1.0)).toBe(true);
    expect(pyEquals(2 ** 60, 2n ** 60n)).toBe(true);
    expect(pyEquals(0, -0)).toBe(true);
    expect(pyEquals("1", 1)).toBe(false);
    expect(pyEquals(null, 0)).toBe(false);
    expect(pyEquals({ a: [1, { b: true }] }, { a: [1.0, { b: 1 }] })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(pyEquals([1, 2], [2, 1])).toBe(false);
  });

  it("joins lists like Salt's merge_lists, in linear time for scalars", () => {
    expect(pyListUnion([1, 2], [2, 3, 3, 1.0, false, 0])).toEqual([1, 2, 3, false]);
    const many = Array.from({ length: 100_000 }, (_, i) => i);
    expect(
      pyListUnion(
        many,
        many.map((i) => i + 50_000),
      ),
    ).toHaveLength(150_000);
  });
});

describe("depth limit of shaped rows", () => {
  it("refuses a 3,000-column row with DEPTH_LIMIT naming the query, not a stack overflow", () => {
    const fields = Array.from({ length: 3000 }, (_, i) => `c${i}`);
    const error = catchMergeError(() =>
      shapeRows(fields, [fields.map((_, i) => i)], { query: { root: "wide", index: 0 } }),
    );
    expect(error.code).toBe("DEPTH_LIMIT");
    expect(formatMergeError(error)).toMatch(
      /^query "wide": 3000 columns at depth 2999 nest 3000 levels deep/,
    );
  });

  it("accepts the widest query that fits and the same columns at a small depth", () => {
    const fields = Array.from({ length: 1000 }, (_, i) => `c${i}`);
    expect(() => shapeRows(fields, [fields.map((_, i) => i)])).not.toThrow();
    const wide = Array.from({ length: 3000 }, (_, i) => `c${i}`);
    const result = shapeRows(wide, [wide.map((_, i) => i)], { depth: 1 });
    expect((result.get(0) as PyDict).size).toBe(2999);
  });

  it("creates nothing for a wide query without rows", () => {
    const fields = Array.from({ length: 3000 }, (_, i) => `c${i}`);
    expect(shapeRows(fields, []).size).toBe(0);
  });
});
