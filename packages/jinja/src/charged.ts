// The operators whose cost depends on their operands (`*` repeats or multiplies big ints, `**` makes big ints, `+`
// and `~` join, `%` pads, `in` scans a list), charged to the render's account before they run; compiled templates
// call these instead of operators.ts. An int is charged by its decimal digits (what printing it makes).
import { type RenderAccount, sizeOf } from "./budget.js";
import { intDigits, intValue, powDigits } from "./numbers.js";
import { pyAdd, pyIn, pyMod, pyMul, pyPow, textOf } from "./operators.js";
import { pyPercent } from "./pyformat.js";
import { pyStr } from "./pyvalues.js";

function lengthOf(v: unknown): number | undefined {
  const s = textOf(v);
  if (s !== undefined) return s.length;
  return Array.isArray(v) ? v.length : undefined;
}

function count(v: unknown): number | undefined {
  const n = intValue(v);
  return n === undefined ? undefined : Number(n);
}

/** `a * b`: a repeated string or list is charged its length, a product of big ints its digits. */
export function chargedMul(a: unknown, b: unknown, account: RenderAccount): unknown {
  const la = lengthOf(a);
  const lb = lengthOf(b);
  const n = la !== undefined ? count(b) : lb !== undefined ? count(a) : undefined;
  if (n !== undefined && n > 0) account.build((la ?? lb ?? 0) * n, "a repetition");
  if (typeof a === "bigint" || typeof b === "bigint") {
    const x = intValue(a);
    const y = intValue(b);
    if (x !== undefined && y !== undefined) account.build(intDigits(x) + intDigits(y), "a multiplication");
  }
  return pyMul(a, b);
}

/** `a ** b`: an int power is charged the digits it will have before it is computed. */
export function chargedPow(a: unknown, b: unknown, account: RenderAccount): unknown {
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined && y > 1 && (x > 1 || x < -1))
    account.build(powDigits(x, y), "a power");
  return pyPow(a, b);
}

/** `a + b`: a new list is charged its length, a string what it adds to the longer side. */
export function chargedAdd(a: unknown, b: unknown, account: RenderAccount): unknown {
  if (Array.isArray(a) && Array.isArray(b)) account.build(a.length + b.length, "a concatenation");
  else {
    const sa = textOf(a);
    const sb = textOf(b);
    if (sa !== undefined && sb !== undefined)
      account.grow(sa.length + sb.length, Math.min(sa.length, sb.length), "a concatenation");
  }
  return pyAdd(a, b);
}

/** `a ~ b`. */
export function chargedConcat(a: unknown, b: unknown, account: RenderAccount): string {
  const sa = pyStr(a);
  const sb = pyStr(b);
  account.grow(sa.length + sb.length, Math.min(sa.length, sb.length), "a concatenation");
  return sa + sb;
}

/** `a % b`: string formatting checks its widths and precisions, and the text it makes is charged. */
export function chargedMod(a: unknown, b: unknown, account: RenderAccount): unknown {
  const s = textOf(a);
  if (s === undefined) return pyMod(a, b);
  const out = pyPercent(s, b, account);
  account.build(sizeOf(out), "string formatting");
  return out;
}

/** `item in container`: scanning a list is a step per item. */
export function chargedIn(item: unknown, container: unknown, account: RenderAccount): boolean {
  if (Array.isArray(container)) account.step(container.length);
  return pyIn(item, container);
}
