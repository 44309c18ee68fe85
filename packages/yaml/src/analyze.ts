/**
 * PyYAML's `Emitter.analyze_scalar`: which styles (plain in block or flow context, single-quoted, double-quoted,
 * literal/folded block) can carry a string unchanged. Strings are handled as code points, as Python does.
 */
export interface ScalarAnalysis {
  readonly chars: readonly string[];
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

const WS_AFTER = "\0 \t\r\n\u0085\u2028\u2029";
const BREAKS = "\n\u0085\u2028\u2029";

function isUnicodePrintable(cp: number, libyaml: boolean): boolean {
  if (cp === 0xfeff) return false;
  // libyaml's printable test leaves out NEL (U+0085) as well.
  if (cp === 0x85) return !libyaml;
  if ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd)) return true;
  return !libyaml && cp >= 0x10000 && cp < 0x10ffff;
}

export function analyzeScalar(text: string, options: AnalyzeOptions): ScalarAnalysis {
  const chars = Array.from(text);
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
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  if (text.startsWith("---") || text.startsWith("...")) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  let followedByWhitespace = chars.length === 1 || WS_AFTER.includes(chars[1]!);
  let previousSpace = false;
  let previousBreak = false;
  const last = chars.length - 1;
  for (let index = 0; index < chars.length; index++) {
    const ch = chars[index]!;
    if (index === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(ch)) {
        flowIndicators = true;
        blockIndicators = true;
      }
      if (ch === "?" || ch === ":") {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (ch === "-" && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else {
      if (",?[]{}".includes(ch)) flowIndicators = true;
      if (ch === ":") {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (ch === "#" && precededByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    }
    // libyaml also counts a carriage return as a line break.
    const isBreak = BREAKS.includes(ch) || (options.libyaml && ch === "\r");
    if (isBreak) lineBreaks = true;
    const cp = ch.codePointAt(0)!;
    if (!(ch === "\n" || (cp >= 0x20 && cp <= 0x7e))) {
      if (isUnicodePrintable(cp, options.libyaml)) {
        if (!options.allowUnicode) special = true;
      } else {
        special = true;
      }
    }
    if (ch === " ") {
      if (index === 0) leadingSpace = true;
      if (index === last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak) {
      if (index === 0) leadingBreak = true;
      if (index === last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = WS_AFTER.includes(ch);
    followedByWhitespace = index + 2 >= chars.length || WS_AFTER.includes(chars[index + 2]!);
  }
  let allowFlowPlain = true;
  let allowBlockPlain = true;
  let allowSingleQuoted = true;
  let allowBlock = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak)
    allowFlowPlain = allowBlockPlain = false;
  if (trailingSpace) allowBlock = false;
  if (breakSpace) allowFlowPlain = allowBlockPlain = allowSingleQuoted = false;
  if (spaceBreak || special) allowFlowPlain = allowBlockPlain = allowSingleQuoted = allowBlock = false;
  if (lineBreaks) allowFlowPlain = allowBlockPlain = false;
  if (flowIndicators) allowFlowPlain = false;
  if (blockIndicators) allowBlockPlain = false;
  return {
    chars,
    empty: false,
    multiline: lineBreaks,
    allowFlowPlain,
    allowBlockPlain,
    allowSingleQuoted,
    allowBlock,
  };
}
