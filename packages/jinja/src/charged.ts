// The operators whose cost depends on their operands (`*` repeats, `+` and `~` join, `%` pads, `in` scans a
// list), charged to the render's account before they run; compiled templates call these instead of operators.ts.
import { type RenderAccount, sizeOf } from "./budget.js";
import { pyAdd, pyIn, pyMod, pyMul, textOf } from "./operators.js";
import { pyPercent } from "./pyformat.js";
import { pyStr } from "./pyvalues.js";

function lengthOf(v: unknown): number | undefined {
  const s = textOf(v);
  if (s !== undefined) return s.length;
  return Array.isArray(v) ? v.length : undefined;
}

function count(v: unknown): number | undefined {
  if (typeof v === "boolean") return v ? 1 : 0;
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

/** `a * b`: a repeated string or list is charged its length. */
export function chargedMul(a: unknown, b: unknown, account: RenderAccount): unknown {
  const la = lengthOf(a);
  const lb = lengthOf(b);
  const n = la !== undefined ? count(b) : lb !== undefined ? count(a) : undefined;
  if (n !== undefined && n > 0) account.build((la ?? lb ?? 0) * n, "a repetition");
  return pyMul(a, b);
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
