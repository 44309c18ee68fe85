import { isMergeError, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { catchMergeError } from "../../../test-kit/errors.js";
import {
  compareCodePoints,
  extractQueries,
  extractQueriesFromConfig,
  extractSaltQueries,
  parseWithLists,
  pyTruthy,
  splitExtPillarConfig,
} from "./queries.js";

const plain = (query: string, extra: Record<string, unknown> = {}) => ({
  root: undefined,
  query,
  depth: 0,
  asList: false,
  withLists: [],
  ignoreNull: false,
  asJson: false,
  ...extra,
});

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isMergeError(error) ? error.code : `not a MergeError: ${String(error)}`;
  }
  return undefined;
}

describe("extractQueries", () => {
  it("reads a single positional string", () => {
    expect(extractQueries(["SELECT blah"], {})).toEqual([plain("SELECT blah")]);
  });

  it("reads strings, lists and mappings in order", () => {
    const out = extractQueries(
      [
        "SELECT blah",
        ["SELECT blah3"],
        ["SELECT blah4", 2],
        ["SELECT blah4b", 3, "ignored third item"],
        { query: "SELECT blah5" },
        { query: "SELECT blah6", depth: 2 },
        { query: "SELECT blah7", as_list: true },
        { query: "SELECT blah8", with_lists: "1" },
        { query: "SELECT blah9", with_lists: "1,2" },
        { query: "SELECT blah10", with_lists: [1, 3], ignore_null: true },
      ],
      {},
    );
    expect(out).toEqual([
      plain("SELECT blah"),
      plain("SELECT blah3"),
      plain("SELECT blah4", { depth: 2 }),
      plain("SELECT blah4b", { depth: 3 }),
      plain("SELECT blah5"),
      plain("SELECT blah6", { depth: 2 }),
      plain("SELECT blah7", { asList: true }),
      plain("SELECT blah8", { withLists: [1] }),
      plain("SELECT blah9", { withLists: [1, 2] }),
      plain("SELECT blah10", { withLists: [1, 3], ignoreNull: true }),
    ]);
  });

  it("puts the legacy mysql_query first, then positional, then keywords sorted by code point", () => {
    const out = extractQueries(["SELECT positional"], {
      b: "SELECT b",
      a: "SELECT a",
      Z: "SELECT Z",
      _: "SELECT _",
      mysql_query: "SELECT legacy",
    });
    expect(out.map((q) => [q.root, q.query])).toEqual([
      [undefined, "SELECT legacy"],
      [undefined, "SELECT positional"],
      ["Z", "SELECT Z"],
      ["_", "SELECT _"],
      ["a", "SELECT a"],
      ["b", "SELECT b"],
    ]);
  });

  it("drops entries without query text", () => {
    const out = extractQueries(
      [
        "SELECT blah",
        "",
        [""],
        [],
        [null],
        { query: "" },
        { not_a_query: "in sight!" },
        null,
        42,
        true,
        { query: "SELECT blah8", as_list: true },
      ],
      { 2: "", 3: "SELECT blah2" },
    );
    expect(out.map((q) => q.query)).toEqual(["SELECT blah", "SELECT blah8", "SELECT blah2"]);
  });

  it("keeps the empty root name (its results land at the top level)", () => {
    expect(extractQueries([], { "": "SELECT 1" })[0]?.root).toBe("");
  });

  it("applies Python truthiness to as_list and ignore_null", () => {
    const [q] = extractQueries([{ query: "q", as_list: "yes", ignore_null: 0 }]);
    expect(q?.asList).toBe(true);
    expect(q?.ignoreNull).toBe(false);
  });

  it("accepts booleans as depth the way Python's int comparison does", () => {
    expect(extractQueries([["q", true]])[0]?.depth).toBe(1);
  });

  it("marks a depth written as a float (a PyFloat), which Salt takes only where it replaces it", () => {
    const [listed, mapped, whole] = extractQueries([
      ["q", new PyFloat(2)],
      { query: "q", depth: new PyFloat(0) },
      { query: "q", depth: 2 },
    ]);
    expect([listed?.depth, listed?.floatDepth]).toEqual([2, true]);
    expect([mapped?.depth, mapped?.floatDepth]).toEqual([0, true]);
    expect(whole?.floatDepth).toBeUndefined();
  });

  it("keeps only list entries of with_lists that can equal a level", () => {
    expect(extractQueries([{ query: "q", with_lists: [1, "3", 2.5, true, null] }])[0]?.withLists).toEqual([
      1, 1,
    ]);
  });

  it("treats an empty with_lists as none", () => {
    expect(extractQueries([{ query: "q", with_lists: "" }])[0]?.withLists).toEqual([]);
    expect(extractQueries([{ query: "q", with_lists: [] }])[0]?.withLists).toEqual([]);
  });

  it("gives SQL_CONFIG where Salt would crash", () => {
    expect(codeOf(() => extractQueries([["q", -1]]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([["q", "2"]]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: "q", depth: null }]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: null }]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: 5 }]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([[5, 1]]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: ["SELECT 1"] }]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: "q", with_lists: "1,x" }]))).toBe("SQL_CONFIG");
    expect(codeOf(() => extractQueries([{ query: "q", with_lists: 3 }]))).toBe("SQL_CONFIG");
  });

  it("does not modify its arguments", () => {
    const kwargs = { mysql_query: "SELECT legacy", main: "SELECT main" };
    const args = ["SELECT one"];
    extractQueries(args, kwargs);
    expect(kwargs).toEqual({ mysql_query: "SELECT legacy", main: "SELECT main" });
    expect(args).toEqual(["SELECT one"]);
  });

  it("keeps a __proto__ keyword as an ordinary root name", () => {
    const kwargs = JSON.parse('{"__proto__": "SELECT 1"}');
    expect(extractQueries([], kwargs)[0]?.root).toBe("__proto__");
  });
});

