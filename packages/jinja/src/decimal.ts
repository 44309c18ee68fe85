// Correctly rounded decimal formatting of doubles, as Python's `'%.2f' % x`, `format(x, '.3e')` and `round(x, n)`
// do it: from the exact binary value, ties to even. (JavaScript's toFixed rounds exact ties up: 2.25 -> "2.3".)

/** The exact value of a finite double as `digits * 10^-scale` (digits without sign). */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const bits = buf.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (expBits === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  if (exp >= 0) return { digits: mant << BigInt(exp), scale: 0 };
  // mant * 2^exp = mant * 5^-exp / 10^-exp
  return { digits: mant * 5n ** BigInt(-exp), scale: -exp };
}

/** Rounds `digits * 10^-scale` to `places` decimals, ties to even. Returns the integer `value * 10^places`. */
function roundTo(digits: bigint, scale: number, places: number): bigint {
  if (places >= scale) return digits * 10n ** BigInt(places - scale);
  const div = 10n ** BigInt(scale - places);
  const q = digits / div;
  const r = digits % div;
  const twice = r * 2n;
  if (twice > div || (twice === div && q % 2n === 1n)) return q + 1n;
  return q;
}

/** A double's exact decimal expansion has at most this many digits after the point (2^-1074 has 1074). */
const MAX_EXACT_PLACES = 1074;
/** ... and at most this many significant digits. */
const MAX_EXACT_DIGITS = 767;

/** `'%.{places}f' % x` for a finite x (sign handled by the caller: pass |x|). */
export function fixedPy(x: number, places: number): string {
  // Past the exact expansion every digit is 0: no need to compute 10^places.
  if (places > MAX_EXACT_PLACES) return fixedPy(x, MAX_EXACT_PLACES) + "0".repeat(places - MAX_EXACT_PLACES);
  const { digits, scale } = exactDecimal(x);
  const n = roundTo(digits, scale, places).toString();
  if (places === 0) return n;
  const padded = n.padStart(places + 1, "0");
  return `${padded.slice(0, -places)}.${padded.slice(-places)}`;
}

/** `'%.{places}e' % x` for a finite x ≥ 0. */
export function expPy(x: number, places: number): string {
  if (x === 0) return `${places > 0 ? `0.${"0".repeat(places)}` : "0"}e+00`;
  if (places > MAX_EXACT_DIGITS) {
    const [mant, exp] = expPy(x, MAX_EXACT_DIGITS).split("e");
    return `${mant}${"0".repeat(places - MAX_EXACT_DIGITS)}e${exp}`;
  }
  const { digits, scale } = exactDecimal(x);
  const len = digits.toString().length;
  let e = len - 1 - scale;
  let m = roundTo(digits, len - 1, places).toString();
  if (m.length > places + 1) {
    e += 1;
    m = m.slice(0, places + 1);
  }
  const mant = places > 0 ? `${m[0]}.${m.slice(1)}` : m;
  const ae = Math.abs(e);
  return `${mant}e${e < 0 ? "-" : "+"}${ae < 10 ? `0${ae}` : ae}`;
}

/** Python's `round(x, places)` on a double. */
export function roundPy(x: number, places: number): number {
  if (!Number.isFinite(x)) return x;
  // Python: more places than a double has digits leave it as it is; fewer than its exponent give (signed) zero.
  if (places > 323) return x;
  if (places < -308) return 0 * x;
  if (places < 0) {
    const f = 10 ** -places;
    return roundPy(x / f, 0) * f;
  }
  const s = fixedPy(Math.abs(x), places);
  const v = Number(s);
  return x < 0 ? -v : v;
}
