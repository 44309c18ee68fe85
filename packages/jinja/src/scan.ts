import type { NjAny } from "./nunjucks-internals.js";

/**
 * nunjucks' `Tokenizer._extractMatching`, with the same result and the same position afterwards, found with one
 * search instead of a character at a time. The tokenizer runs it over all template text between tags, breaking at
 * every `{` and `#`: a stack file of a few hundred lines templated in one place spent more time there than in the
 * rest of compiling it, and most of a `merge stack` run compiles each template once, before V8 has optimised the
 * per-character loop. Installed on each tokenizer `parseTemplate` makes (see `balancedTokens`).
 *
 * `breakOnMatch` true: the longest run of characters not in `chars` (at least one); false: of characters in `chars`.
 * `""` when the first character already ends the run, `null` at the end of the text. Line and column move as
 * `forward()` moves them for each character taken: past a newline the line grows and the column is 0.
 */
export function extractMatching(this: NjAny, breakOnMatch: boolean, chars: string): string | null {
  const str: string = this.str;
  const len: number = this.len;
  const start: number = this.index;
  if (start >= len) return null;
  const ends = (i: number): boolean => (chars.indexOf(str.charAt(i)) !== -1) === breakOnMatch;
  if (ends(start)) return "";
  let end = start + 1;
  while (end < len && !ends(end)) end++;
  const taken = str.slice(start, end);
  const lastBreak = taken.lastIndexOf("\n");
  if (lastBreak === -1) {
    this.colno += taken.length;
  } else {
    let breaks = 0;
    for (let i = taken.indexOf("\n"); i !== -1; i = taken.indexOf("\n", i + 1)) breaks++;
    this.lineno += breaks;
    this.colno = taken.length - 1 - lastBreak;
  }
  this.index = end;
  return taken;
}
