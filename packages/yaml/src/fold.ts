/**
 * The value of a flow scalar (plain, single- or double-quoted) that spans lines, read from its source text as
 * PyYAML's scanner reads it. The `yaml` package folds such scalars by YAML 1.2's rules, where NEL, LINE SEPARATOR
 * and PARAGRAPH SEPARATOR are not line breaks; PyYAML (and libyaml) break lines at them, and keep a LINE or
 * PARAGRAPH SEPARATOR that ends a line as it is instead of folding it into a space. The loader hands the parser
 * those characters as "\n" (so lines are where PyYAML sees them) and rebuilds the value here from the original text.
 */

/** A YAML 1.1 line break: "\r\n" and "\r" and NEL are read as "\n"; LS and PS stay themselves. */
function breakAt(text: string, i: number): { length: number; value: string } | undefined {
  const c = text.charCodeAt(i);
  if (c === 10 || c === 0x85) return { length: 1, value: "\n" };
  if (c === 13) return { length: text.charCodeAt(i + 1) === 10 ? 2 : 1, value: "\n" };
  if (c === 0x2028 || c === 0x2029) return { length: 1, value: text[i]! };
  return undefined;
}

const isBlank = (c: number): boolean => c === 32 || c === 9;

/**
 * After a line break: the blank lines that follow (white space is skipped, their breaks kept) and the offset of
 * the next line's first character.
 */
function scanBreaks(text: string, from: number, end: number): { breaks: string; next: number } {
  let breaks = "";
  let i = from;
  for (;;) {
    while (i < end && isBlank(text.charCodeAt(i))) i++;
    const br = i < end ? breakAt(text, i) : undefined;
    if (br === undefined) return { breaks, next: i };
    breaks += br.value;
    i += br.length;
  }
}

