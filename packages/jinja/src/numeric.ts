// What Python numbers answer to in a template: `x.real`, `x.imag`, an int's `numerator` and `denominator`, and the
// methods `conjugate()`, `bit_length()` (ints), `is_integer()` (floats) and `as_integer_ratio()`. Jinja reads them
// as Python does (`[1, 2.5, 0]|selectattr('real')` keeps the numbers that are not zero); nothing else of a number is
// an attribute (a float's JavaScript fields are not).
import { PyFloat } from "@merge/core";
import { TemplateProblem, typeError } from "./errors.js";
import { floatValue, intValue, normInt } from "./numbers.js";
import { PyTuple } from "./pyvalues.js";

type NumberMethod = (self: unknown, args: readonly unknown[]) => unknown;

function noArguments(name: string, args: readonly unknown[]): void {
  if (args.length > 0) throw typeError(`${name}() takes no arguments (${args.length} given)`);
}

/** A float as a value of the model: whole floats keep their kind. */
function asFloat(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

/** The methods of ints (bools included) and floats; `numberMethods` picks the table for a value. */
const INT_METHODS: Record<string, NumberMethod> = Object.assign(Object.create(null), {
  conjugate: (self: unknown, args: readonly unknown[]) => {
    noArguments("int.conjugate", args);
    return intValue(self);
  },
  bit_length: (self: unknown, args: readonly unknown[]) => {
    noArguments("int.bit_length", args);
    const n = BigInt(intValue(self) as number | bigint);
    return (n < 0n ? -n : n).toString(2).replace(/^0$/, "").length;
  },
  as_integer_ratio: (self: unknown, args: readonly unknown[]) => {
    noArguments("int.as_integer_ratio", args);
    return PyTuple.from2(intValue(self), 1);
  },
});

const FLOAT_METHODS: Record<string, NumberMethod> = Object.assign(Object.create(null), {
  conjugate: (self: unknown, args: readonly unknown[]) => {
    noArguments("float.conjugate", args);
    return asFloat(floatValue(self) as number);
  },
  is_integer: (self: unknown, args: readonly unknown[]) => {
    noArguments("float.is_integer", args);
    return Number.isInteger(floatValue(self));
  },
  as_integer_ratio: (self: unknown, args: readonly unknown[]) => {
    noArguments("float.as_integer_ratio", args);
    return floatRatio(floatValue(self) as number);
  },
});

/** The exact fraction a double is, in lowest terms (Python's `float.as_integer_ratio`). */
function floatRatio(x: number): PyTuple {
  if (Number.isNaN(x)) throw new TemplateProblem("ValueError: cannot convert NaN to integer ratio");
  if (!Number.isFinite(x))
    throw new TemplateProblem("OverflowError: cannot convert Infinity to integer ratio");
  let numerator = x;
  let exponent = 0;
  // Doubling is exact until the value is whole (at most 1074 times, for the smallest subnormal).
  while (!Number.isInteger(numerator)) {
    numerator *= 2;
    exponent++;
  }
  let n = BigInt(numerator);
  let d = 1n << BigInt(exponent);
  while (d > 1n && n % 2n === 0n) {
    n /= 2n;
    d /= 2n;
  }
  return PyTuple.from2(normInt(n), normInt(d));
}

/** The methods of a number of `self`'s type, or undefined for what is no number. */
export function numberMethods(self: unknown): Record<string, NumberMethod> | undefined {
  if (floatValue(self) !== undefined) return FLOAT_METHODS;
  return intValue(self) !== undefined ? INT_METHODS : undefined;
}

/** A number's data attribute `name` (`real`, `imag`, and an int's `numerator`, `denominator`), else undefined. */
export function numberAttribute(self: unknown, name: string): unknown {
  const x = floatValue(self);
  if (x !== undefined) {
    if (name === "real") return asFloat(x);
    if (name === "imag") return new PyFloat(0);
    return undefined;
  }
  const n = intValue(self);
  if (n === undefined) return undefined;
  switch (name) {
    case "real":
    case "numerator":
      return n;
    case "imag":
      return 0;
    case "denominator":
      return 1;
    default:
      return undefined;
  }
}
