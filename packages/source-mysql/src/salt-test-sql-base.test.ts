// Every expectation of Salt's tests/pytests/unit/pillar/test_sql_base.py (4 test functions, 7 cases with the
// as_list parametrisation), restated here and named after the Salt test each comes from.
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { expectSalt, SaltExtPillar } from "./test-salt.js";

/** Salt's `FakeExtPillar` set up for one JSON column: as_list as given, as_json on, with_lists None, top level. */
function jsonPillar(asList: boolean): SaltExtPillar {
  const data = new SaltExtPillar();
  data.as_list = asList;
  data.as_json = true;
  data.with_lists = null;
  data.enter_root(null);
  data.process_fields(["json_data"], 0);
  return data;
}

const ROWS = [
  { a: [1] },
  { b: [2, 3] },
  { a: [4] },
  { c: { d: [4, 5], e: 6 } },
  { f: [{ g: 7, h: "test" }], c: { g: 8 } },
];

const expected = (asList: boolean) => ({
  a: asList ? [1, 4] : [4],
  b: [2, 3],
  c: { d: [4, 5], e: 6, g: 8 },
  f: [{ g: 7, h: "test" }],
});

describe("Salt test_sql_base.py", () => {
  describe.each([true, false])("as_list=%s", (asList) => {
    it("test_process_results_as_json", () => {
      const data = jsonPillar(asList);
      const rows = structuredClone(ROWS);
      data.process_results(rows.map((row) => [row]));
      expectSalt(data.exact, expected(asList));
      expect(rows).toEqual(ROWS); // our addition: the decoded rows given are not changed
    });

    it("test_process_results_as_json_string_rows", () => {
      const data = jsonPillar(asList);
      data.process_results(ROWS.map((row) => [JSON.stringify(row)]));
      expectSalt(data.exact, expected(asList));
    });

    it("test_process_results_as_json_bytes_rows", () => {
      const data = jsonPillar(asList);
      data.process_results(ROWS.map((row) => [Buffer.from(JSON.stringify(row), "utf8")]));
      expectSalt(data.exact, expected(asList));
    });
  });

  it("test_process_results_as_json_non_dict_string_row_raises", () => {
    const data = jsonPillar(false);
    let caught: unknown;
    try {
      data.process_results([["42"]]);
    } catch (error) {
      caught = error;
    }
    // Salt raises TypeError; here it is a coded error naming what the column held.
    expect(isMergeError(caught) && caught.code).toBe("SQL_SHAPE");
    expect(String((caught as Error).message)).toMatch(/JSON object.*42/);
  });
});
