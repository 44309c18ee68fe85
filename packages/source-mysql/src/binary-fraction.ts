/**
 * A finite |value| as the exact fraction `numerator / 2^shift`: doubling a double is exact, and a fraction needs at
 * most 1074 doublings. For comparing a float with decimal text, and rounding it to decimals, without float error.
 */
export function binaryFraction(value: number): { numerator: bigint; shift: bigint } {
  let scaled = Math.abs(value);
  let shift = 0n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    shift++;
  }
  return { numerator: BigInt(scaled), shift };
}
