import { describe, expect, it } from "vitest";
import { catchMergeError } from "../../../test-kit/errors.js";
import { createMysqlPillar, mysqlOptionsFromMaster } from "./pillar.js";

// createMysqlPillar checks and normalises its configuration without connecting: `.queries` shows the result.
const rootsOf = (input: Parameters<typeof createMysqlPillar>[0]) =>
  createMysqlPillar(input).queries.map((entry) => entry.map((query) => query.root ?? null));

describe("legacyMysqlQuery in createMysqlPillar", () => {
  const queries = { mysql_query: "SELECT 1", b: "SELECT 2", a: "SELECT 3" };

  it("defaults to the legacy rule", () => {
    expect(rootsOf({ queries })).toEqual([[null, "a", "b"]]);
  });

  it("follows the option when it is given", () => {
    expect(rootsOf({ queries, legacyMysqlQuery: false })).toEqual([["a", "b", "mysql_query"]]);
    expect(rootsOf({ queries, legacyMysqlQuery: true })).toEqual([[null, "a", "b"]]);
    expect(catchMergeError(() => createMysqlPillar({ queries, legacyMysqlQuery: "no" as never })).code).toBe(
      "SQL_CONFIG",
    );
  });

  it("reads merge: {legacy_mysql_query} from a whole master configuration", () => {
    const master = { mysql: { host: "127.0.0.1" }, ext_pillar: [{ mysql: queries }] };
    expect(rootsOf(master)).toEqual([[null, "a", "b"]]);
    expect(rootsOf({ ...master, merge: { legacy_mysql_query: false } })).toEqual([["a", "b", "mysql_query"]]);
    expect(rootsOf({ ...master, merge: { legacy_mysql_query: true } })).toEqual([[null, "a", "b"]]);
  });

  it("reports a malformed merge: mapping with SQL_CONFIG", () => {
    expect(mysqlOptionsFromMaster({})).toEqual({});
    expect(mysqlOptionsFromMaster({ merge: null })).toEqual({});
    expect(mysqlOptionsFromMaster({ merge: { other: 1 } })).toEqual({});
    expect(mysqlOptionsFromMaster({ merge: { legacy_mysql_query: false } })).toEqual({
      legacyMysqlQuery: false,
    });
    for (const merge of ["yes", [1], { legacy_mysql_query: "false" }, { legacy_mysql_query: 0 }]) {
      const error = catchMergeError(() => mysqlOptionsFromMaster({ merge }));
      expect(error.code).toBe("SQL_CONFIG");
      expect(error.message).toMatch(/^merge/);
    }
  });
});

describe("configuration Salt's ext_pillar cannot take", () => {
  it("refuses a query named pillar or minion_id before connecting", () => {
    expect(catchMergeError(() => createMysqlPillar({ queries: { pillar: "SELECT 1" } })).code).toBe(
      "SQL_RESERVED_NAME",
    );
    const master = { ext_pillar: [{ mysql: "SELECT 1" }, { mysql: { minion_id: "SELECT 2" } }] };
    expect(catchMergeError(() => createMysqlPillar(master)).code).toBe("SQL_RESERVED_NAME");
  });
});
