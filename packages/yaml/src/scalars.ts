import { parseTimestamp, type YamlTimestamp } from "./timestamp.js";

/** Which real loader to agree with: PyYAML's `SafeLoader` (cloud-init) or Salt's `SaltYamlSafeLoader`. */
export type YamlFlavor = "pyyaml" | "salt";

/** Thrown by the scalar constructors; the loader turns it into a coded `YAML_TAG` error with the node's position. */
export class ConstructError extends Error {}

const BIN = /^[01]+$/;
const OCT = /^[0-7]+$/;
const DEC = /^[0-9]+$/;
const HEX = /^[0-9a-fA-F]+$/;
const SIXTY = /^\s*[+-]?[0-9]+\s*$/;
// Python's float(): digits with an optional fraction (the fraction's digits cannot be confused with the integer
// part's, so a long run of digits that fails to match is rejected in linear time).
const PY_FLOAT = /^\s*[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?|inf|infinity|nan)\s*$/;
const SMALL_DEC = /^[1-9][0-9]{0,14}$/;
/** Python 3.11+ refuses to convert a decimal text of more digits than this to an int (`sys.get_int_max_str_digits`). */
export const PYTHON_INT_MAX_STR_DIGITS = 4300;

const RADIX_PREFIX = { 2: /^0[bB]/, 8: /^0[oO]/, 16: /^0[xX]/ } as const;
const RADIX_DIGITS = { 2: BIN, 8: OCT, 16: HEX } as const;

/**
 * Python's `int(text, radix)`, which PyYAML calls on what follows `0b`/`0x`, or on the whole value from its `0`:
 * white space around, a sign, and the radix's own prefix are allowed (`!!int 0o17` is 15, as `int("0o17", 8)`).
 * Undefined where Python raises ValueError.
 */
function pythonInt(text: string, radix: 2 | 8 | 16, sign: 1 | -1): number | bigint | undefined {
  let digits = text.trim();
  let inner: 1 | -1 = 1;
  if (digits[0] === "+" || digits[0] === "-") {
    inner = digits[0] === "-" ? -1 : 1;
    digits = digits.slice(1);
  }
  if (RADIX_PREFIX[radix].test(digits)) digits = digits.slice(2);
  if (!RADIX_DIGITS[radix].test(digits)) return undefined;
  return toInt(digits, radix, (sign * inner) as 1 | -1);
}

function throwError(error: Error): never {
  throw error;
}

