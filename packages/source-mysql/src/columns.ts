/**
 * Column values as the driver is configured to deliver them (see `driverOptions` in pool.ts and the type table in
 * the README). Prepared statements use MySQL's binary protocol, which sends FLOAT as a raw single-precision number
 * (1.1 arrives as 1.100000023841858); Salt's MySQLdb reads the server's text form instead, which has 6 significant
 * digits. `fixRow` brings FLOAT columns to that text value so both give the same pillar.
 */

// mysql2's column type number for FLOAT (MYSQL_TYPE_FLOAT).
const MYSQL_TYPE_FLOAT = 4;

export interface FieldLike {
  readonly name: string;
  readonly columnType?: number;
}

/** Indexes of the columns that need `fixRow`, or undefined when none do (the common case costs nothing). */
export function floatColumns(fields: readonly FieldLike[]): number[] | undefined {
  const out: number[] = [];
  fields.forEach((field, index) => {
    if (field.columnType === MYSQL_TYPE_FLOAT) out.push(index);
  });
  return out.length === 0 ? undefined : out;
}

/** The value the server's text protocol gives for a FLOAT: 6 significant digits. */
export function floatAsText(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(6)) : value;
}

export function fixRow(row: unknown[], floats: readonly number[]): unknown[] {
  for (const index of floats) {
    const value = row[index];
    if (typeof value === "number") row[index] = floatAsText(value);
  }
  return row;
}
