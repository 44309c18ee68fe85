// Python's int and float on template values. An int is a JavaScript integer within ±2^53, a `bigint` beyond (ints
// have no size limit in Python) or a boolean (`True + 1` is 2); a float is a `PyFloat` (a whole float: `9.0`) or
// any other number (`1.5`, `NaN`, and a whole number past 2^53, which only a float could have been). Every operator
// returns what Python returns: int with int gives an int (growing into a `bigint` instead of losing digits), a float
// on either side gives a float, `/` always gives a float, and a whole float stays a `PyFloat`, so it prints `2.0`.
import { PyFloat, pyFloat, pyFloatRepr } from "@merge/core";
import { TemplateProblem } from "./errors.js";

/** Python 3.11 refuses to write an int of more digits than this as decimal text (`sys.get_int_max_str_digits()`). */
const INT_MAX_STR_DIGITS = 4300;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The value of a Python int (`bool` included), or undefined for anything else. */
export function intValue(v: unknown): number | bigint | undefined {
  switch (typeof v) {
    case "number":
      return Number.isSafeInteger(v) ? v : undefined;
    case "bigint":
      return v;
    case "boolean":
      return v ? 1 : 0;
    default:
      return undefined;
  }
}

/** The value of a Python float, or undefined for anything else. */
export function floatValue(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) ? undefined : v;
  return v instanceof PyFloat ? v.value : undefined;
}

/** Whether `v` is a Python number: an int, a float or a bool. */
export function isNumber(v: unknown): boolean {
  const t = typeof v;
  return t === "number" || t === "boolean" || t === "bigint" || v instanceof PyFloat;
}

/** Whether `v` is a Python float. */
export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === "number" && !Number.isSafeInteger(v));
}

/** The double of a number of any kind (`float(x)`). */
export function toDouble(v: unknown): number {
  return typeof v === "number" ? v : Number(v);
}

/** An int in its canonical form: a number within ±2^53, else a bigint. */
export function normInt(n: bigint): number | bigint {
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
}

/** The int a float truncates to (`int(x)`), Python's errors for infinity and NaN. */
export function truncToInt(x: number): number | bigint {
  if (Number.isNaN(x)) throw new TemplateProblem("ValueError: cannot convert float NaN to integer");
  if (!Number.isFinite(x))
    throw new TemplateProblem("OverflowError: cannot convert float infinity to integer");
  const t = Math.trunc(x);
  return Number.isSafeInteger(t) ? t + 0 : BigInt(t);
}

/** A Python float as a value: boxed when whole (`9.0`), so that it prints and compares as a float. */
export const float: (n: number) => number | PyFloat = pyFloat;

/** `str()` of a number of any kind: `9`, `9.0`, `1e+22`, `12345678901234567890`. */
export function numberText(v: number | bigint | PyFloat): string {
  if (typeof v === "number") return Number.isSafeInteger(v) ? String(v + 0) : pyFloatRepr(v);
  if (typeof v === "bigint") return bigText(v);
  return pyFloatRepr(v.value);
}

