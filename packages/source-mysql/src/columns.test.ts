import { describe, expect, it } from "vitest";
import {
  columnFixes,
  fixedDecimalsAsText,
  fixRow,
  isPythonDate,
  MYSQL_TYPE_DATE as DATE,
  MYSQL_TYPE_DATETIME as DATETIME,
  MYSQL_TYPE_DOUBLE as DOUBLE,
  MYSQL_TYPE_FLOAT as FLOAT,
  MYSQL_TYPE_TIMESTAMP as TIMESTAMP,
} from "./columns.js";

// mysql2's number for TIME columns, which need no fix.
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

describe("floats whose column fixes the decimals", () => {
  // PI() as the text protocol writes it (6 decimals), deliberately not Math.PI.
  const PI_AS_TEXT = Number("3.141593");

  it("reads them as the text protocol writes them: exactly that many decimals, an exact tie to even", () => {
    expect(fixedDecimalsAsText(Math.PI, 6)).toBe(PI_AS_TEXT);
    expect(fixedDecimalsAsText(Math.fround(12345.67), 2)).toBe(12345.67);
    expect(fixedDecimalsAsText(Math.fround(99999.99), 2)).toBe(99999.99);
    expect(fixedDecimalsAsText(0.125, 2)).toBe(0.12);
    expect(fixedDecimalsAsText(0.375, 2)).toBe(0.38);
    expect(fixedDecimalsAsText(-0.125, 2)).toBe(-0.12);
    expect(fixedDecimalsAsText(2.5, 0)).toBe(2);
    expect(fixedDecimalsAsText(3.5, 0)).toBe(4);
    expect(fixedDecimalsAsText(2.675, 2)).toBe(2.67); // 2.675 is 2.67499999... as a double
    expect(fixedDecimalsAsText(1e300, 2)).toBe(1e300);
    expect(Object.is(fixedDecimalsAsText(-0, 2), -0)).toBe(true);
  });

  it("applies them per column, and 6 significant digits to a FLOAT without fixed decimals", () => {
    const fixes = columnFixes([
      { name: "pi", columnType: DOUBLE, decimals: 6 },
      { name: "f2", columnType: FLOAT, decimals: 2 },
      { name: "f", columnType: FLOAT, decimals: 31 },
      { name: "d", columnType: DOUBLE, decimals: 31 },
    ]);
    const row = fixRow([Math.PI, Math.fround(12345.67), Math.fround(12345.67), Math.PI], fixes!);
    expect(row.map(Number)).toEqual([PI_AS_TEXT, 12345.67, 12345.7, Math.PI]);
  });
});
