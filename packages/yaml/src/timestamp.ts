import { PY_KEY } from "@merge/core";
/**
 * A YAML 1.1 timestamp as PyYAML builds it: a `datetime.date` (date only) or a `datetime.datetime`, naive (no zone)
 * or with a fixed UTC offset. It is a `Date` (so callers can use it as one) that also remembers what a `Date` cannot
 * hold, so the dumper writes it back exactly as PyYAML would (`2001-12-14`, `2001-12-14 21:59:43.100000-05:00`).
 * A naive datetime is placed on the time line as if it were UTC.
 */
export class YamlTimestamp extends Date {
  /** `date` for `2001-12-14`, `datetime` for anything with a time. */
  readonly kind: "date" | "datetime";
  /** Offset from UTC in minutes, or null for a naive datetime (and for a date). */
  readonly offsetMinutes: number | null;
  /** Microseconds within the second (0..999999); a `Date` keeps only milliseconds. */
  readonly microsecond: number;

  constructor(epochMs: number, kind: "date" | "datetime", offsetMinutes: number | null, microsecond: number) {
    super(epochMs);
    this.kind = kind;
    this.offsetMinutes = offsetMinutes;
    this.microsecond = microsecond;
  }

  /**
   * Its identity as a dict key (`@merge/core`'s `PY_KEY` protocol), equal where Python's `==` is: a date never equals
   * a datetime, a naive datetime never equals an aware one, aware ones are equal at the same instant.
   */
  [PY_KEY](): string {
    const seconds = Math.floor(this.getTime() / 1000);
    return `timestamp:${this.kind}:${this.offsetMinutes === null ? "naive" : "aware"}:${seconds}:${this.microsecond}`;
  }

  /** Python's `isoformat()` (with `sep` between date and time, `T` by default). */
  toPythonIsoformat(sep = "T"): string {
    const offset = this.offsetMinutes ?? 0;
    const local = new Date(this.getTime() + offset * 60_000);
    const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}`;
    if (this.kind === "date") return date;
    let out = `${date}${sep}${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}`;
    if (this.microsecond !== 0) out += `.${pad(this.microsecond, 6)}`;
    if (this.offsetMinutes !== null) out += formatOffset(this.offsetMinutes);
    return out;
  }
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

const TIMESTAMP_PARTS =
  /^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$/;

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * PyYAML's `construct_yaml_timestamp`. Returns a string describing the problem when Python's `datetime` would
 * refuse the value (month 13, February 30, hour 24, an offset of a day or more).
 */
export function parseTimestamp(text: string): YamlTimestamp | string {
  const m = TIMESTAMP_PARTS.exec(text);
  if (m === null) return `'${text}' is not a timestamp`;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1) return "year is out of range";
  if (month < 1 || month > 12) return "month must be in 1..12";
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 && !leap ? 28 : DAYS[month - 1]!;
  if (day < 1 || day > maxDay) return "day is out of range for month";
  const base = new Date(0);
  base.setUTCFullYear(year, month - 1, day);
  const midnight = base.getTime();
  if (m[4] === undefined) return new YamlTimestamp(midnight, "date", null, 0);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (hour > 23) return "hour must be in 0..23";
  if (minute > 59) return "minute must be in 0..59";
  if (second > 59) return "second must be in 0..59";
  const micro = Number(((m[7] ?? "").slice(0, 6) || "0").padEnd(6, "0"));
  let offset: number | null = null;
  if (m[9] !== undefined) {
    offset = Number(m[10]) * 60 + Number(m[11] ?? 0);
    if (m[9] === "-") offset = -offset;
    if (Math.abs(offset) >= 24 * 60) return "offset must be strictly between -24 and 24 hours";
  } else if (m[8] === "Z") {
    offset = 0;
  }
  const epoch =
    midnight + ((hour * 60 + minute - (offset ?? 0)) * 60 + second) * 1000 + Math.floor(micro / 1000);
  return new YamlTimestamp(epoch, "datetime", offset, micro);
}
