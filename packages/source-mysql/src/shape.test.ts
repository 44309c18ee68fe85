import { type Dict, isMergeError, PyFloat, toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import {
  createShaper,
  effectiveDepth,
  type Row,
  type ShapeOptions,
  shapeRows as shapeExact,
} from "./shape.js";

// Most expectations here are written as plain objects: the exact result named as json.dumps names keys. The exact
// model itself (typed keys, order, floats) is checked in "exact results" below and by the Salt suites.
const shapeRows = (fields: readonly string[], rows: Iterable<Row>, options?: ShapeOptions): Dict =>
  toPlain(shapeExact(fields, rows, options)) as Dict;

const ABCD = ["a", "b", "c", "d"];

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isMergeError(error) ? error.code : `not a MergeError: ${String(error)}`;
  }
  return undefined;
}

/** Runs several queries into one shaper, as one ext_pillar call does. */
function many(queries: [string[], Row[], ShapeOptions?, string?][]) {
  const shaper = createShaper();
  for (const [fields, rows, options, root] of queries) {
    shaper.enterRoot(root);
    const sink = shaper.begin(fields, options);
    for (const row of rows) sink.push(row);
    sink.end();
  }
  return toPlain(shaper.result()) as Dict;
}

describe("depth", () => {
  it("constrains the depth like Salt: 0 or ≥ field count means field count − 1", () => {
    expect(effectiveDepth(0, 2)).toBe(1);
    expect(effectiveDepth(2, 2)).toBe(1);
    expect(effectiveDepth(0, 4)).toBe(3);
    expect(effectiveDepth(1, 4)).toBe(1);
    expect(effectiveDepth(2, 4)).toBe(2);
    expect(effectiveDepth(3, 4)).toBe(3);
    expect(effectiveDepth(4, 4)).toBe(3);
    expect(effectiveDepth(99, 4)).toBe(3);
    expect(effectiveDepth(0, 1)).toBe(0);
  });

  it("takes a depth written as a float only where Salt replaces it, and fails like Salt on any other", () => {
    // Salt keeps `depth: 2.0` below the field count and then fails: Python's range() takes no float.
    expect(effectiveDepth(0, 3, undefined, true)).toBe(2);
    expect(effectiveDepth(3, 3, undefined, true)).toBe(2);
    expect(effectiveDepth(5, 3, undefined, true)).toBe(2);
    expect(codeOf(() => effectiveDepth(2, 3, undefined, true))).toBe("SQL_CONFIG");
    expect(codeOf(() => effectiveDepth(1, 3, undefined, true))).toBe("SQL_CONFIG");
    const rows: Row[] = [["a", "b", 1]];
    expect(shapeRows(["x", "y", "z"], rows, { depth: new PyFloat(3) })).toEqual({ a: { b: 1 } });
    expect(shapeRows(["x", "y", "z"], rows, { depth: 2 })).toEqual({ a: { b: 1 } });
    expect(codeOf(() => shapeRows(["x", "y", "z"], rows, { depth: new PyFloat(2) }))).toBe("SQL_CONFIG");
  });

  it("maps key/value rows (the legacy two-column query)", () => {
    expect(
      shapeRows(
        ["a", "b"],
        [
          [1, 2],
          [3, 4],
          [5, 6],
        ],
      ),
    ).toEqual({ 1: 2, 3: 4, 5: 6 });
  });

  it("nests every column but the last at full depth", () => {
    const rows = [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ];
    expect(shapeRows(ABCD, rows)).toEqual({ 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
    expect(shapeRows(ABCD, rows, { depth: 3 })).toEqual({ 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
    expect(shapeRows(ABCD, rows, { depth: 4 })).toEqual({ 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
  });

  it("turns the columns after the key columns into a mapping by field name", () => {
    const rows = [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ];
    expect(shapeRows(ABCD, rows, { depth: 1 })).toEqual({
      1: { b: 2, c: 3, d: 4 },
      5: { b: 6, c: 7, d: 8 },
    });
    expect(shapeRows(ABCD, rows, { depth: 2 })).toEqual({
      1: { 2: { c: 3, d: 4 } },
      5: { 6: { c: 7, d: 8 } },
    });
  });

  it("maps each value of a single-column query to itself", () => {
    expect(shapeRows(["role"], [["web"], ["db"], [7]])).toEqual({ web: "web", db: "db", 7: 7 });
  });

  it("lets a later duplicate field name win", () => {
    expect(shapeRows(["k", "x", "x"], [["a", 1, 2]], { depth: 1 })).toEqual({ a: { x: 2 } });
  });

  it("keeps duplicate field names as a list with as_list", () => {
    expect(shapeRows(["k", "x", "x"], [["a", 1, 2]], { depth: 1, asList: true })).toEqual({
      a: { x: [1, 2] },
    });
  });

  it("rejects a negative or fractional depth with SQL_CONFIG instead of crashing", () => {
    expect(codeOf(() => shapeRows(ABCD, [], { depth: -1 }))).toBe("SQL_CONFIG");
    expect(codeOf(() => shapeRows(ABCD, [], { depth: 1.5 }))).toBe("SQL_CONFIG");
    // A fraction at or beyond the field count is clamped before Python would trip over it.
    expect(shapeRows(["a", "b"], [[1, 2]], { depth: 2.5 })).toEqual({ 1: 2 });
  });

  it("rejects a query without columns", () => {
    expect(codeOf(() => shapeRows([], []))).toBe("SQL_SHAPE");
  });

  it("rejects a row shorter than the field list", () => {
    expect(codeOf(() => shapeRows(ABCD, [[1, 2]]))).toBe("SQL_SHAPE");
  });
});

describe("collisions", () => {
  it("lets later rows overwrite earlier ones", () => {
    expect(
      shapeRows(
        ["a", "b"],
        [
          [1, 2],
          [3, 4],
          [1, 6],
        ],
      ),
    ).toEqual({ 1: 6, 3: 4 });
    expect(
      shapeRows(ABCD, [
        [1, 2, 3, 4],
        [1, 2, 3, 8],
      ]),
    ).toEqual({ 1: { 2: { 3: 8 } } });
    expect(
      shapeRows(
        ABCD,
        [
          [1, 2, 3, 4],
          [1, 6, 7, 8],
        ],
        { depth: 1 },
      ),
    ).toEqual({ 1: { b: 6, c: 7, d: 8 } });
    expect(
      shapeRows(
        ABCD,
        [
          [1, 2, 3, 4],
          [1, 2, 7, 8],
        ],
        { depth: 2 },
      ),
    ).toEqual({ 1: { 2: { c: 7, d: 8 } } });
  });

  it("merges rows that share leading keys", () => {
    expect(
      shapeRows(ABCD, [
        [1, 2, 3, 4],
        [1, 6, 7, 8],
      ]),
    ).toEqual({ 1: { 2: { 3: 4 }, 6: { 7: 8 } } });
    expect(
      shapeRows(ABCD, [
        [1, 2, 3, 4],
        [1, 2, 7, 8],
      ]),
    ).toEqual({ 1: { 2: { 3: 4, 7: 8 } } });
    expect(
      shapeRows(
        ABCD,
        [
          [1, 2, 3, 4],
          [1, 6, 7, 8],
        ],
        { depth: 2 },
      ),
    ).toEqual({ 1: { 2: { c: 3, d: 4 }, 6: { c: 7, d: 8 } } });
  });

  it("turns only collisions into lists with as_list", () => {
    expect(
      shapeRows(
        ["k", "v"],
        [
          ["x", 1],
          ["x", 2],
          ["y", 3],
        ],
        { asList: true },
      ),
    ).toEqual({ x: [1, 2], y: 3 });
  });

  it("collects collisions of separate queries into lists with as_list", () => {
    expect(
      many([
        [ABCD, [[1, 2, 3, 4]], { depth: 2, asList: true }],
        [ABCD, [[1, 2, 7, 8]], { depth: 2, asList: true }],
      ]),
    ).toEqual({ 1: { 2: { c: [3, 7], d: [4, 8] } } });
    expect(
      many([
        [ABCD, [[1, 2, 3, 4]], { asList: true }],
        [ABCD, [[1, 2, 3, 8]], { asList: true }],
      ]),
    ).toEqual({ 1: { 2: { 3: [4, 8] } } });
  });

  it("appends a wider query's mapping to a list a narrower one made", () => {
    const five = ["a", "b", "c", "d", "e"];
    expect(
      many([
        [ABCD, [[1, 2, 3, 4]], { asList: true }],
        [ABCD, [[1, 2, 3, 5]], { asList: true }],
        [five, [[1, 2, 3, 6, 7]], { asList: true }],
      ]),
    ).toEqual({ 1: { 2: { 3: [4, 5, { 6: 7 }] } } });
    expect(
      many([
        [five, [[1, 2, 3, 6, 7]], { asList: true }],
        [five, [[1, 2, 3, 8, 9]], { asList: true }],
        [ABCD, [[1, 2, 3, 4]], { asList: true }],
        [ABCD, [[1, 2, 3, 5]], { asList: true }],
      ]),
    ).toEqual({ 1: { 2: { 3: [{ 6: 7, 8: 9 }, 4, 5] } } });
    expect(
      many([
        [five, [[1, 2, 3, 6, 7]], { asList: true }],
        [ABCD, [[1, 2, 3, 4]], { asList: true }],
        [five, [[1, 2, 3, 8, 9]], { asList: true }],
        [ABCD, [[1, 2, 3, 5]], { asList: true }],
      ]),
    ).toEqual({ 1: { 2: { 3: [{ 6: 7 }, 4, { 8: 9 }, 5] } } });
  });

  it("overwrites across queries of different widths without as_list", () => {
    const five = ["a", "b", "c", "d", "e"];
    expect(
      many([
        [ABCD, [[1, 2, 3, 4]]],
        [ABCD, [[1, 2, 3, 5]]],
        [five, [[1, 2, 3, 6, 7]]],
      ]),
    ).toEqual({ 1: { 2: { 3: { 6: 7 } } } });
    expect(
      many([
        [five, [[1, 2, 3, 6, 7]]],
        [five, [[1, 2, 3, 8, 9]]],
        [ABCD, [[1, 2, 3, 4]]],
        [ABCD, [[1, 2, 3, 5]]],
      ]),
    ).toEqual({ 1: { 2: { 3: 5 } } });
    expect(
      many([
        [five, [[1, 2, 3, 6, 7]], { asList: true }],
        [five, [[1, 2, 3, 8, 9]], { asList: true }],
        [ABCD, [[1, 2, 3, 4]], { asList: true }],
        [ABCD, [[1, 2, 3, 5]], { asList: false }],
      ]),
    ).toEqual({ 1: { 2: { 3: 5 } } });
  });

  it("reports SQL_SHAPE where Salt would descend into a value that is not a mapping", () => {
    const shaper = createShaper();
    const first = shaper.begin(["k", "v"]);
    first.push(["a", 1]);
    first.end();
    const second = shaper.begin(["k", "x", "y"], { depth: 1 });
    expect(codeOf(() => second.push(["a", 2, 3]))).toBe("SQL_SHAPE");
  });

  it("lets rows through a non-mapping when ignore_null leaves nothing to write, as Salt does", () => {
    expect(
      many([
        [["k", "v"], [["a", 1]]],
        [["k", "x", "y"], [["a", null, null]], { depth: 1, ignoreNull: true }],
      ]),
    ).toEqual({ a: 1 });
  });
});

describe("named roots", () => {
  it("isolates a named query's results under its key", () => {
    expect(
      many([
        [ABCD, [[1, 2, 3, 4]]],
        [ABCD, [[5, 6, 7, 8]], {}, "1"],
      ]),
    ).toEqual({ 1: { 5: { 6: { 7: 8 } } } });
  });

  it("writes a root named with the empty string at the top level", () => {
    expect(
      many([
        [["k", "v"], [["a", 1]]],
        [["k", "v"], [["b", 2]], {}, ""],
      ]),
    ).toEqual({ a: 1, b: 2 });
  });

  it("creates an empty mapping for a named query without rows", () => {
    expect(many([[["k", "v"], [], {}, "extras"]])).toEqual({ extras: {} });
  });
});

describe("option spellings", () => {
  it("accepts Salt's option names and with_lists as text", () => {
    const rows = [
      ["a", "b", "c", "d", "e", 1],
      ["a", "b", "c", "f", "g", 2],
    ];
    const fields = ["a", "b", "c", "d", "e", "v"];
    const expected = { a: [{ c: [{ e: 1 }, { g: 2 }] }] };
    expect(shapeRows(fields, rows, { with_lists: "1,3" })).toEqual(expected);
    expect(shapeRows(fields, rows, { withLists: " 1, 3" })).toEqual(expected);
    expect(
      shapeRows(
        ["k", "v"],
        [
          ["x", 1],
          ["x", null],
        ],
        { as_list: true, ignore_null: true },
      ),
    ).toEqual({ x: [1, null] });
    expect(codeOf(() => shapeRows(fields, rows, { with_lists: "1,x" }))).toBe("SQL_CONFIG");
  });
});

describe("NULL", () => {
  it("uses the key null for a NULL key", () => {
    expect(shapeRows(["k", "v"], [[null, 1]])).toEqual({ null: 1 });
  });

  it("keeps NULL values without ignore_null", () => {
    expect(
      shapeRows(
        ["k", "v"],
        [
          ["a", 1],
          ["a", null],
        ],
      ),
    ).toEqual({ a: null });
  });

  it("does not let NULL overwrite with ignore_null, nor create a key", () => {
    expect(
      many([
        [["k", "v"], [["a", 1]]],
        [
          ["k", "v"],
          [
            ["a", null],
            ["b", null],
          ],
          { ignoreNull: true },
        ],
      ]),
    ).toEqual({ a: 1 });
    expect(
      shapeRows(
        ["k", "x", "y"],
        [
          ["a", 1, 2],
          ["a", null, 3],
        ],
        { depth: 1, ignoreNull: true },
      ),
    ).toEqual({ a: { x: 1, y: 3 } });
  });

  it("still appends NULL in list mode with ignore_null", () => {
    expect(
      shapeRows(
        ["k", "v"],
        [
          ["a", 1],
          ["a", null],
        ],
        { asList: true, ignoreNull: true },
      ),
    ).toEqual({ a: [1, null] });
  });
});

describe("with_lists", () => {
  const SEED_FIELDS = ["a", "b", "c", "d", "e", "v"];
  const SEED_ROWS = [
    ["a", "b", "c", "d", "e", 1],
    ["a", "b", "c", "f", "g", 2],
    ["a", "z", "h", "y", "j", 3],
    ["a", "z", "h", "y", "k", 4],
  ];

  it("builds the documented 1,3 example", () => {
    expect(shapeRows(SEED_FIELDS, SEED_ROWS, { withLists: [1, 3] })).toEqual({
      a: [{ c: [{ e: 1 }, { g: 2 }] }, { h: [{ j: 3, k: 4 }] }],
    });
  });

  it("nests lists for consecutive levels 1,2,3", () => {
    expect(shapeRows(SEED_FIELDS, SEED_ROWS, { withLists: [1, 2, 3] })).toEqual({
      a: [[[{ e: 1 }, { g: 2 }]], [[{ j: 3, k: 4 }]]],
    });
  });

  it("always makes a list at the last key level, even for one row", () => {
    expect(shapeRows(["k", "v"], [["a", 1]], { withLists: [1] })).toEqual({ a: [1] });
    expect(
      shapeRows(
        ["k", "v"],
        [
          ["a", 1],
          ["a", 2],
          ["b", 3],
        ],
        { withLists: [1] },
      ),
    ).toEqual({ a: [1, 2], b: [3] });
  });

  it("wraps a value that is already a list once more", () => {
    expect(
      shapeRows(
        ["k", "x", "y"],
        [
          ["a", 1, 5],
          ["a", 3, 6],
        ],
        { depth: 1, asList: true, withLists: [2] },
      ),
    ).toEqual({ a: { x: [[1, 3]], y: [5, 6] } });
  });

  it("lists a bytes or whole-float key once, however many rows repeat it", () => {
    // Every row brings its own Buffer and its own PyFloat for the same key; Salt's `not in` compares with `==`, so
    // the key is listed (and its mapping turned into a list) once. Values from Salt's ext_pillar on MariaDB.
    const bytesRows = [
      [Buffer.from("A"), "x", 1],
      [Buffer.from("A"), "y", 2],
      [Buffer.from([0x00, 0xff]), "x", 3],
      [Buffer.from("A"), "x", 4],
    ];
    const bytes = shapeExact(["k", "sub", "v"], bytesRows, { depth: 2, withLists: [1] });
    expect(bytes.get(Buffer.from("A"))).toEqual([4, 2]);
    expect(bytes.get(Buffer.from([0x00, 0xff]))).toEqual([3]);
    const floatRows = [
      [new PyFloat(1), "x", 1],
      [new PyFloat(1), "y", 2],
      [2.5, "x", 3],
      [new PyFloat(1), "x", 4],
    ];
    expect(shapeRows(["f", "sub", "v"], floatRows, { depth: 1, withLists: [1] })).toEqual({
      "1.0": ["x", 4],
      "2.5": ["x", 3],
    });
  });

  it("leaves a scalar at a marked field level alone", () => {
    expect(shapeRows(["k", "x", "y"], [["a", 1, 2]], { depth: 1, withLists: [2] })).toEqual({
      a: { x: 1, y: 2 },
    });
  });

  it("turns the mapping at a marked level into the list of its values, in row order", () => {
    // Plain objects would enumerate "1", "2", "3" first; Salt's dicts (and our Maps) keep row order.
    expect(
      shapeRows(
        ["k", "id", "name"],
        [
          ["hosts", 3, "c"],
          ["hosts", 1, "a"],
          ["hosts", 2, "b"],
        ],
        { withLists: [1] },
      ),
    ).toEqual({ hosts: ["c", "a", "b"] });
    expect(
      shapeRows(
        ["k", "id", "name", "port"],
        [
          ["hosts", 3, "c", 30],
          ["hosts", 1, "a", 10],
        ],
        { depth: 2, withLists: [1] },
      ),
    ).toEqual({
      hosts: [
        { name: "c", port: 30 },
        { name: "a", port: 10 },
      ],
    });
  });

  it("ignores levels outside 1..field count", () => {
    expect(shapeRows(["k", "v"], [["a", 1]], { withLists: [-1, 7, 3] })).toEqual({ a: 1 });
  });

  it("reports SQL_SHAPE where ignore_null leaves a marked field unset (Salt raises KeyError)", () => {
    expect(
      codeOf(() =>
        shapeRows(["k", "x", "y"], [["a", null, 1]], { depth: 1, ignoreNull: true, withLists: [2] }),
      ),
    ).toBe("SQL_SHAPE");
  });

  it("handles many distinct keys at a marked level in linear time", () => {
    const rows: Row[] = [];
    for (let i = 0; i < 50_000; i++) rows.push(["all", `host${i}`, i]);
    const out = shapeRows(["k", "h", "v"], rows, { depth: 2, withLists: [1, 2] });
    const list = out.all as unknown[];
    expect(list).toHaveLength(50_000);
    expect(list[49_999]).toEqual([49_999]);
  });
});

describe("data safety", () => {
  it("keeps __proto__ and constructor as ordinary keys", () => {
    const out = shapeRows(
      ["k", "v"],
      [
        ["__proto__", { polluted: true }],
        ["constructor", 1],
      ],
    );
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("keeps __proto__ and constructor as ordinary field names", () => {
    const out = shapeRows(["k", "__proto__", "constructor"], [["a", 1, 2]], { depth: 1 });
    const inner = out.a as Record<string, unknown>;
    expect(Object.keys(inner)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(inner.constructor).toBe(2);
  });

  it("never modifies the rows it is given", () => {
    const list = [1];
    const rows = [
      ["a", list],
      ["a", 2],
    ];
    shapeRows(["k", "v"], rows, { asList: true });
    expect(list).toEqual([1]);
    expect(rows).toEqual([
      ["a", [1]],
      ["a", 2],
    ]);
  });

  it("keeps binary keys as bytes (named by their text in plain results) and binary values as bytes", () => {
    const exact = shapeExact(["k", "v"], [[Buffer.from("name"), Buffer.from([1, 2])]]);
    expect(exact.keyList()[0]).toEqual(Buffer.from("name"));
    const out = shapeRows(["k", "v"], [[Buffer.from("name"), Buffer.from([1, 2])]]);
    expect(out.name).toEqual(Buffer.from([1, 2]));
  });
});

describe("exact results", () => {
  it("keeps column values as typed keys in row order, as Salt's dicts do", () => {
    const out = shapeExact(
      ["k", "v"],
      [
        [10, "a"],
        ["9", "b"],
        [1, "c"],
        ["1", "d"],
        [null, "e"],
        [new PyFloat(2), "f"],
        [true, "g"],
      ],
    );
    // True == 1: the row writes the value of key 1 (first spelling kept), as a Python dict does
    expect([...out.entries()]).toEqual([
      [10, "a"],
      ["9", "b"],
      [1, "g"],
      ["1", "d"],
      [null, "e"],
      [new PyFloat(2), "f"],
    ]);
  });

  it("lists a mapping's values in row order for with_lists, integer-like keys included", () => {
    const out = shapeExact(
      ["k", "h", "v"],
      [
        ["x", "10", 1],
        ["x", "9", 2],
        ["x", 3, 3],
      ],
      { withLists: [1] },
    );
    // the values of {"10": 1, "9": 2, 3: 3} in the order the rows wrote them
    expect(out.get("x")).toEqual([1, 2, 3]);
  });
});

describe("DECIMAL keys", () => {
  /** Several queries into one shaper, the result in the exact model (keys as Salt's Python holds them). */
  function manyExact(queries: [string[], Row[], ShapeOptions?][]) {
    const shaper = createShaper();
    for (const [fields, rows, options] of queries) {
      shaper.enterRoot(undefined);
      const sink = shaper.begin(fields, options);
      for (const row of rows) sink.push(row);
      sink.end();
    }
    return shaper.result();
  }

  it("makes a DECIMAL key one key with the int or float of the same value, as Salt's Decimal keys are", () => {
    // Salt on MariaDB: INT keys 1, 0, then DOUBLE keys 0.0 and 2.5, then DECIMAL keys 1.00, 2.50, 0.10, -0.00
    // into one mapping gave {1: 1, 0: 4, 2.5: 2, Decimal('0.10'): 3}.
    const result = manyExact([
      [
        ["i", "v"],
        [
          [1, "one"],
          [0, "two"],
        ],
      ],
      [
        ["f", "v"],
        [
          [new PyFloat(0), "zero"],
          [2.5, "half"],
        ],
      ],
      [
        ["d", "id"],
        [
          ["1.00", 1],
          ["2.50", 2],
          ["0.10", 3],
          ["-0.00", 4],
        ],
        { decimalColumns: [true, false] },
      ],
    ]);
    expect(result.keyList().map(String)).toEqual(["1", "0", "2.5", "0.10"]);
    expect([...result.values()]).toEqual([1, 4, 2, 3]);
  });
});
