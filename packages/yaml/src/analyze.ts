/**
 * PyYAML's `Emitter.analyze_scalar`: which styles (plain in block or flow context, single-quoted, double-quoted,
 * literal/folded block) can carry a string unchanged. Strings are handled as code points, as Python does.
 */
/**
 * A string as code points: the string itself when it has no surrogate pairs (each code unit is then a code point,
 * and long texts are not split into arrays), an array of code points otherwise.
 */
export type Chars = string | readonly string[];

const SURROGATE = /[\uD800-\uDFFF]/;

export function toChars(text: string): Chars {
  return SURROGATE.test(text) ? Array.from(text) : text;
}

/** The code points [start, end) as a string. */
export function sliceChars(chars: Chars, start: number, end: number): string {
  return typeof chars === "string" ? chars.slice(start, end) : chars.slice(start, end).join("");
}

export interface ScalarAnalysis {
  readonly chars: Chars;
  readonly empty: boolean;
  readonly multiline: boolean;
  readonly allowFlowPlain: boolean;
  readonly allowBlockPlain: boolean;
  readonly allowSingleQuoted: boolean;
  readonly allowBlock: boolean;
}

export interface AnalyzeOptions {
  /** Emit printable non-ASCII characters as they are (`allow_unicode`); otherwise they force double quotes. */
  readonly allowUnicode: boolean;
  /**
   * libyaml (Salt's `CSafeDumper`) counts characters outside the Basic Multilingual Plane as unprintable, so they
   * force double quotes (`"\U0001F600"`); pure-Python PyYAML accepts them with `allow_unicode`.
   */
  readonly libyaml: boolean;
}

const LEADING_INDICATORS = new Set(Array.from("#,[]{}&*!|>'\"%@`", (c) => c.charCodeAt(0)));
const INNER_FLOW_INDICATORS = new Set(Array.from(",?[]{}", (c) => c.charCodeAt(0)));

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// After the first character: a flow indicator (`,?[]{}` or `:`) anywhere; `:` before a space or at the end; ` #`.
const INNER_FLOW_RE = /.[,?[\]{}:]/;
const INNER_BLOCK_COLON_RE = /.:(?: |$)/;
const INNER_COMMENT_RE = / #/;

/** PyYAML's "\0 \t\r\n\x85\u2028\u2029" set. */
function isWhitespace(cp: number): boolean {
  return (
    cp === 32 ||
    cp === 10 ||
    cp === 13 ||
    cp === 9 ||
    cp === 0 ||
    cp === 0x85 ||
    cp === 0x2028 ||
    cp === 0x2029
  );
}

function isUnicodePrintable(cp: number, libyaml: boolean): boolean {
  if (cp === 0xfeff) return false;
  // PyYAML counts NEL (U+0085) as printable, so with allow_unicode it writes one raw inside single quotes, where
  // every YAML 1.1 reader (PyYAML's own included) folds it into a space. Here it is not printable, as in libyaml:
  // such strings are double-quoted, with NEL escaped as `\N`.
  if (cp === 0x85) return false;
  if ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd)) return true;
  return !libyaml && cp >= 0x10000 && cp < 0x10ffff;
}

// What a scan of a string found, one bit each. The scans return these rather than set variables of an enclosing
// function: a nested function sharing them made every call allocate a context and a closure, for every scalar written.
const BLOCK_INDICATORS = 1;
const FLOW_INDICATORS = 2;
const LINE_BREAKS = 4;
const SPECIAL = 8;
const LEADING_SPACE = 16;
const LEADING_BREAK = 32;
const TRAILING_SPACE = 64;
const TRAILING_BREAK = 128;
const BREAK_SPACE = 256;
const SPACE_BREAK = 512;

/** Printable ASCII on one line (the usual case, and long strings): the answers from native regex scans. */
function scanPrintableAscii(text: string): number {
  let found = 0;
  const first = text.charCodeAt(0);
  const followed = text.length === 1 || text.charCodeAt(1) === 32;
  if (LEADING_INDICATORS.has(first)) found |= FLOW_INDICATORS | BLOCK_INDICATORS;
  if (first === 63 || first === 58) {
    found |= FLOW_INDICATORS;
    if (followed) found |= BLOCK_INDICATORS;
  }
  if (first === 45 && followed) found |= FLOW_INDICATORS | BLOCK_INDICATORS;
  if (INNER_FLOW_RE.test(text)) found |= FLOW_INDICATORS;
  if (INNER_BLOCK_COLON_RE.test(text) || INNER_COMMENT_RE.test(text))
    found |= FLOW_INDICATORS | BLOCK_INDICATORS;
  if (first === 32) found |= LEADING_SPACE;
  if (text.charCodeAt(text.length - 1) === 32) found |= TRAILING_SPACE;
  return found;
}