function toInt(digits: string, radix: 2 | 8 | 10 | 16, sign: 1 | -1): number | bigint {
  const prefix = radix === 2 ? "0b" : radix === 8 ? "0o" : radix === 16 ? "0x" : "";
  return fromBig(BigInt(`${prefix}${digits}`) * BigInt(sign));
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Integers JavaScript can hold exactly are numbers; larger ones stay exact as bigint (Python ints are unbounded). */
function fromBig(big: bigint): number | bigint {
  return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big;
}

/**
 * `!!int` as `SafeConstructor.construct_yaml_int` builds it (`0b1010`, `0755` octal, `0x1F`, `1_000`, `1:30` base 60).
 * Salt first strips the leading zeros of an unsigned value (not `0b`/`0x`), so there `0123` is 123 and `-012` is -10.
 */
export function constructInt(text: string, flavor: YamlFlavor): number | bigint {
  if (SMALL_DEC.test(text)) return Number(text);
  let value = text;
  if (
    flavor === "salt" &&
    value !== "0" &&
    value.startsWith("0") &&
    !value.startsWith("0b") &&
    !value.startsWith("0x")
  ) {
    value = value.replace(/^0+/, "") || "0";
  }
  value = value.replace(/_/g, "");
  if (value === "") throw new ConstructError(`invalid literal for int(): '${text}'`);
  let sign: 1 | -1 = 1;
  if (value[0] === "-") sign = -1;
  if (value[0] === "+" || value[0] === "-") value = value.slice(1);
  const bad = (): ConstructError => new ConstructError(`invalid literal for int(): '${text}'`);
  if (value === "0") return 0;
  if (value.startsWith("0b")) return pythonInt(value.slice(2), 2, sign) ?? throwError(bad());
  if (value.startsWith("0x")) return pythonInt(value.slice(2), 16, sign) ?? throwError(bad());
  if (value[0] === "0") return pythonInt(value, 8, sign) ?? throwError(bad());
  if (value.includes(":")) {
    const parts = value.split(":");
    for (const part of parts) {
      if (!SIXTY.test(part)) throw bad();
      checkDigits(part.trim());
    }
    return fromBig(sexagesimal(parts) * BigInt(sign));
  }
  const trimmed = value.trim();
  if (!DEC.test(trimmed)) throw bad();
  checkDigits(trimmed);
  return toInt(trimmed, 10, sign);
}

/** Python's int() of a decimal text longer than 4,300 digits raises ValueError (CVE-2020-10735), and so does PyYAML. */
function checkDigits(decimal: string): void {
  const digits = decimal.length - (decimal[0] === "+" || decimal[0] === "-" ? 1 : 0);
  if (digits > PYTHON_INT_MAX_STR_DIGITS) {
    throw new ConstructError(
      `Exceeds the limit (${PYTHON_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits`,
    );
  }
}

/** Base-60 parts of one chunk fit a double exactly while 60^8 · 59 < 2^53. */
const CHUNK = 8;

/**
 * The value of base-60 digits (most significant first; each may be any integer, as with `!!int 100:200`). Folding
 * digit after digit into one growing bigint costs time in the square of the length, so neighbouring halves are
 * combined instead (value = high · 60^(length of low) + low), which is what multiplication of large numbers is fast
 * at; each power of 60 is computed once per length.
 */
function sexagesimal(parts: readonly string[]): bigint {
  const digits = parts.map((part) => BigInt(part.trim()));
  const powers = new Map<number, bigint>();
  const power = (n: number): bigint => {
    let p = powers.get(n);
    if (p === undefined) {
      p = n <= CHUNK ? 60n ** BigInt(n) : power(n >> 1) * power(n - (n >> 1));
      powers.set(n, p);
    }
    return p;
  };
  const combine = (start: number, end: number): bigint => {
    if (end - start <= CHUNK) {
      let total = 0n;
      for (let i = start; i < end; i++) total = total * 60n + digits[i]!;
      return total;
    }
    const middle = start + ((end - start) >> 1);
    return combine(start, middle) * power(end - middle) + combine(middle, end);
  };
  return combine(0, digits.length);
}

function pyFloat(text: string, original: string): number {
  if (!PY_FLOAT.test(text)) throw new ConstructError(`could not convert string to float: '${original}'`);
  const t = text.trim();
  const body = t.replace(/^[+-]/, "");
  const neg = t.startsWith("-");
  if (body === "inf" || body === "infinity") return neg ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (body === "nan") return Number.NaN;
  return Number(t);
}

/** `!!float` as `SafeConstructor.construct_yaml_float` builds it (`1.5`, `1_0.5`, `.inf`, `-.Inf`, `.nan`, `1:30.5`). */
export function constructFloat(text: string): number {
  let value = text.replace(/_/g, "").toLowerCase();
  if (value === "") throw new ConstructError("could not convert string to float: ''");
  let sign = 1;
  if (value[0] === "-") sign = -1;
  if (value[0] === "+" || value[0] === "-") value = value.slice(1);
  if (value === ".inf") return sign * Number.POSITIVE_INFINITY;
  if (value === ".nan") return Number.NaN;
  if (value.includes(":")) {
    // PyYAML adds digit · 60^k from the last digit on, with 60^k a Python int turned into a float for each product:
    // the same rounding needs the same order, and past 60^173 the conversion overflows (OverflowError).
    const parts = value.split(":");
    const digits = parts.map((part) => pyFloat(part, text));
    let total = 0;
    let base = 1n;
    for (let i = digits.length - 1; i >= 0; i--) {
      const factor = Number(base);
      if (!Number.isFinite(factor)) throw new ConstructError("int too large to convert to float");
      total += digits[i]! * factor;
      base *= 60n;
    }
    return sign * total;
  }
  return sign * pyFloat(value, text);
}

const BOOLS: Record<string, boolean> = {
  yes: true,
  no: false,
  true: true,
  false: false,
  on: true,
  off: false,
};

/** `!!bool`: the value is looked up lower-cased among yes/no/true/false/on/off, as PyYAML does. */
export function constructBool(text: string): boolean {
  const key = text.toLowerCase();
  if (!Object.hasOwn(BOOLS, key)) throw new ConstructError(`'${text}' is not a boolean`);
  return BOOLS[key]!;
}

const B64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * `!!binary`: base64 as Python's `base64.decodebytes` (`binascii.a2b_base64`, not strict) reads it. Characters
 * outside the alphabet are skipped; `=` ends the data once it completes a group of four (`aGk=` then anything is
 * `hi`), and is skipped where it cannot (`=aGk=` is `hi` too); a last group of one character is refused, and one of
 * two or three without its padding is "Incorrect padding".
 */
export function constructBinary(text: string): Uint8Array {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is exactly for non-ASCII input
  if (/[^\x00-\x7f]/.test(text))
    throw new ConstructError("failed to convert base64 data into ascii characters");
  const out = new Uint8Array(Math.ceil((text.length * 3) / 4));
  let length = 0;
  // Where in a group of four the next digit falls, the bits carried to the next byte, and `=` seen in a row.
  let position = 0;
  let carry = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "=") {
      pads++;
      if (position >= 2 && position + pads >= 4) return out.slice(0, length);
      continue;
    }
    const digit = B64_DIGITS.indexOf(ch);
    if (digit < 0) continue;
    pads = 0;
    if (position === 0) carry = digit;
    else if (position === 1) {
      out[length++] = (carry << 2) | (digit >> 4);
      carry = digit & 0x0f;
    } else if (position === 2) {
      out[length++] = ((carry << 4) | (digit >> 2)) & 0xff;
      carry = digit & 0x03;
    } else out[length++] = ((carry << 6) | digit) & 0xff;
    position = (position + 1) % 4;
  }
  if (position === 1) {
    throw new ConstructError(
      "failed to decode base64 data: Invalid base64-encoded string: the number of data characters cannot be 1 more than a multiple of 4",
    );
  }
  if (position !== 0) throw new ConstructError("failed to decode base64 data: Incorrect padding");
  return out.slice(0, length);
}

/** `!!timestamp`: a `YamlTimestamp` for PyYAML; Salt registers its scalar constructor, so there it stays a string. */
export function constructTimestamp(text: string, flavor: YamlFlavor): YamlTimestamp | string {
  if (flavor === "salt") return text;
  const result = parseTimestamp(text);
  if (typeof result === "string") throw new ConstructError(result);
  return result;
}
