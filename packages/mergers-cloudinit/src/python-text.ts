/*
 * Two string operations of Python that cloud-init and its JSON patch library rely on, where JavaScript's nearest
 * equivalents differ: which characters are whitespace (`str.lstrip()`), and what `int(text)` accepts.
 */

/**
 * The characters Python's `str.isspace()` is true for (Python 3.11, Unicode 14). JavaScript's `trimStart` differs:
 * it keeps U+001C..U+001F and U+0085 and strips U+FEFF.
 */
const PYTHON_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

export function isPythonSpace(code: number): boolean {
  return PYTHON_SPACE.has(code);
}

/** Python's `text.lstrip()`. */
export function pythonLstrip(text: string): string {
  let i = 0;
  while (i < text.length && PYTHON_SPACE.has(text.charCodeAt(i))) i++;
  return i === 0 ? text : text.slice(i);
}

/**
 * The code points of digit zero in each run of ten decimal digits Python 3.11 knows (Unicode 14; `int()` accepts any
 * of them). Node's Unicode tables are newer, so `\p{Nd}` would accept digits Python refuses.
 */
const DIGIT_ZEROS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50,
  0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40,
  0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0,
  0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50,
  0x11da0, 0x16a60, 0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950,
  0x1fbf0,
];

/** The value of a decimal digit of any script Python knows, or -1. */
function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code < 0x660) return -1;
  for (const zero of DIGIT_ZEROS) {
    if (code >= zero && code <= zero + 9) return code - zero;
  }
  return -1;
}

/** Python's `str.isdecimal()` for one code point (`\d` in a `re` pattern on text). */
export function isPythonDigit(code: number): boolean {
  return digitValue(code) >= 0;
}

/**
 * Python's `int(text)` in base 10: surrounding whitespace ignored, an optional sign, decimal digits of any script with
 * single underscores between them. Returns undefined where Python raises `ValueError`. Values beyond 2^53 lose
 * precision, which is harmless for what this serves (list indexes).
 */
export function pythonInt(text: string): number | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && PYTHON_SPACE.has(text.charCodeAt(start))) start++;
  while (end > start && PYTHON_SPACE.has(text.charCodeAt(end - 1))) end--;
  let sign = 1;
  if (start < end && (text[start] === "+" || text[start] === "-")) {
    if (text[start] === "-") sign = -1;
    start++;
  }
  let value = 0;
  let digits = 0;
  let afterUnderscore = false;
  for (let i = start; i < end; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    if (code === 0x5f /* _ */) {
      if (digits === 0 || afterUnderscore) return undefined;
      afterUnderscore = true;
      continue;
    }
    const digit = digitValue(code);
    if (digit < 0) return undefined;
    value = value * 10 + digit;
    digits++;
    afterUnderscore = false;
  }
  if (digits === 0 || afterUnderscore) return undefined;
  return sign * value;
}
