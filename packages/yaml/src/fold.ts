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
 * A literal block scalar read by the parser with LINE and PARAGRAPH SEPARATORs turned into "\n": PyYAML keeps them,
 * so the n-th line break of the value is given back the n-th line break of the source after the header line.
 */
export function restoreLiteralBreaks(value: string, raw: string): string {
  const separators: string[] = [];
  let i = raw.search(/[\n\r\u0085\u2028\u2029]/);
  if (i < 0) return value;
  i += breakAt(raw, i)!.length;
  for (; i < raw.length; i++) {
    const br = breakAt(raw, i);
    if (br === undefined) continue;
    separators.push(br.value);
    i += br.length - 1;
  }
  let n = 0;
  return value.replace(/\n/g, () => separators[n++] ?? "\n");
}
