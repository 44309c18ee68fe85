/**
 * Orders strings by Unicode code point, as Python sorts `str` — the order Salt and cloud-init produce when they
 * sort keys or file names. JavaScript's default comparison uses UTF-16 code units, which disagrees only when a
 * surrogate (half of a character above U+FFFF) meets a character in U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
