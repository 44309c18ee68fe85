import { describe, expect, it } from "vitest";
import { type NjAny, njLexer } from "./nunjucks-internals.js";
import { extractMatching } from "./scan.js";

// A small deterministic generator (xorshift), so a failure names an input that can be run again.
function generator(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

const PIECES = [
  "{",
  "}",
  "%",
  "#",
  "-",
  "\n",
  "\r\n",
  "\r",
  " ",
  "\t",
  "a",
  "key: value",
  "  - item # comment",
  "{{ x }}",
  "{{- y -}}",
  "{% if a %}",
  "{%- endif %}",
  "{% for i in [1, 2] %}{{ i }}{% endfor %}",
  "{# note #}",
  "#}",
  "{#",
  "}}",
  "%}",
  "'q'",
  '"dq"',
  "é",
  "😀",
];

function template(random: (n: number) => number): string {
  let out = "";
  const count = random(40);
  for (let i = 0; i < count; i++) out += PIECES[random(PIECES.length)];
  return out;
}

interface Lexed {
  readonly tokens: unknown[];
  readonly error?: string;
  readonly end: readonly number[];
}

function lexAll(src: string, fast: boolean, trimBlocks: boolean): Lexed {
  const tokenizer: NjAny = njLexer.lex(src, { trimBlocks });
  if (fast) tokenizer._extractMatching = extractMatching;
  const tokens: unknown[] = [];
  try {
    for (let tok = tokenizer.nextToken(); tok; tok = tokenizer.nextToken()) {
      tokens.push([tok.type, tok.value, tok.lineno, tok.colno]);
    }
  } catch (error) {
    return { tokens, error: String(error), end: [tokenizer.index, tokenizer.lineno, tokenizer.colno] };
  }
  return { tokens, end: [tokenizer.index, tokenizer.lineno, tokenizer.colno] };
}

describe("extractMatching", () => {
  it("gives the tokens, positions and errors nunjucks' own tokenizer gives, over many generated templates", () => {
    const random = generator(13);
    for (let n = 0; n < 3000; n++) {
      const src = template(random);
      const trimBlocks = random(2) === 0;
      expect(lexAll(src, true, trimBlocks), JSON.stringify(src)).toEqual(lexAll(src, false, trimBlocks));
    }
  });

  it("takes the same text and leaves the tokenizer where nunjucks' loop leaves it, from any position", () => {
    const random = generator(7);
    const charSets = ["{{{#", " \n\t\r", "0123456789", "", "\n", "ab"];
    for (let n = 0; n < 3000; n++) {
      const src = template(random);
      const chars = charSets[random(charSets.length)]!;
      const breakOnMatch = random(2) === 0;
      const start = random(src.length + 2);
      const original: NjAny = njLexer.lex(src, {});
      const fast: NjAny = njLexer.lex(src, {});
      for (const tokenizer of [original, fast]) {
        // Walk to the start position with nunjucks' own forward(), which sets line and column.
        for (let i = 0; i < start && i < src.length; i++) tokenizer.forward();
      }
      const want = original._extractMatching(breakOnMatch, chars);
      const got = extractMatching.call(fast, breakOnMatch, chars);
      const where = JSON.stringify({ src, chars, breakOnMatch, start });
      expect(got, where).toBe(want);
      expect([fast.index, fast.lineno, fast.colno], where).toEqual([
        original.index,
        original.lineno,
        original.colno,
      ]);
    }
  });

  it("counts every line break in a long run of text", () => {
    const tokenizer: NjAny = njLexer.lex("a\n\nb\n# c\n{{ x }}", {});
    expect(extractMatching.call(tokenizer, true, "{{{#")).toBe("a\n\nb\n");
    expect([tokenizer.index, tokenizer.lineno, tokenizer.colno]).toEqual([5, 3, 0]);
  });
});
