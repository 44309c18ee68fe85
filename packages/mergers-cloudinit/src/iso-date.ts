// jsonschema's `date` format: ASCII text that Python 3.11's `datetime.date.fromisoformat` accepts. That is
// `YYYY-MM-DD` or `YYYYMMDD`, or an ISO week date `YYYY-Www[-D]` / `YYYYWww[D]` (dashes used throughout or not at
// all), for a real day of the years 1 to 9999.
const CALENDAR = /^(\d{4})(?:-(\d{2})-(\d{2})|(\d{2})(\d{2}))$/;
const WEEK = /^(\d{4})(?:-W(\d{2})(?:-(\d))?|W(\d{2})(\d)?)$/;

export function isIsoDate(text: string): boolean {
  const calendar = CALENDAR.exec(text);
  if (calendar !== null) {
    const year = Number(calendar[1]);
    const month = Number(calendar[2] ?? calendar[4]);
    const day = Number(calendar[3] ?? calendar[5]);
    return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
  }
  const week = WEEK.exec(text);
  if (week === null) return false;
  const year = Number(week[1]);
  const number = Number(week[2] ?? week[4]);
  const day = Number(week[3] ?? week[5] ?? "1");
  return year >= 1 && number >= 1 && number <= weeksIn(year) && day >= 1 && day <= 7;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** 53 when the year starts on a Thursday, or on a Wednesday in a leap year; else 52. */
function weeksIn(year: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, 0, 1);
  const weekday = date.getUTCDay(); // 0 is Sunday
  return weekday === 4 || (weekday === 3 && isLeap(year)) ? 53 : 52;
}
