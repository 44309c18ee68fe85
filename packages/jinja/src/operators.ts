// Python's operators on template values (compiled `+ - * / // % ** in == <` ...): numbers, strings (with Jinja's
// Markup rules for `+`), lists and tuples, and Python's error messages for the rest.
import { hasOwn } from "@merge/core";
import { TemplateProblem, typeError } from "./errors.js";
import { ownKey, seen } from "./opaque.js";
import { pyPercent } from "./pyformat.js";
import { isDict, isSafeString, markSafe, PyTuple, pyEq, pyStr, pyTypeName } from "./pyvalues.js";

export function textOf(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (isSafeString(v)) return v.val;
  return undefined;
}

function isNum(v: unknown): v is number | boolean {
  return typeof v === "number" || typeof v === "boolean";
}

function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" })[c] as string,
  );
}

function operandError(op: string, a: unknown, b: unknown): TemplateProblem {
  if (a === undefined || b === undefined)
    return new TemplateProblem(`an undefined value was used with '${op}'`);
  return typeError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

export function pyAdd(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return Number(a) + Number(b);
  const sa = textOf(a);
  const sb = textOf(b);
  if (sa !== undefined && sb !== undefined) {
    // Markup + str escapes the plain side (Jinja's autoescape rules apply even with autoescape off).
    const safeA = isSafeString(a);
    const safeB = isSafeString(b);
    if (safeA || safeB) return markSafe((safeA ? sa : htmlEscape(sa)) + (safeB ? sb : htmlEscape(sb)));
    return sa + sb;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const ta = a instanceof PyTuple;
    if (ta !== b instanceof PyTuple) {
      throw typeError(
        `can only concatenate ${ta ? "tuple" : "list"} (not "${pyTypeName(b)}") to ${ta ? "tuple" : "list"}`,
      );
    }
    return ta ? PyTuple.of_([...a, ...b]) : a.concat(b);
  }
  if (sa !== undefined && b !== undefined)
    throw typeError(`can only concatenate str (not "${pyTypeName(b)}") to str`);
  if (Array.isArray(a) && b !== undefined)
    throw typeError(`can only concatenate list (not "${pyTypeName(b)}") to list`);
  throw operandError("+", a, b);
}

export function pySub(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return Number(a) - Number(b);
  throw operandError("-", a, b);
}

function repeat(seq: unknown, n: number): unknown {
  const count = Math.max(0, Math.trunc(n));
  const s = textOf(seq);
  if (s !== undefined) return s.repeat(count);
  const arr = seq as unknown[];
  const out: unknown[] =
    arr instanceof PyTuple ? new PyTuple(count * arr.length) : new Array(count * arr.length);
  for (let i = 0, k = 0; i < count; i++) for (let j = 0; j < arr.length; j++) out[k++] = arr[j];
  return out;
}

export function pyMul(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return Number(a) * Number(b);
  if ((textOf(a) !== undefined || Array.isArray(a)) && isNum(b) && Number.isInteger(Number(b)))
    return repeat(a, Number(b));
  if ((textOf(b) !== undefined || Array.isArray(b)) && isNum(a) && Number.isInteger(Number(a)))
    return repeat(b, Number(a));
  throw operandError("*", a, b);
}

export function pyDiv(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) {
    if (Number(b) === 0) throw new TemplateProblem("ZeroDivisionError: division by zero");
    return Number(a) / Number(b);
  }
  throw operandError("/", a, b);
}

export function pyFloorDiv(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) {
    if (Number(b) === 0) throw new TemplateProblem("ZeroDivisionError: integer division or modulo by zero");
    return Math.floor(Number(a) / Number(b));
  }
  throw operandError("//", a, b);
}

export function pyMod(a: unknown, b: unknown): unknown {
  const s = textOf(a);
  if (s !== undefined) return pyPercent(s, b);
  if (isNum(a) && isNum(b)) {
    const x = Number(a);
    const y = Number(b);
    if (y === 0) throw new TemplateProblem("ZeroDivisionError: integer division or modulo by zero");
    const r = x % y;
    return r !== 0 && r < 0 !== y < 0 ? r + y : r;
  }
  throw operandError("%", a, b);
}

export function pyPow(a: unknown, b: unknown): unknown {
  if (isNum(a) && isNum(b)) return Number(a) ** Number(b);
  throw operandError("**", a, b);
}

export function pyIn(item: unknown, container: unknown): boolean {
  const s = textOf(container);
  if (s !== undefined) {
    const t = textOf(item);
    if (t === undefined)
      throw typeError(`'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    return seen(s).includes(seen(t));
  }
  if (Array.isArray(container)) {
    for (const x of container) if (pyEq(x, item)) return true;
    return false;
  }
  if (isDict(container)) {
    if (typeof item === "string") return ownKey(container, item) !== undefined;
    if (item === null || item === undefined || typeof item === "object") return false;
    return hasOwn(container, pyStr(item));
  }
  if (container === undefined) return false;
  if (container instanceof Map || container instanceof Set) return container.has(item);
  throw typeError(`argument of type '${pyTypeName(container)}' is not iterable`);
}

function orderCompare(a: unknown, b: unknown, op: string): number {
  if (isNum(a) && isNum(b)) return Number(a) - Number(b);
  const sa = textOf(a);
  const sb = textOf(b);
  if (sa !== undefined && sb !== undefined) {
    const [x, y] = [seen(sa), seen(sb)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEq(a[i], b[i])) return orderCompare(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  throw typeError(`'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

export function pyCompare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return pyEq(a, b);
    case "!=":
      return !pyEq(a, b);
    case "===":
      return a === b;
    case "!==":
      return a !== b;
    case "<":
      return orderCompare(a, b, op) < 0;
    case ">":
      return orderCompare(a, b, op) > 0;
    case "<=":
      return orderCompare(a, b, op) <= 0;
    default:
      return orderCompare(a, b, op) >= 0;
  }
}
