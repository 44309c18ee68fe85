// Every expectation of Salt's tests/pytests/unit/pillar/test_mysql.py (35 test functions), restated here. Each test
// is named after the Salt function it comes from. Salt keeps column values as dict keys (`{1: 2}`), and so does the
// exact result here: `expectSalt` reads `{ 1: 2 }` below as the Python literal (int key 1) and compares with `==`.
import { describe, expect, it } from "vitest";
import { extractSaltQueries } from "./queries.js";
import { expectSalt, SaltExtPillar } from "./test-salt.js";

/** Salt's normalised query: the defaults of `extract_queries` with some fields set. */
const q = (query: string, extra: Record<string, unknown> = {}) => ({
  query,
  depth: 0,
  as_list: false,
  as_json: false,
  with_lists: null,
  ignore_null: false,
  ...extra,
});

describe("Salt test_mysql.py: extract_queries", () => {
  it("test_001_extract_queries_legacy", () => {
    expect(extractSaltQueries(["SELECT blah"], {})).toEqual([[null, q("SELECT blah")]]);
  });

  it("test_002_extract_queries_list", () => {
    const args = [
      "SELECT blah",
      "SELECT blah2",
      ["SELECT blah3"],
      ["SELECT blah4", 2],
      { query: "SELECT blah5" },
      { query: "SELECT blah6", depth: 2 },
      { query: "SELECT blah7", as_list: true },
      { query: "SELECT blah8", with_lists: "1" },
      { query: "SELECT blah9", with_lists: "1,2" },
      { query: "SELECT json1", as_json: true },
    ];
    expect(extractSaltQueries(args, {})).toEqual([
      [null, q("SELECT blah")],
      [null, q("SELECT blah2")],
      [null, q("SELECT blah3")],
      [null, q("SELECT blah4", { depth: 2 })],
      [null, q("SELECT blah5")],
      [null, q("SELECT blah6", { depth: 2 })],
      [null, q("SELECT blah7", { as_list: true })],
      [null, q("SELECT blah8", { with_lists: [1] })],
      [null, q("SELECT blah9", { with_lists: [1, 2] })],
      [null, q("SELECT json1", { as_json: true })],
    ]);
  });

  it("test_003_extract_queries_kwarg", () => {
    const kwargs = {
      1: "SELECT blah",
      2: "SELECT blah2",
      3: ["SELECT blah3"],
      4: ["SELECT blah4", 2],
      5: { query: "SELECT blah5" },
      6: { query: "SELECT blah6", depth: 2 },
      7: { query: "SELECT blah7", as_list: true },
      8: { query: "SELECT json1", as_json: true },
    };
    expect(extractSaltQueries([], kwargs)).toEqual([
      ["1", q("SELECT blah")],
      ["2", q("SELECT blah2")],
      ["3", q("SELECT blah3")],
      ["4", q("SELECT blah4", { depth: 2 })],
      ["5", q("SELECT blah5")],
      ["6", q("SELECT blah6", { depth: 2 })],
      ["7", q("SELECT blah7", { as_list: true })],
      ["8", q("SELECT json1", { as_json: true })],
    ]);
  });

  it("test_004_extract_queries_mixed", () => {
    const args = ["SELECT blah1", ["SELECT blah2", 2], { query: "SELECT blah3", as_list: true }];
    const kwargs = {
      1: "SELECT blah1",
      2: ["SELECT blah2", 2],
      3: { query: "SELECT blah3", as_list: true },
    };
    expect(extractSaltQueries(args, kwargs)).toEqual([
      [null, q("SELECT blah1")],
      [null, q("SELECT blah2", { depth: 2 })],
      [null, q("SELECT blah3", { as_list: true })],
      ["1", q("SELECT blah1")],
      ["2", q("SELECT blah2", { depth: 2 })],
      ["3", q("SELECT blah3", { as_list: true })],
    ]);
  });

  it("test_005_extract_queries_bogus_list", () => {
    const args = [
      "SELECT blah",
      "",
      "SELECT blah2",
      ["SELECT blah3"],
      [""],
      ["SELECT blah4", 2],
      [],
      ["SELECT blah5"],
      { query: "SELECT blah6" },
      { query: "" },
      { query: "SELECT blah7", depth: 2 },
      { not_a_query: "in sight!" },
      { query: "SELECT blah8", as_list: true },
    ];
    expect(extractSaltQueries(args, {})).toEqual([
      [null, q("SELECT blah")],
      [null, q("SELECT blah2")],
      [null, q("SELECT blah3")],
      [null, q("SELECT blah4", { depth: 2 })],
      [null, q("SELECT blah5")],
      [null, q("SELECT blah6")],
      [null, q("SELECT blah7", { depth: 2 })],
      [null, q("SELECT blah8", { as_list: true })],
    ]);
  });

  it("test_006_extract_queries_bogus_kwargs", () => {
    expect(extractSaltQueries([], { 1: "SELECT blah", 2: "", 3: "SELECT blah2" })).toEqual([
      ["1", q("SELECT blah")],
      ["3", q("SELECT blah2")],
    ]);
  });
});