describe("parseWithLists", () => {
  it("parses comma-separated numbers with spaces, signs and underscores like Python's int()", () => {
    expect(parseWithLists("1,3")).toEqual([1, 3]);
    expect(parseWithLists(" 1, 2")).toEqual([1, 2]);
    expect(parseWithLists("+4,-1,1_0")).toEqual([4, -1, 10]);
  });

  it("rejects malformed text", () => {
    for (const bad of ["1,", ",1", "a", "1.5", "1 2", "1__0", "_1"]) {
      expect(
        codeOf(() => parseWithLists(bad)),
        bad,
      ).toBe("SQL_CONFIG");
    }
  });
});

describe("splitExtPillarConfig", () => {
  it("calls with keywords for a mapping, positionals for a list, one positional otherwise", () => {
    expect(splitExtPillarConfig({ a: "q" })).toEqual({ args: [], kwargs: { a: "q" } });
    expect(splitExtPillarConfig(["q"])).toEqual({ args: ["q"], kwargs: {} });
    expect(splitExtPillarConfig("q")).toEqual({ args: ["q"], kwargs: {} });
    expect(extractQueriesFromConfig("SELECT 1")).toEqual([plain("SELECT 1")]);
  });
});

describe("helpers", () => {
  it("sorts by code point, not UTF-16 unit", () => {
    const keys = ["😀", "\uff5e", "a", "Z", "_"];
    expect(keys.slice().sort(compareCodePoints)).toEqual(["Z", "_", "a", "\uff5e", "😀"]);
  });

  it("follows Python's truth rules", () => {
    expect([0, "", [], {}, null, undefined, false].map(pyTruthy)).toEqual(Array(7).fill(false));
    expect([1, "0", [0], { a: 1 }, true, -1, Number.NaN].map(pyTruthy)).toEqual(Array(7).fill(true));
  });
});

