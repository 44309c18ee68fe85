/**
 * Python's `repr(float)`: the shortest digits that round-trip (as JavaScript also finds them), written positionally
 * for decimal exponents -4..15 and in scientific notation with a signed, at least two-digit exponent otherwise
 * (`1e+16`, `1e-05`, `1.5`, `100.0`).
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const exp = Math.abs(value).toExponential(); // shortest round-trip digits: "d.ddde+N"
  const e = exp.indexOf("e");
  const digits = exp.slice(0, e).replace(".", "");
  const exponent = Number(exp.slice(e + 1));
  if (exponent >= -5 + 1 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    if (digits.length <= exponent + 1) return `${sign}${digits}${"0".repeat(exponent + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  }
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const abs = Math.abs(exponent);
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${abs < 10 ? `0${abs}` : abs}`;
}
