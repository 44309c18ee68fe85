import { pyFloat } from "@merge/core";

/**
 * Column values as Salt's MySQLdb gives them to Python, in `@merge/core`'s exact model. The driver (see
 * `driverOptions` in pool.ts and the type table in the README) delivers every number as a JavaScript number, or as
 * decimal text where a number would lose digits; `fixRow` turns them into the Python types:
 * - FLOAT and DOUBLE are floats: a whole value becomes a `PyFloat` (`1.0` prints `1.0`, not `1`). Prepared
 *   statements use MySQL's binary protocol, which sends FLOAT as a raw single-precision number (1.1 arrives as
 *   1.100000023841858); MySQLdb reads the server's text form, with 6 significant digits, so FLOAT is rounded so.
 * - BIGINT beyond 2^53 arrives as decimal text and becomes an exact `bigint` (a Python int).
 * - DATE, DATETIME and TIMESTAMP stay the server's text, except a date Python's `datetime` cannot hold (the zero date
 *   `0000-00-00`, a zero month or day, year 0): MySQLdb gives None for those, so they become `null`.
 * DECIMAL stays decimal text (MySQLdb's `Decimal` has no JavaScript equivalent; its `str()` is that text).
 */

// mysql2's column type numbers (MYSQL_TYPE_*).
const MYSQL_TYPE_FLOAT = 4;
const MYSQL_TYPE_DOUBLE = 5;
const MYSQL_TYPE_TIMESTAMP = 7;
const MYSQL_TYPE_LONGLONG = 8;
const MYSQL_TYPE_DATE = 10;
const MYSQL_TYPE_DATETIME = 12;
const MYSQL_TYPE_NEWDATE = 14;

const DATE_TYPES: ReadonlySet<number> = new Set([
  MYSQL_TYPE_TIMESTAMP,
  MYSQL_TYPE_DATE,
  MYSQL_TYPE_DATETIME,
  MYSQL_TYPE_NEWDATE,
]);

export interface FieldLike {
  readonly name: string;
  readonly columnType?: number;
}

/** How each column's values are fixed: by index, or undefined when no column needs it (costs nothing then). */
export type ColumnFixes = readonly (number | undefined)[];

/** The columns that need `fixRow`, or undefined when none do (the common case). */
export function columnFixes(fields: readonly FieldLike[]): ColumnFixes | undefined {
  let any = false;
  const out = fields.map((field) => {
    const type = field.columnType;
    if (
      type === MYSQL_TYPE_FLOAT ||
      type === MYSQL_TYPE_DOUBLE ||
      type === MYSQL_TYPE_LONGLONG ||
      (type !== undefined && DATE_TYPES.has(type))
    ) {
      any = true;
      return type;
    }
    return undefined;
  });
  return any ? out : undefined;
}

// MYSQL_TYPE_DECIMAL (old servers) and MYSQL_TYPE_NEWDECIMAL: MySQLdb reads both as `decimal.Decimal`.
const MYSQL_TYPE_DECIMAL = 0;
const MYSQL_TYPE_NEWDECIMAL = 246;

/** Which columns are DECIMALs (their text becomes a `DecimalKey` where it is a key), or undefined when none are. */
export function decimalColumns(fields: readonly FieldLike[]): boolean[] | undefined {
  const out = fields.map(
    (field) => field.columnType === MYSQL_TYPE_NEWDECIMAL || field.columnType === MYSQL_TYPE_DECIMAL,
  );
  return out.includes(true) ? out : undefined;
}

/** The value the server's text protocol gives for a FLOAT: 6 significant digits. */
export function floatAsText(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(6)) : value;
}

/**
 * Whether Python's `datetime.date` can hold the date a DATE/DATETIME/TIMESTAMP text starts with (years 1 to 9999,
 * a real month and day of the proleptic Gregorian calendar). MySQLdb turns the others into None.
 */
export function isPythonDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

export function fixRow(row: unknown[], fixes: ColumnFixes): unknown[] {
  for (let index = 0; index < fixes.length; index++) {
    const type = fixes[index];
    if (type === undefined) continue;
    const value = row[index];
    if (type === MYSQL_TYPE_LONGLONG) {
      if (typeof value === "string") row[index] = BigInt(value);
    } else if (DATE_TYPES.has(type)) {
      if (typeof value === "string" && !isPythonDate(value)) row[index] = null;
    } else if (typeof value === "number") {
      row[index] = pyFloat(type === MYSQL_TYPE_FLOAT ? floatAsText(value) : value);
    }
  }
  return row;
}
