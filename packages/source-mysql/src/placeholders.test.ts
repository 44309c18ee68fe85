import { describe, expect, it } from "vitest";
import { prepareSql } from "./placeholders.js";

describe("prepareSql", () => {
  it("turns Salt's %s into a bound parameter", () => {
    expect(prepareSql("SELECT pillar,value FROM pillars WHERE minion_id = %s")).toEqual({
      sql: "SELECT pillar,value FROM pillars WHERE minion_id = ?",
      parameters: 1,
    });
  });

  it("binds every %s and every ? to the minion id", () => {
    expect(prepareSql("SELECT a FROM t WHERE x = %s OR y = ? OR z = %s")).toEqual({
      sql: "SELECT a FROM t WHERE x = ? OR y = ? OR z = ?",
      parameters: 3,
    });
  });

  it("runs a query without placeholders with no parameters", () => {
    expect(prepareSql("SELECT 'k', 'v'")).toEqual({ sql: "SELECT 'k', 'v'", parameters: 0 });
  });

  it("reads %% as a literal percent, as Python's formatting does, also inside quotes", () => {
    expect(prepareSql("SELECT a,b FROM t WHERE %s LIKE CONCAT(p, '%%') AND n LIKE 'web%%'")).toEqual({
      sql: "SELECT a,b FROM t WHERE ? LIKE CONCAT(p, '%') AND n LIKE 'web%'",
      parameters: 1,
    });
  });

  it("leaves a lone percent alone", () => {
    expect(prepareSql("SELECT 5 % 2, %s").sql).toBe("SELECT 5 % 2, ?");
  });

  it("does not count placeholders inside literals, identifiers or comments", () => {
    const sql =
      "SELECT 'why?', \"%s\", `a?b`, 'it''s ?', 'a\\'?' -- what?\n, x # really?\n/* ?? */ FROM t WHERE m = %s";
    const out = prepareSql(sql);
    expect(out.parameters).toBe(1);
    expect(out.sql).toBe(
      "SELECT 'why?', \"%s\", `a?b`, 'it''s ?', 'a\\'?' -- what?\n, x # really?\n/* ?? */ FROM t WHERE m = ?",
    );
  });

  it("counts placeholders in executable comments, which the server runs", () => {
    expect(prepareSql("SELECT /*! %s */ 1").parameters).toBe(1);
  });

  it("treats -- without a following space as operators, as MySQL does", () => {
    expect(prepareSql("SELECT 1--%s").parameters).toBe(1);
  });
});