/** A bigint's decimal text, or Python's ValueError past its limit of digits. */
function bigText(v: bigint): string {
  const text = intDigits(v) > INT_MAX_STR_DIGITS - 100 ? v.toString() : undefined;
  if (text !== undefined && text.length - (v < 0n ? 1 : 0) > INT_MAX_STR_DIGITS) {
    throw new TemplateProblem(
      `ValueError: Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return text ?? v.toString();
}

function big(v: number | bigint): bigint {
  return typeof v === "bigint" ? v : BigInt(v);
}

/** `a + b` of two numbers. */
export function numAdd(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
      const r = a + b;
      return Number.isSafeInteger(r) ? r : normInt(BigInt(a) + BigInt(b));
    }
    return pyFloat(a + b);
  }
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined) return normInt(big(x) + big(y));
  return pyFloat(toDouble(a) + toDouble(b));
}

/** `a - b` of two numbers. */
export function numSub(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
      const r = a - b;
      return Number.isSafeInteger(r) ? r + 0 : normInt(BigInt(a) - BigInt(b));
    }
    return pyFloat(a - b);
  }
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined) return normInt(big(x) - big(y));
  return pyFloat(toDouble(a) - toDouble(b));
}

/** `a * b` of two numbers. */
export function numMul(a: unknown, b: unknown): unknown {
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined) {
    if (typeof x === "number" && typeof y === "number") {
      const r = x * y;
      if (Number.isSafeInteger(r)) return r + 0;
    }
    return normInt(big(x) * big(y));
  }
  return pyFloat(toDouble(a) * toDouble(b));
}

function bitLength(n: bigint): number {
  return n === 0n
    ? 0
    : n.toString(16).length * 4 - Math.clz32(Number.parseInt(n.toString(16)[0] as string, 16)) + 28;
}

/** `v * 2**k` without overflowing or underflowing on the way. */
function scale2(v: number, k: number): number {
  let x = v;
  let e = k;
  while (e > 1000) {
    x *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    x *= 2 ** -1000;
    e += 1000;
  }
  return x * 2 ** e;
}

/** `num / den * 2**exp2` for positive bigints, correctly rounded to a double (as Python divides ints). */
function ratioToDouble(num: bigint, den: bigint, exp2 = 0): number {
  if (num === 0n) return 0;
  // A quotient of 65 or 66 bits, and a last bit that records any remainder: rounding it to 53 bits is exact.
  const shift = bitLength(den) - bitLength(num) + 65;
  let q: bigint;
  let r: bigint;
  if (shift >= 0) {
    const n = num << BigInt(shift);
    q = n / den;
    r = n % den;
  } else {
    const d = den << BigInt(-shift);
    q = num / d;
    r = num % d;
  }
  if (r !== 0n) q |= 1n;
  return scale2(Number(q), exp2 - shift);
}

/** A finite, non-zero double as `mantissa * 2**exponent` with an integer mantissa. */
function decompose(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? [fraction, -1074] : [fraction | (1n << 52n), biased - 1075];
}

/**
 * `x ** n` for a double and an int exponent, correctly rounded (as the C library's pow, which Python calls, gives
 * it; JavaScript's `**` can be a unit off in the last place), or undefined when the exact power would be too large
 * to compute.
 */
function floatPowInt(x: number, n: number): number | undefined {
  if (x === 0 || !Number.isFinite(x) || n === 0) return undefined;
  const [m, e] = decompose(x);
  if (Math.abs(n) * bitLength(m) > 100_000) return undefined;
  const sign = x < 0 && n % 2 !== 0 ? -1 : 1;
  const power = m ** BigInt(Math.abs(n));
  const r = n > 0 ? ratioToDouble(power, 1n, e * n) : ratioToDouble(1n, power, e * n);
  return sign * r;
}

/** `a / b`: always a float (two ints divide exactly, then round once, as Python does). */
export function numDiv(a: unknown, b: unknown): unknown {
  const d = toDouble(b);
  const x = intValue(a);
  const y = intValue(b);
  if (d === 0 && (y === undefined || y === 0 || y === 0n)) {
    const ints = x !== undefined && y !== undefined;
    throw new TemplateProblem(`ZeroDivisionError: ${ints ? "division by zero" : "float division by zero"}`);
  }
  if (x !== undefined && y !== undefined && (typeof x === "bigint" || typeof y === "bigint")) {
    const p = big(x);
    const q = big(y);
    const r = ratioToDouble(p < 0n ? -p : p, q < 0n ? -q : q);
    return pyFloat(p < 0n !== q < 0n ? -r : r);
  }
  return pyFloat(toDouble(a) / d);
}

/** Python's `divmod` of two doubles (`float_divmod`): the floored quotient and the remainder with b's sign. */
function floatDivmod(x: number, y: number): [number, number] {
  let mod = x % y;
  let div = (x - mod) / y;
  if (mod !== 0) {
    if (y < 0 !== mod < 0) {
      mod += y;
      div -= 1;
    }
  } else mod = y < 0 ? -0 : 0;
  let floor: number;
  if (div !== 0) {
    floor = Math.floor(div);
    if (div - floor > 0.5) floor += 1;
  } else floor = x / y < 0 || Object.is(x / y, -0) ? -0 : 0;
  return [floor, mod];
}

function bigFloorDiv(x: bigint, y: bigint): bigint {
  const q = x / y;
  return x % y !== 0n && x < 0n !== y < 0n ? q - 1n : q;
}

/** `a // b` of two numbers. */
export function numFloorDiv(a: unknown, b: unknown): unknown {
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined) {
    if (y === 0 || y === 0n)
      throw new TemplateProblem("ZeroDivisionError: integer division or modulo by zero");
    if (typeof x === "number" && typeof y === "number") return Math.floor(x / y) + 0;
    return normInt(bigFloorDiv(big(x), big(y)));
  }
  const d = toDouble(b);
  if (d === 0) throw new TemplateProblem("ZeroDivisionError: float floor division by zero");
  return pyFloat(floatDivmod(toDouble(a), d)[0]);
}

/** `a % b` of two numbers: the remainder has the divisor's sign. */
export function numMod(a: unknown, b: unknown): unknown {
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined) {
    // Python 3.11 words `%` apart from `//` (3.10 and older said "integer division or modulo by zero" for both).
    if (y === 0 || y === 0n) throw new TemplateProblem("ZeroDivisionError: integer modulo by zero");
    if (typeof x === "number" && typeof y === "number") {
      const r = x % y;
      return r !== 0 && r < 0 !== y < 0 ? r + y : r + 0;
    }
    const bx = big(x);
    const by = big(y);
    const r = bx % by;
    return normInt(r !== 0n && r < 0n !== by < 0n ? r + by : r);
  }
  const d = toDouble(b);
  if (d === 0) throw new TemplateProblem("ZeroDivisionError: float modulo");
  return pyFloat(floatDivmod(toDouble(a), d)[1]);
}

/** About how many decimal digits an int has (at least as many as it has): what the render's budget charges. */
export function intDigits(n: number | bigint): number {
  if (typeof n === "number") return 16;
  // Hexadecimal text is cheap to make; each hexadecimal digit is log10(16) decimal digits.
  return Math.ceil(n.toString(16).length * 1.2042) + 1;
}

/** About how many decimal digits `base ** exponent` has, for the render's budget (before it is computed). */
export function powDigits(base: number | bigint, exponent: number | bigint): number {
  const magnitude = typeof base === "bigint" ? intDigits(base) : Math.log10(Math.abs(base) + 1) + 1;
  return Math.ceil(Number(exponent) * magnitude);
}

/** `a ** b` of two numbers (an int's size is checked by the caller, see `powDigits`). */
export function numPow(a: unknown, b: unknown): unknown {
  const x = intValue(a);
  const y = intValue(b);
  if (x !== undefined && y !== undefined && y >= 0) {
    if (typeof x === "number" && typeof y === "number") {
      const r = x ** y;
      if (Number.isSafeInteger(r) && Math.abs(r) < 2 ** 52) return r + 0;
    }
    return normInt(big(x) ** big(y));
  }
  const base = toDouble(a);
  const exponent = toDouble(b);
  if (base === 0 && exponent < 0)
    throw new TemplateProblem("ZeroDivisionError: 0.0 cannot be raised to a negative power");
  let r: number;
  if (Number.isInteger(exponent) && Math.abs(exponent) <= 2 ** 31)
    r = floatPowInt(base, exponent) ?? base ** exponent;
  else if (exponent === 0.5 && base > 0) r = Math.sqrt(base);
  else r = base ** exponent;
  if (!Number.isFinite(r) && Number.isFinite(base) && Number.isFinite(exponent))
    throw new TemplateProblem("OverflowError: (34, 'Numerical result out of range')");
  // Python gives 1.0 for 1 ** nan and for (-1) ** ±inf (C's pow); JavaScript gives NaN.
  if (Number.isNaN(r) && (base === 1 || (base === -1 && !Number.isFinite(exponent)))) return pyFloat(1);
  return pyFloat(r);
}

/** `-a` of a number. */
export function numNeg(a: unknown): unknown {
  const x = intValue(a);
  if (x !== undefined) return typeof x === "number" ? 0 - x : normInt(-x);
  return pyFloat(-toDouble(a));
}

/** `abs(a)` of a number. */
export function numAbs(a: unknown): unknown {
  const x = intValue(a);
  if (x !== undefined) return typeof x === "number" ? Math.abs(x) : normInt(x < 0n ? -x : x);
  return pyFloat(Math.abs(toDouble(a)));
}

/** Compares two numbers: negative, zero or positive (NaN: undefined, which no comparison holds for). */
export function numCompare(a: unknown, b: unknown): number | undefined {
  if (typeof a === "number" && typeof b === "number") {
    if (a < b) return -1;
    if (a > b) return 1;
    return a === b ? 0 : undefined;
  }
  const x = typeof a === "bigint" ? a : toDouble(a);
  const y = typeof b === "bigint" ? b : toDouble(b);
  if (x < y) return -1;
  if (x > y) return 1;
  // biome-ignore lint/suspicious/noDoubleEquals: a bigint against a number needs the mathematical comparison
  return x == y ? 0 : undefined;
}

/** Python's `==` on two numbers of any kind. */
export function numEquals(a: unknown, b: unknown): boolean {
  return numCompare(a, b) === 0;
}