// Code points are compared as numbers: this loop runs once per character of every string written.
function scanCodePoints(chars: Chars, options: AnalyzeOptions): number {
  const str = typeof chars === "string";
  const len = chars.length;
  const cpAt = (i: number): number =>
    str ? (chars as string).charCodeAt(i) : (chars as readonly string[])[i]!.codePointAt(0)!;
  let found = 0;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  const last = len - 1;
  for (let index = 0; index < len; index++) {
    const cp = cpAt(index);
    const followedByWhitespace = index + 1 >= len || isWhitespace(cpAt(index + 1));
    if (index === 0) {
      if (LEADING_INDICATORS.has(cp)) found |= FLOW_INDICATORS | BLOCK_INDICATORS;
      if (cp === 63 || cp === 58) {
        found |= FLOW_INDICATORS;
        if (followedByWhitespace) found |= BLOCK_INDICATORS;
      }
      if (cp === 45 && followedByWhitespace) found |= FLOW_INDICATORS | BLOCK_INDICATORS;
    } else {
      if (INNER_FLOW_INDICATORS.has(cp)) found |= FLOW_INDICATORS;
      if (cp === 58) {
        found |= FLOW_INDICATORS;
        if (followedByWhitespace) found |= BLOCK_INDICATORS;
      }
      if (cp === 35 && precededByWhitespace) found |= FLOW_INDICATORS | BLOCK_INDICATORS;
    }
    // libyaml also counts a carriage return as a line break.
    const isBreak =
      cp === 10 || cp === 0x85 || cp === 0x2028 || cp === 0x2029 || (options.libyaml && cp === 13);
    if (isBreak) found |= LINE_BREAKS;
    if (!(cp === 10 || (cp >= 0x20 && cp <= 0x7e))) {
      if (isUnicodePrintable(cp, options.libyaml)) {
        if (!options.allowUnicode) found |= SPECIAL;
      } else {
        found |= SPECIAL;
      }
    }
    if (cp === 32) {
      if (index === 0) found |= LEADING_SPACE;
      if (index === last) found |= TRAILING_SPACE;
      if (previousBreak) found |= BREAK_SPACE;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak) {
      if (index === 0) found |= LEADING_BREAK;
      if (index === last) found |= TRAILING_BREAK;
      if (previousSpace) found |= SPACE_BREAK;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isWhitespace(cp);
  }
  return found;
}

export function analyzeScalar(text: string, options: AnalyzeOptions): ScalarAnalysis {
  const chars = toChars(text);
  if (chars.length === 0) {
    return {
      chars,
      empty: true,
      multiline: false,
      allowFlowPlain: false,
      allowBlockPlain: true,
      allowSingleQuoted: true,
      allowBlock: false,
    };
  }
  let found =
    typeof chars === "string" && PRINTABLE_ASCII.test(chars)
      ? scanPrintableAscii(chars)
      : scanCodePoints(chars, options);
  if (text.startsWith("---") || text.startsWith("...")) found |= BLOCK_INDICATORS | FLOW_INDICATORS;
  let allowFlowPlain = true;
  let allowBlockPlain = true;
  let allowSingleQuoted = true;
  let allowBlock = true;
  if ((found & (LEADING_SPACE | LEADING_BREAK | TRAILING_SPACE | TRAILING_BREAK)) !== 0)
    allowFlowPlain = allowBlockPlain = false;
  if ((found & TRAILING_SPACE) !== 0) allowBlock = false;
  if ((found & BREAK_SPACE) !== 0) allowFlowPlain = allowBlockPlain = allowSingleQuoted = false;
  if ((found & (SPACE_BREAK | SPECIAL)) !== 0)
    allowFlowPlain = allowBlockPlain = allowSingleQuoted = allowBlock = false;
  if ((found & LINE_BREAKS) !== 0) allowFlowPlain = allowBlockPlain = false;
  if ((found & FLOW_INDICATORS) !== 0) allowFlowPlain = false;
  if ((found & BLOCK_INDICATORS) !== 0) allowBlockPlain = false;
  return {
    chars,
    empty: false,
    multiline: (found & LINE_BREAKS) !== 0,
    allowFlowPlain,
    allowBlockPlain,
    allowSingleQuoted,
    allowBlock,
  };
}
