import { describe, expect, it } from "vitest";
import { columnFixes, fixRow, isPythonDate } from "./columns.js";

// mysql2's column type numbers, as the server reports them.
const DATE = 10;
const DATETIME = 12;
const TIMESTAMP = 7;
const TIME = 11;

describe("dates MySQLdb cannot turn into Python dates", () => {
  it("knows which dates Python's datetime holds", () => {
    expect(isPythonDate("2024-02-29")).toBe(true);
    expect(isPythonDate("0001-01-01 00:00:00")).toBe(true);
    expect(isPythonDate("9999-12-31 23:59:59.999999")).toBe(true);
    expect(isPythonDate("0000-00-00")).toBe(false);
    expect(isPythonDate("0000-01-01 00:00:00.500")).toBe(false);
    expect(isPythonDate("2024-00-10 10:00:00")).toBe(false);
    expect(isPythonDate("2024-01-00")).toBe(false);
    expect(isPythonDate("2023-02-29")).toBe(false);
    expect(isPythonDate("1900-02-29")).toBe(false);
    expect(isPythonDate("2000-02-29")).toBe(true);
    expect(isPythonDate("2024-04-31")).toBe(false);
  });

  it("gives null for such DATE, DATETIME and TIMESTAMP values and leaves TIME alone", () => {
    const fixes = columnFixes([
      { name: "d", columnType: DATE },
      { name: "dt", columnType: DATETIME },
      { name: "ts", columnType: TIMESTAMP },
      { name: "t", columnType: TIME },
    ]);
    expect(fixes).toBeDefined();
    expect(fixRow(["0000-00-00", "2024-00-10 10:00:00", "0000-00-00 00:00:00", "-00:00:01"], fixes!)).toEqual(
      [null, null, null, "-00:00:01"],
    );
    expect(fixRow(["2024-02-29", "0001-01-01 00:00:00", "2024-02-29 13:14:15", null], fixes!)).toEqual([
      "2024-02-29",
      "0001-01-01 00:00:00",
      "2024-02-29 13:14:15",
      null,
    ]);
  });
});
