import { pyFloat } from "@merge/core";
import { binaryFraction } from "./binary-fraction.js";

/**
 * Column values as Salt's MySQLdb gives them to Python, in `@merge/core`'s exact model. The driver (see
 * `driverOptions` in pool.ts and the type table in the README) delivers every number as a JavaScript number, or as
 * decimal text where a number would lose digits; `fixRow` turns them into the Python types:
 * - FLOAT and DOUBLE are floats: a whole value becomes a `PyFloat` (`1.0` prints `1.0`, not `1`). Prepared
 *   statements use MySQL's binary protocol, which sends FLOAT as a raw single-precision number (1.1 arrives as
 *   1.100000023841858); MySQLdb reads the server's text form, with 6 significant digits, so FLOAT is rounded so.
 *   A FLOAT or DOUBLE column (or expression: `PI()`, a `FLOAT(10,2)` times 1) whose metadata fixes its decimals
 *   (fewer than 31) is written by the text protocol with exactly that many decimals (`3.141593`, `12345.67`), so
 *   it is rounded to them instead, as the server rounds (to nearest, an exact tie to even).
 * - BIGINT beyond 2^53 arrives as decimal text and becomes an exact `bigint` (a Python int).
 * - DATE, DATETIME and TIMESTAMP stay the server's text, except a date Python's `datetime` cannot hold (the zero date
 *   `0000-00-00`, a zero month or day, year 0): MySQLdb gives None for those, so they become `null`.
 * DECIMAL stays decimal text (MySQLdb's `Decimal` has no JavaScript equivalent; its `str()` is that text).
 */

// mysql2's column type numbers (MYSQL_TYPE_*); the tests name columns with them too.
export const MYSQL_TYPE_FLOAT = 4;
export const MYSQL_TYPE_DOUBLE = 5;
export const MYSQL_TYPE_TIMESTAMP = 7;
const MYSQL_TYPE_LONGLONG = 8;
export const MYSQL_TYPE_DATE = 10;
export const MYSQL_TYPE_DATETIME = 12;
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
  /** Digits after the point the server writes; 31 (and up) means "not fixed". */
  readonly decimals?: number;
}

// Below this, a FLOAT/DOUBLE column's decimals are fixed (the server's NOT_FIXED_DEC is 31).
const NOT_FIXED_DEC = 31;

/** How one column's values are fixed: its type, and for FLOAT/DOUBLE the fixed decimals if it has them. */
export interface ColumnFix {
  readonly type: number;
  readonly decimals?: number;
}

/** How each column's values are fixed: by index, or undefined when no column needs it (costs nothing then). */
export type ColumnFixes = readonly (ColumnFix | undefined)[];

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
      const decimals = field.decimals;
      const fixed =
        (type === MYSQL_TYPE_FLOAT || type === MYSQL_TYPE_DOUBLE) &&
        decimals !== undefined &&
        decimals >= 0 &&
        decimals < NOT_FIXED_DEC;
      return fixed ? { type, decimals } : { type };
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

/**
 * The value the server's text protocol gives for a float column with fixed decimals: the number written with exactly
 * `decimals` digits after the point (rounded to nearest, an exact tie to even, as the server's dtoa does), read back.
 */
export function fixedDecimalsAsText(value: number, decimals: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  // |value| = m / 2^shift exactly; then round m * 10^decimals / 2^shift.
  const { numerator: m, shift } = binaryFraction(value);
  const numerator = m * 10n ** BigInt(decimals);
  const denominator = 2n ** shift;
  let digits = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && digits % 2n === 1n)) digits++;
  const text = digits.toString().padStart(decimals + 1, "0");
  const point = text.length - decimals;
  const written = decimals === 0 ? text : `${text.slice(0, point)}.${text.slice(point)}`;
  return Number(value < 0 ? `-${written}` : written);
}

export function fixRow(row: unknown[], fixes: ColumnFixes): unknown[] {
  for (let index = 0; index < fixes.length; index++) {
    const fix = fixes[index];
    if (fix === undefined) continue;
    const { type, decimals } = fix;
    const value = row[index];
    if (type === MYSQL_TYPE_LONGLONG) {
      if (typeof value === "string") row[index] = BigInt(value);
    } else if (DATE_TYPES.has(type)) {
      if (typeof value === "string" && !isPythonDate(value)) row[index] = null;
    } else if (typeof value === "number") {
      if (decimals !== undefined) row[index] = pyFloat(fixedDecimalsAsText(value, decimals));
      else row[index] = pyFloat(type === MYSQL_TYPE_FLOAT ? floatAsText(value) : value);
    }
  }
  return row;
}
