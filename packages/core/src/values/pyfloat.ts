/**
 * Python floats in JavaScript. A JavaScript number that is not whole (`1.5`, `NaN`, `Infinity`) can only have been a
 * Python float, so it stays a plain number. A whole one (`9`) could have been either, so a float whose value is whole
 * (`9.0`, `1e+22`, `-0.0`) is boxed as a `PyFloat`: it prints `9.0` where the int prints `9`. Python ints stay numbers,
 * or `bigint` beyond 2^53.
 */
export class PyFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }

  /** The number, so `+x`, `x * 2` and comparisons work as on a plain number. */
  valueOf(): number {
    return this.value;
  }

  /** Python's `str()`/`repr()` of the float: `9.0`, `1e+22`, `-0.0`. */
  toString(): string {
    return pyFloatRepr(this.value);
  }

  /** `JSON.stringify` writes the number (`9`); the exact writers of `@merge` write `9.0`. */
  toJSON(): number {
    return this.value;
  }

  /** Node's `console.log` shows `9.0`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** A Python float with value `n`: a `PyFloat` when `n` is whole (the int would look the same), else `n` itself. */
export function pyFloat(n: number): number | PyFloat {
  return Number.isInteger(n) ? new PyFloat(n) : n;
}

/** True for a Python float: a `PyFloat`, or a number that is not whole (`1.5`, `NaN`, `±Infinity`). */
export function isPyFloat(value: unknown): value is number | PyFloat {
  return value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value));
}

/** The numeric value of a number of any representation (`PyFloat` unboxed), or undefined for other values. */
export function numberValue(value: unknown): number | bigint | undefined {
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/**
 * Python's `repr(float)`: the shortest digits that read back to the same double (JavaScript finds the same digits),
 * written positionally for decimal exponents -4..15 and in scientific notation with a signed exponent of at least
 * two digits otherwise: `1.0`, `100.0`, `1e+16`, `1e-05`, `2.5e-05`, `inf`, `nan`, `-0.0`.
 */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const scientific = Math.abs(value).toExponential(); // "d.ddde+N" with the shortest round-trip digits
  const e = scientific.indexOf("e");
  const digits = scientific.slice(0, e).replace(".", "");
  const exponent = Number(scientific.slice(e + 1));
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    if (digits.length <= exponent + 1) return `${sign}${digits}${"0".repeat(exponent + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  }
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const magnitude = Math.abs(exponent);
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${magnitude < 10 ? `0${magnitude}` : magnitude}`;
}
