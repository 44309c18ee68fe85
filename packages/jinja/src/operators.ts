// Python's operators on template values (compiled `+ - * / // % ** in == <` ...): numbers as Python's int and float
// (numbers.ts), strings (with Jinja's Markup rules for `+`), lists and tuples, mappings by key, and Python's error
// messages for the rest.
import { compareCodePoints, isMapping } from "@merge/core";
import { type TemplateProblem, typeError, undefinedOperand } from "./errors.js";
import {
  intValue,
  isNumber,
  numAdd,
  numCompare,
  numDiv,
  numFloorDiv,
  numMod,
  numMul,
  numNeg,
  numPow,
  numSub,
} from "./numbers.js";
import { ownKey, seen } from "./opaque.js";
import { pyPercent } from "./pyformat.js";
import { isSetView, viewDifference } from "./view-sets.js";
import { htmlEscape, isListLike, isSafeString, markSafe, PyTuple, pyEq, pyTypeName } from "./pyvalues.js";

export function textOf(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (isSafeString(v)) return v.val;
  return undefined;
}

function operandError(op: string, a: unknown, b: unknown): TemplateProblem {
  if (a === undefined || b === undefined) return undefinedOperand(`'${op}'`);
  return typeError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

export function pyAdd(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numAdd(a, b);
  const sa = textOf(a);
  const sb = textOf(b);
  if (sa !== undefined && sb !== undefined) {
    // Markup + str escapes the plain side (Jinja's autoescape rules apply even with autoescape off).
    const safeA = isSafeString(a);
    const safeB = isSafeString(b);
    if (safeA || safeB) return markSafe((safeA ? sa : htmlEscape(sa)) + (safeB ? sb : htmlEscape(sb)));
    return sa + sb;
  }
  // A dict view (`d.keys()`) or a range is no list: it cannot be added to or repeated.
  const listA = isListLike(a);
  if (listA && isListLike(b)) {
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
  if (listA && b !== undefined) {
    const kind = a instanceof PyTuple ? "tuple" : "list";
    throw typeError(`can only concatenate ${kind} (not "${pyTypeName(b)}") to ${kind}`);
  }
  throw operandError("+", a, b);
}

export function pySub(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numSub(a, b);
  if ((isSetView(a) || isSetView(b)) && a !== undefined && b !== undefined) return viewDifference(a, b);
  throw operandError("-", a, b);
}

function repeat(seq: unknown, n: number | bigint): unknown {
  const count = Math.max(0, Number(n));
  const s = textOf(seq);
  if (s !== undefined) return s.repeat(count);
  const arr = seq as unknown[];
  const out: unknown[] =
    arr instanceof PyTuple ? new PyTuple(count * arr.length) : new Array(count * arr.length);
  for (let i = 0, k = 0; i < count; i++) for (let j = 0; j < arr.length; j++) out[k++] = arr[j];
  return out;
}

function isSequence(v: unknown): boolean {
  return textOf(v) !== undefined || isListLike(v);
}

export function pyMul(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numMul(a, b);
  if (isSequence(a) && isNumber(b)) return repeat(a, repeatCount(b));
  if (isSequence(b) && isNumber(a)) return repeat(b, repeatCount(a));
  // A sequence times anything else: Python names the other operand (the right one when both are sequences).
  if (a !== undefined && b !== undefined && (isSequence(a) || isSequence(b)))
    throw typeError(`can't multiply sequence by non-int of type '${pyTypeName(isSequence(a) ? b : a)}'`);
  throw operandError("*", a, b);
}

/** The count a sequence is repeated by: an int (`'x' * 2.0` is a TypeError). */
function repeatCount(n: unknown): number | bigint {
  const count = intValue(n);
  if (count === undefined) throw typeError(`can't multiply sequence by non-int of type '${pyTypeName(n)}'`);
  return count;
}

export function pyDiv(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numDiv(a, b);
  throw operandError("/", a, b);
}

export function pyFloorDiv(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numFloorDiv(a, b);
  throw operandError("//", a, b);
}

export function pyMod(a: unknown, b: unknown): unknown {
  const s = textOf(a);
  if (s !== undefined) return pyPercent(s, b);
  if (isNumber(a) && isNumber(b)) return numMod(a, b);
  throw operandError("%", a, b);
}

export function pyPow(a: unknown, b: unknown): unknown {
  if (isNumber(a) && isNumber(b)) return numPow(a, b);
  throw operandError("** or pow()", a, b);
}

/** `-a`. */
export function pyNeg(a: unknown): unknown {
  if (isNumber(a)) return numNeg(a);
  if (a === undefined) throw undefinedOperand("'-'");
  throw typeError(`bad operand type for unary -: '${pyTypeName(a)}'`);
}

/** `+a`. */
export function pyPos(a: unknown): unknown {
  if (isNumber(a)) return typeof a === "boolean" ? Number(a) : a;
  if (a === undefined) throw undefinedOperand("'+'");
  throw typeError(`bad operand type for unary +: '${pyTypeName(a)}'`);
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
  // An unhashable item (a list, a dict) is Python's TypeError, from the key's identity.
  if (isMapping(container)) return ownKey(container, item) !== undefined;
  if (container === undefined) return false;
  if (container instanceof Map || container instanceof Set) return container.has(item);
  throw typeError(`argument of type '${pyTypeName(container)}' is not iterable`);
}

/** `a < b` as Python's sort asks it, with Python's TypeError for values that cannot be ordered. */
export function pyLess(a: unknown, b: unknown): boolean {
  return orderCompare(a, b, "<") < 0;
}

/** Compares for `op`: negative, zero or positive; NaN (no order holds) is NaN. */
function orderCompare(a: unknown, b: unknown, op: string): number {
  if (typeof a === "string" && typeof b === "string") return stringCompare(a, b);
  if (isNumber(a) && isNumber(b)) return numCompare(a, b) ?? Number.NaN;
  const sa = textOf(a);
  const sb = textOf(b);
  if (sa !== undefined && sb !== undefined) return stringCompare(sa, sb);
  if (Array.isArray(a) && Array.isArray(b) && a instanceof PyTuple === b instanceof PyTuple) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEq(a[i], b[i])) return orderCompare(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  // Jinja's Undefined fails when compared (an UndefinedError, not Python's TypeError).
  if (a === undefined || b === undefined) throw undefinedOperand(`'${op}'`);
  throw typeError(`'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/** Python compares strings by code point (JavaScript's `<` by UTF-16 unit); marks as the text they stand for. */
function stringCompare(a: string, b: string): number {
  const x = seen(a);
  const y = seen(b);
  if (x === y) return 0;
  return compareCodePoints(x, y);
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