describe("extractSaltQueries", () => {
  const salt = (query: unknown, extra: Record<string, unknown> = {}) => ({
    query,
    depth: 0,
    as_list: false,
    as_json: false,
    with_lists: null,
    ignore_null: false,
    ...extra,
  });

  it("lays queries out exactly as Salt's extract_queries", () => {
    expect(
      extractSaltQueries(
        [
          "SELECT blah1",
          ["SELECT blah2", 2],
          { query: "SELECT blah3", as_list: true },
          { query: "SELECT blah9", with_lists: "1,2" },
          { query: "SELECT blah10", with_lists: [1, "3"], extra: "kept" },
          "",
        ],
        { 1: "SELECT blah1", 2: ["SELECT blah2", 2], 3: { query: "SELECT blah3", as_list: true }, 4: "" },
      ),
    ).toEqual([
      [null, salt("SELECT blah1")],
      [null, salt("SELECT blah2", { depth: 2 })],
      [null, salt("SELECT blah3", { as_list: true })],
      [null, salt("SELECT blah9", { with_lists: [1, 2] })],
      [null, salt("SELECT blah10", { with_lists: [1, "3"], extra: "kept" })],
      ["1", salt("SELECT blah1")],
      ["2", salt("SELECT blah2", { depth: 2 })],
      ["3", salt("SELECT blah3", { as_list: true })],
    ]);
  });

  it("puts the legacy mysql_query first", () => {
    expect(extractSaltQueries(["SELECT b"], { mysql_query: "SELECT a" }).map(([, d]) => d.query)).toEqual([
      "SELECT a",
      "SELECT b",
    ]);
  });
});

describe("legacyMysqlQuery", () => {
  const kwargs = { zeta: "SELECT z", mysql_query: "SELECT legacy", alpha: "SELECT a", Main: "SELECT m" };

  it("runs mysql_query first, at the top level, by default (the seed's rule)", () => {
    expect(extractQueries(["SELECT p"], kwargs).map((q) => [q.root, q.query])).toEqual([
      [undefined, "SELECT legacy"],
      [undefined, "SELECT p"],
      ["Main", "SELECT m"],
      ["alpha", "SELECT a"],
      ["zeta", "SELECT z"],
    ]);
  });

  it("treats mysql_query as an ordinary named query sorted among the others when off (current Salt)", () => {
    const options = { legacyMysqlQuery: false };
    expect(extractQueries(["SELECT p"], kwargs, options).map((q) => [q.root, q.query])).toEqual([
      [undefined, "SELECT p"],
      ["Main", "SELECT m"],
      ["alpha", "SELECT a"],
      ["mysql_query", "SELECT legacy"],
      ["zeta", "SELECT z"],
    ]);
    expect(extractSaltQueries([], { mysql_query: "SELECT q" }, options)).toEqual([
      ["mysql_query", expect.objectContaining({ query: "SELECT q" })],
    ]);
    expect(extractQueriesFromConfig({ mysql_query: "SELECT q" }, options)[0]?.root).toBe("mysql_query");
  });
});

describe("reserved query names", () => {
  it("refuses a query named pillar or minion_id, whatever its value, as Salt's TypeError does", () => {
    for (const name of ["pillar", "minion_id"]) {
      for (const value of ["SELECT 1", "", { query: "SELECT 1" }, null]) {
        const error = catchMergeError(() => extractQueries([], { [name]: value, other: "SELECT 2" }));
        expect(error.code).toBe("SQL_RESERVED_NAME");
        expect(error.message).toContain(JSON.stringify(name));
      }
      expect(catchMergeError(() => extractSaltQueries([], { [name]: "x" })).code).toBe("SQL_RESERVED_NAME");
      expect(
        catchMergeError(() => extractQueries([], { [name]: "x" }, { legacyMysqlQuery: false })).code,
      ).toBe("SQL_RESERVED_NAME");
    }
  });

  it("lets those names through as positional entries' data and as other spellings", () => {
    expect(extractQueries(["SELECT pillar FROM t"], { Pillar: "SELECT 1", minion: "SELECT 2" })).toHaveLength(
      3,
    );
  });
});

describe("as_json options", () => {
  it("reads as_json from a query mapping with Python truthiness", () => {
    const specs = extractQueries([
      { query: "SELECT j", as_json: "yes" },
      { query: "SELECT k", as_json: 0 },
    ]);
    expect(specs.map((s) => s.asJson)).toEqual([true, false]);
  });

  it("takes the entry's own as_json keyword as every query's default, which a mapping overrides", () => {
    const specs = extractQueries([], {
      as_json: true,
      a: "SELECT a",
      b: ["SELECT b", 0],
      c: { query: "SELECT c", as_json: false },
    });
    expect(specs.map((s) => [s.root, s.asJson])).toEqual([
      ["a", true],
      ["b", true],
      ["c", false],
    ]);
    expect(extractSaltQueries([], { as_json: true, a: "SELECT a" })).toEqual([
      ["a", expect.objectContaining({ as_json: true })],
    ]);
  });
});