describe("Salt test_mysql.py: enter_root and process_fields", () => {
  it("test_011_enter_root", () => {
    const data = new SaltExtPillar();
    data.enter_root("test");
    expect(data.exact.get("test")).toBe(data.focus);
    data.enter_root(null);
    expect(data.exact).toBe(data.focus);
  });

  it("test_021_process_fields", () => {
    const data = new SaltExtPillar();
    const cases: [string[], number, number, number][] = [
      [["a", "b"], 0, 2, 1],
      [["a", "b"], 2, 2, 1],
      [["a", "b", "c", "d"], 0, 4, 3],
      [["a", "b", "c", "d"], 1, 4, 1],
      [["a", "b", "c", "d"], 2, 4, 2],
      [["a", "b", "c", "d"], 3, 4, 3],
      [["a", "b", "c", "d"], 4, 4, 3],
    ];
    for (const [fields, requested, numFields, depth] of cases) {
      data.process_fields(fields, requested);
      expect([data.num_fields, data.depth]).toEqual([numFields, depth]);
    }
  });
});

describe("Salt test_mysql.py: process_results", () => {
  /** A pillar object with its fields set, `with_lists = []` and, when asked, `enter_root(None)`. */
  const make = (fields: string[], depth: number, enterRoot = true) => {
    const data = new SaltExtPillar();
    data.process_fields(fields, depth);
    data.with_lists = [];
    if (enterRoot) data.enter_root(null);
    return data;
  };
  const ABCD = ["a", "b", "c", "d"];
  const ABCDE = ["a", "b", "c", "d", "e"];

  it("test_111_process_results_legacy", () => {
    const data = make(["a", "b"], 0, false);
    data.process_results([[1, 2]]);
    expectSalt(data.exact, { 1: 2 });
  });

  it("test_112_process_results_legacy_multiple", () => {
    const data = make(["a", "b"], 0, false);
    data.process_results([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expectSalt(data.exact, { 1: 2, 3: 4, 5: 6 });
  });

  it("test_121_process_results_depth_0", () => {
    const data = make(ABCD, 0);
    data.process_results([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
  });

  it("test_122_process_results_depth_1", () => {
    const data = make(ABCD, 1);
    data.process_results([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { b: 2, c: 3, d: 4 }, 5: { b: 6, c: 7, d: 8 } });
  });

  it("test_123_process_results_depth_2", () => {
    const data = make(ABCD, 2);
    data.process_results([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { c: 3, d: 4 } }, 5: { 6: { c: 7, d: 8 } } });
  });

  it("test_124_process_results_depth_3", () => {
    const data = make(ABCD, 3);
    data.process_results([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
  });

  it("test_125_process_results_depth_4", () => {
    const data = make(ABCD, 4);
    data.process_results([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 4 } }, 5: { 6: { 7: 8 } } });
  });

  it("test_131_process_results_overwrite_legacy_multiple", () => {
    const data = make(["a", "b"], 0, false);
    data.process_results([
      [1, 2],
      [3, 4],
      [1, 6],
    ]);
    expectSalt(data.exact, { 1: 6, 3: 4 });
  });

  it("test_132_process_results_merge_depth_0", () => {
    const data = make(ABCD, 0);
    data.process_results([
      [1, 2, 3, 4],
      [1, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 4 }, 6: { 7: 8 } } });
  });

  it("test_133_process_results_overwrite_depth_0", () => {
    const data = make(ABCD, 0);
    data.process_results([
      [1, 2, 3, 4],
      [1, 2, 3, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 8 } } });
  });

  it("test_134_process_results_deepmerge_depth_0", () => {
    const data = make(ABCD, 0);
    data.process_results([
      [1, 2, 3, 4],
      [1, 2, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { 3: 4, 7: 8 } } });
  });

  it("test_135_process_results_overwrite_depth_1", () => {
    const data = make(ABCD, 1);
    data.process_results([
      [1, 2, 3, 4],
      [1, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { b: 6, c: 7, d: 8 } });
  });

  it("test_136_process_results_merge_depth_2", () => {
    const data = make(ABCD, 2);
    data.process_results([
      [1, 2, 3, 4],
      [1, 6, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { c: 3, d: 4 }, 6: { c: 7, d: 8 } } });
  });

  it("test_137_process_results_overwrite_depth_2", () => {
    const data = make(ABCD, 2);
    data.process_results([
      [1, 2, 3, 4],
      [1, 2, 7, 8],
    ]);
    expectSalt(data.exact, { 1: { 2: { c: 7, d: 8 } } });
  });

  it("test_201_process_results_complexity_multiresults", () => {
    const data = make(ABCD, 2);
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 7, 8]]);
    expectSalt(data.exact, { 1: { 2: { c: 7, d: 8 } } });
  });

  it("test_202_process_results_complexity_as_list", () => {
    const data = make(ABCD, 2);
    data.as_list = true;
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 7, 8]]);
    expectSalt(data.exact, { 1: { 2: { c: [3, 7], d: [4, 8] } } });
  });

  it("test_203_process_results_complexity_as_list_deeper", () => {
    const data = make(ABCD, 0);
    data.as_list = true;
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 3, 8]]);
    expectSalt(data.exact, { 1: { 2: { 3: [4, 8] } } });
  });

  /** The 204–20A tests set as_list, with_lists and the root first, then alternate field lists. */
  const mixed = (asList: boolean) => {
    const data = new SaltExtPillar();
    data.as_list = asList;
    data.with_lists = [];
    data.enter_root(null);
    return data;
  };

  it("test_204_process_results_complexity_as_list_mismatch_depth", () => {
    const data = mixed(true);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 3, 5]]);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    expectSalt(data.exact, { 1: { 2: { 3: [4, 5, { 6: 7 }] } } });
  });

  it("test_205_process_results_complexity_as_list_mismatch_depth_reversed", () => {
    const data = mixed(true);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    data.process_results([[1, 2, 3, 8, 9]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 3, 5]]);
    expectSalt(data.exact, { 1: { 2: { 3: [{ 6: 7, 8: 9 }, 4, 5] } } });
  });

  it("test_206_process_results_complexity_as_list_mismatch_depth_weird_order", () => {
    const data = mixed(true);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 8, 9]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 5]]);
    expectSalt(data.exact, { 1: { 2: { 3: [{ 6: 7 }, 4, { 8: 9 }, 5] } } });
  });

  it("test_207_process_results_complexity_collision_mismatch_depth", () => {
    const data = mixed(false);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 3, 5]]);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    expectSalt(data.exact, { 1: { 2: { 3: { 6: 7 } } } });
  });

  it("test_208_process_results_complexity_collision_mismatch_depth_reversed", () => {
    const data = mixed(false);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    data.process_results([[1, 2, 3, 8, 9]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_results([[1, 2, 3, 5]]);
    expectSalt(data.exact, { 1: { 2: { 3: 5 } } });
  });

  it("test_209_process_results_complexity_collision_mismatch_depth_weird_order", () => {
    const data = mixed(false);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 8, 9]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 5]]);
    expectSalt(data.exact, { 1: { 2: { 3: 5 } } });
  });

  it("test_20A_process_results_complexity_as_list_vary", () => {
    const data = mixed(true);
    data.process_fields(ABCDE, 0);
    data.process_results([[1, 2, 3, 6, 7]]);
    data.process_results([[1, 2, 3, 8, 9]]);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.as_list = false;
    data.process_results([[1, 2, 3, 5]]);
    expectSalt(data.exact, { 1: { 2: { 3: 5 } } });
  });

  it("test_207_process_results_complexity_roots_collision", () => {
    const data = mixed(false);
    data.process_fields(ABCD, 0);
    data.process_results([[1, 2, 3, 4]]);
    data.enter_root(1);
    data.process_results([[5, 6, 7, 8]]);
    expectSalt(data.exact, { 1: { 5: { 6: { 7: 8 } } } });
  });

  const DOC_ROWS = [
    ["a", "b", "c", "d", "e", 1],
    ["a", "b", "c", "f", "g", 2],
    ["a", "z", "h", "y", "j", 3],
    ["a", "z", "h", "y", "k", 4],
  ];

  it("test_301_process_results_with_lists", () => {
    const data = new SaltExtPillar();
    data.as_list = false;
    data.with_lists = [1, 3];
    data.enter_root(null);
    data.process_fields(["a", "b", "c", "d", "e", "v"], 0);
    data.process_results(DOC_ROWS);
    // Salt's assertions, one by one: every element of result.a is {c: [{e: 1}, {g: 2}]} or {h: [{j: 3, k: 4}]}.
    expect(Object.keys(data.result)).toContain("a");
    const outer = data.result.a as Record<string, unknown>[];
    expect(Array.isArray(outer)).toBe(true);
    for (const x of outer) {
      if ("c" in x) {
        expect(Object.keys(x)).toEqual(["c"]);
        for (const y of x.c as Record<string, unknown>[]) {
          if ("e" in y) {
            expect(Object.keys(y)).toEqual(["e"]);
            expect(y.e).toBe(1);
          } else if ("g" in y) {
            expect(Object.keys(y)).toEqual(["g"]);
            expect(y.g).toBe(2);
          } else {
            throw new Error(`Unexpected value ${JSON.stringify(y)}`);
          }
        }
      } else if ("h" in x) {
        expect((x.h as unknown[]).length).toBe(1);
        for (const y of x.h as Record<string, unknown>[]) {
          if ("j" in y) {
            expect(Object.keys(y).length).toBe(2);
            expect(y.j).toBe(3);
          } else if ("h" in y) {
            expect(Object.keys(y).length).toBe(2);
            expect(y.k).toBe(4);
          } else {
            throw new Error(`Unexpected value ${JSON.stringify(y)}`);
          }
        }
      } else {
        throw new Error(`Unexpected value ${JSON.stringify(x)}`);
      }
    }
    // And the whole value the docstring of the Salt test spells out.
    expectSalt(data.exact, { a: [{ c: [{ e: 1 }, { g: 2 }] }, { h: [{ j: 3, k: 4 }] }] });
  });

  it("test_302_process_results_with_lists_consecutive", () => {
    const data = new SaltExtPillar();
    data.as_list = false;
    data.with_lists = [1, 2, 3];
    data.enter_root(null);
    data.process_fields(["a", "b", "c", "d", "e", "v"], 0);
    data.process_results(DOC_ROWS);
    expect(Object.keys(data.result)).toContain("a");
    for (const x of data.result.a as Record<string, unknown>[][][]) {
      expect(x.length).toBe(1);
      const first = x[0]!;
      if (Object.keys(first[0]!).length === 1) {
        for (const y of first) {
          if ("e" in y) {
            expect(Object.keys(y)).toEqual(["e"]);
            expect(y.e).toBe(1);
          } else if ("g" in y) {
            expect(Object.keys(y)).toEqual(["g"]);
            expect(y.g).toBe(2);
          } else {
            throw new Error(`Unexpected value ${JSON.stringify(y)}`);
          }
        }
      } else if (Object.keys(first[0]!).length === 2) {
        for (const y of first) {
          if ("j" in y) {
            expect(Object.keys(y).length).toBe(2);
            expect(y.j).toBe(3);
          } else if ("k" in y) {
            expect(Object.keys(y).length).toBe(2);
            expect(y.k).toBe(4);
          } else {
            throw new Error(`Unexpected value ${JSON.stringify(y)}`);
          }
        }
      } else {
        throw new Error(`Unexpected value ${JSON.stringify(x)}`);
      }
    }
    expectSalt(data.exact, { a: [[[{ e: 1 }, { g: 2 }]], [[{ j: 3, k: 4 }]]] });
  });
});