/** The text a line break and the blank lines after it fold into: a space, or the breaks themselves. */
function fold(lineBreak: string, breaks: string): string {
  if (lineBreak !== "\n") return lineBreak + breaks;
  return breaks === "" ? " " : breaks;
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\x08",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\x0B",
  f: "\x0C",
  r: "\r",
  e: "\x1B",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00A0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * The value of a quoted scalar whose source (`raw`, quotes included) spans lines. Escapes were already checked by
 * the parser, which reports a bad one before this runs.
 */
export function foldQuoted(raw: string, double: boolean): string {
  const end = raw.length - 1;
  let out = "";
  let i = 1;
  while (i < end) {
    const c = raw[i]!;
    const code = raw.charCodeAt(i);
    if (!double && c === "'") {
      out += "'";
      i += 2;
    } else if (double && c === "\\") {
      const e = raw[i + 1]!;
      const br = breakAt(raw, i + 1);
      if (br !== undefined) {
        // An escaped line break joins the lines without a space; blank lines after it still count.
        const { breaks, next } = scanBreaks(raw, i + 1 + br.length, end);
        out += breaks;
        i = next;
      } else if (HEX_LENGTH[e] !== undefined) {
        const length = HEX_LENGTH[e]!;
        out += String.fromCodePoint(Number.parseInt(raw.slice(i + 2, i + 2 + length), 16));
        i += 2 + length;
      } else {
        out += ESCAPES[e] ?? e;
        i += 2;
      }
    } else if (isBlank(code) || breakAt(raw, i) !== undefined) {
      let j = i;
      while (j < end && isBlank(raw.charCodeAt(j))) j++;
      const br = j < end ? breakAt(raw, j) : undefined;
      if (br === undefined) {
        // White space inside a line is kept; before a line break it is dropped.
        out += raw.slice(i, j);
        i = j;
      } else {
        const { breaks, next } = scanBreaks(raw, j + br.length, end);
        out += fold(br.value, breaks);
        i = next;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The value of a plain scalar whose source (from its first to its last character) spans lines. */
export function foldPlain(raw: string): string {
  let out = "";
  let i = 0;
  const end = raw.length;
  while (i < end) {
    const code = raw.charCodeAt(i);
    if (isBlank(code) || breakAt(raw, i) !== undefined) {
      let j = i;
      while (j < end && isBlank(raw.charCodeAt(j))) j++;
      const br = j < end ? breakAt(raw, j) : undefined;
      if (br === undefined) {
        out += raw.slice(i, j);
        i = j;
      } else {
        const { breaks, next } = scanBreaks(raw, j + br.length, end);
        out += fold(br.value, breaks);
        i = next;
      }
    } else {
      out += raw[i];
      i++;
    }
  }
  return out;
}

/**
 * A block scalar (`raw` runs from its `|` or `>` header to its end) read as PyYAML's scanner reads it: used when
 * it holds a LINE or PARAGRAPH SEPARATOR, which PyYAML keeps as the line break it is (never folded into a space,
 * and kept as the final break under the default chomping). `parentIndent` is the indentation of the block
 * collection around it (-1 at the top), which gives the least indentation of its content.
 */
export function readBlockScalar(raw: string, parentIndent: number): string {
  const folded = raw[0] === ">";
  let i = 1;
  let chomping: boolean | undefined;
  let increment = 0;
  for (let k = 0; k < 2; k++) {
    const c = raw[i];
    if (c === "+" || c === "-") {
      chomping = c === "+";
      i++;
    } else if (c !== undefined && c >= "1" && c <= "9") {
      increment = Number(c);
      i++;
    }
  }
  // The rest of the header line (spaces and a comment) is not content.
  while (i < raw.length && breakAt(raw, i) === undefined) i++;
  if (i < raw.length) i += breakAt(raw, i)!.length;
  const end = raw.length;
  let column = 0;
  const spacesTo = (limit: number): void => {
    while (i < end && raw.charCodeAt(i) === 32 && column < limit) {
      i++;
      column++;
    }
  };
  /** Blank lines before content at `indent`: their breaks. */
  const scanBreaksTo = (limit: number): string => {
    let out = "";
    spacesTo(limit);
    for (let br = breakAt(raw, i); i < end && br !== undefined; br = breakAt(raw, i)) {
      out += br.value;
      i += br.length;
      column = 0;
      spacesTo(limit);
    }
    return out;
  };
  const minIndent = Math.max(parentIndent + 1, 1);
  let indent: number;
  let breaks: string;
  if (increment > 0) {
    indent = minIndent + increment - 1;
    breaks = scanBreaksTo(indent);
  } else {
    // Detection: the deepest column reached by the leading blank lines and the first content line.
    let deepest = 0;
    breaks = "";
    for (;;) {
      if (i >= end) break;
      if (raw.charCodeAt(i) === 32) {
        i++;
        column++;
        if (column > deepest) deepest = column;
        continue;
      }
      const br = breakAt(raw, i);
      if (br === undefined) break;
      breaks += br.value;
      i += br.length;
      column = 0;
    }
    indent = Math.max(minIndent, deepest);
  }
  let out = "";
  let lineBreak = "";
  while (column === indent && i < end) {
    out += breaks;
    const leadingNonSpace = !isBlank(raw.charCodeAt(i));
    const start = i;
    while (i < end && breakAt(raw, i) === undefined) i++;
    out += raw.slice(start, i);
    const br = i < end ? breakAt(raw, i) : undefined;
    lineBreak = br?.value ?? "";
    if (br !== undefined) i += br.length;
    column = 0;
    breaks = scanBreaksTo(indent);
    if (column === indent && i < end) {
      if (folded && lineBreak === "\n" && leadingNonSpace && !isBlank(raw.charCodeAt(i))) {
        if (breaks === "") out += " ";
      } else {
        out += lineBreak;
      }
    } else {
      break;
    }
  }
  if (chomping !== false) out += lineBreak;
  if (chomping === true) out += breaks;
  return out;
}
