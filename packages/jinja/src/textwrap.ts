// Jinja's `wordwrap` filter runs each line of its text through Python's `textwrap.wrap` (tabs kept, white space kept
// as it is, white space at line ends dropped). Its output depends on how textwrap cuts text into chunks (words,
// hyphenated parts, em-dashes, runs of white space) and on how it splits a word longer than the line, so both are
// reproduced here rule for rule; lengths count code points, as Python's `len` does.
import { typeError } from "./errors.js";
import { PY_SPACE } from "./methods.js";

/** textwrap's white space: the six ASCII characters, not Python's wider `str.isspace()`. */
const WS = "[\\t\\n\\x0b\\x0c\\r ]";
const NOT_WS = "[^\\t\\n\\x0b\\x0c\\r ]";
/** Python's `\w` on text: letters, digits and numbers of any script, and `_`. */
const WORD = "[\\p{L}\\p{N}_]";
/** A character that may end a word before an em-dash (Python's `[\w!"'&.,?]`). */
const WORD_PUNCT = "[\\p{L}\\p{N}_!\"'&.,?]";
/** A letter: `\w` that is not a decimal digit (Python's `[^\d\W]`). */
const LETTER = "(?:(?!\\p{Nd})[\\p{L}\\p{N}_])";

let chunkWithHyphens: RegExp | undefined;

/**
 * One chunk at a time: a run of white space; an em-dash (two or more hyphens) between words; or a word, ended
 * after a hyphen that joins two letters, before white space or the end, or before an em-dash. Made on first use:
 * building its Unicode classes takes V8 about half a millisecond, which every run that loads the template engine
 * would pay, `wordwrap` or not.
 */
function chunkWithHyphensPattern(): RegExp {
  chunkWithHyphens ??= new RegExp(
    `(${WS}+` +
      `|(?<=${WORD_PUNCT})-{2,}(?=${WORD})` +
      `|${NOT_WS}+?(?:` +
      `-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})` +
      `|(?=${WS}|$)` +
      `|(?<=${WORD_PUNCT})(?=-{2,}${WORD})` +
      "))",
    "u",
  );
  return chunkWithHyphens;
}
/** Without `break_on_hyphens`: words and runs of white space only. */
const CHUNK_PLAIN = new RegExp(`(${WS}+)`, "u");

/** Python's `str.strip() == ''`: the text is white space to Python (a wider set than textwrap's). */
const PY_BLANK = new RegExp(`^[${PY_SPACE}]*$`);
const PY_SPACE_CHAR = new RegExp(`^[${PY_SPACE}]$`);

export interface WrapOptions {
  /** Above zero (textwrap refuses others; the caller says so in its own words). */
  readonly width: number;
  readonly breakLongWords: boolean;
  /** Chunks end after hyphens inside words (`break_on_hyphens is True`). */
  readonly splitAtHyphens: boolean;
  /** A word too long for a line is cut after its last hyphen that fits (`break_on_hyphens` is true). */
  readonly cutAtHyphens: boolean;
}

/**
 * A chunk being placed: its code points from `from` on (a word longer than a line is placed piece by piece, so the
 * rest is tracked rather than copied: copying it for every line would make a long word cost its length squared).
 */
interface Chunk {
  readonly points: readonly string[];
  from: number;
  /** The index of its last character that is not white space to Python (-1 when there is none). */
  readonly lastSolid: number;
}

function chunkOf(text: string): Chunk {
  const points = [...text];
  let lastSolid = points.length - 1;
  while (lastSolid >= 0 && PY_SPACE_CHAR.test(points[lastSolid] as string)) lastSolid--;
  return { points, from: 0, lastSolid };
}

const size = (chunk: Chunk): number => chunk.points.length - chunk.from;
/** Python's `chunk.strip() == ''` for what is left of the chunk. */
const blank = (chunk: Chunk): boolean => chunk.from > chunk.lastSolid;
const text = (chunk: Chunk): string => chunk.points.slice(chunk.from).join("");

/** `textwrap.wrap(line, width, expand_tabs=False, replace_whitespace=False, ...)`: the lines, without breaks. */
export function wrapLine(line: string, options: WrapOptions): string[] {
  const pattern = options.splitAtHyphens ? chunkWithHyphensPattern() : CHUNK_PLAIN;
  // split() with a capturing group keeps the separators; the empty pieces between them are dropped.
  const chunks = line
    .split(pattern)
    .filter((chunk) => chunk !== "" && chunk !== undefined)
    .map(chunkOf);
  return wrapChunks(chunks, options);
}

/** textwrap's `_wrap_chunks` without indents or a line limit. */
function wrapChunks(chunks: Chunk[], options: WrapOptions): string[] {
  const { width } = options;
  const lines: string[] = [];
  const pending = chunks.reverse();
  while (pending.length > 0) {
    const line: string[] = [];
    let length = 0;
    // White space that would start a line (but the first) is dropped.
    if (lines.length > 0 && blank(pending[pending.length - 1] as Chunk)) pending.pop();
    let lastBlank = false;
    while (pending.length > 0) {
      const next = pending[pending.length - 1] as Chunk;
      if (length + size(next) > width) break;
      line.push(text(next));
      lastBlank = blank(next);
      length += size(next);
      pending.pop();
    }
    if (pending.length > 0 && size(pending[pending.length - 1] as Chunk) > width) {
      const piece = splitLongWord(pending, line.length === 0, length, options);
      if (piece !== undefined) {
        line.push(piece);
        lastBlank = PY_BLANK.test(piece);
      }
    }
    // So is white space that would end one.
    if (line.length > 0 && lastBlank) line.pop();
    if (line.length > 0) lines.push(line.join(""));
  }
  return lines;
}

/**
 * textwrap's `_handle_long_word`: a chunk longer than a whole line is cut to fill the current one. Returns the
 * piece that goes on the line, if any.
 */
function splitLongWord(
  pending: Chunk[],
  lineEmpty: boolean,
  length: number,
  options: WrapOptions,
): string | undefined {
  const spaceLeft = options.width < 1 ? 1 : options.width - length;
  const chunk = pending[pending.length - 1] as Chunk;
  if (options.breakLongWords) {
    // A width that is not a whole number cannot cut a word (`chunk[:end]` in Python).
    if (!Number.isInteger(spaceLeft))
      throw typeError("slice indices must be integers or None or have an __index__ method");
    const start = chunk.from;
    let end = spaceLeft;
    if (options.cutAtHyphens && size(chunk) > spaceLeft) {
      // Cut after the last hyphen that fits, unless only hyphens come before it.
      let hyphen = -1;
      for (let i = Math.min(end, size(chunk)) - 1; i >= 0; i--) {
        if (chunk.points[start + i] === "-") {
          hyphen = i;
          break;
        }
      }
      let solid = false;
      for (let i = 0; i < hyphen && !solid; i++) solid = chunk.points[start + i] !== "-";
      if (hyphen > 0 && solid) end = hyphen + 1;
    }
    end = Math.min(end, size(chunk));
    chunk.from += end;
    return chunk.points.slice(start, start + end).join("");
  }
  if (lineEmpty) {
    pending.pop();
    return text(chunk);
  }
  return undefined;
}
