// Jinja's lexer and token stream, as far as the syntax check (jinja-syntax.ts) needs them: tokens handed out one at a
// time, so that an error in the text is raised when the parser asks for the token there (as Jinja's generator does),
// and Jinja's one token of look-ahead. Messages name tokens the way Jinja's do.
import { pyRepr } from "./pyvalues.js";

export interface Token {
  readonly type: string;
  readonly value: string;
  readonly line: number;
  readonly column: number;
}

export class Stop extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/** Jinja's operators and the token type each is (longest first, as its lexer tries them). */
const OPERATORS: ReadonlyArray<readonly [string, string]> = [
  ["//", "floordiv"],
  ["**", "pow"],
  ["==", "eq"],
  ["!=", "ne"],
  [">=", "gteq"],
  ["<=", "lteq"],
  ["+", "add"],
  ["-", "sub"],
  ["/", "div"],
  ["*", "mul"],
  ["%", "mod"],
  ["~", "tilde"],
  ["[", "lbracket"],
  ["]", "rbracket"],
  ["(", "lparen"],
  [")", "rparen"],
  ["{", "lbrace"],
  ["}", "rbrace"],
  [">", "gt"],
  ["<", "lt"],
  ["=", "assign"],
  [".", "dot"],
  [":", "colon"],
  ["|", "pipe"],
  [",", "comma"],
  [";", "semicolon"],
];
const OPERATOR_TEXT = new Map(OPERATORS.map(([text, type]) => [type, text]));

/** How Jinja's messages name a token type that is not an operator. */
const TYPE_WORDS: Record<string, string> = {
  block_begin: "begin of statement block",
  block_end: "end of statement block",
  variable_begin: "begin of print statement",
  variable_end: "end of print statement",
  data: "template data / text",
  eof: "end of template",
};

function describeType(type: string): string {
  return OPERATOR_TEXT.get(type) ?? TYPE_WORDS[type] ?? type;
}

export function describe(tok: Token): string {
  return tok.type === "name" ? tok.value : describeType(tok.type);
}

/** A token expression (`name:endfor`, `comma`) as Jinja's messages name it. */
export function describeExpr(expr: string): string {
  const colon = expr.indexOf(":");
  if (colon === -1) return describeType(expr);
  const type = expr.slice(0, colon);
  return type === "name" ? expr.slice(colon + 1) : describeType(type);
}

export function matches(tok: Token, expr: string): boolean {
  if (tok.type === expr) return true;
  const colon = expr.indexOf(":");
  return colon !== -1 && tok.type === expr.slice(0, colon) && tok.value === expr.slice(colon + 1);
}

// The lexer's patterns, anchored where reading is (`y`). Numbers and names are Jinja's (lexer.py, _identifier.py).
const WHITESPACE = /\s+/y;
const FLOAT = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
const INTEGER = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;
// Jinja's name patterns use Unicode classes, which cost V8 a good part of a millisecond to build: they are built when
// a template that failed to compile is read again, not when the engine loads (see lazy-patterns.test.ts).
let namePatterns: { readonly name: RegExp; readonly identifier: RegExp } | undefined;
function names(): { readonly name: RegExp; readonly identifier: RegExp } {
  namePatterns ??= {
    // biome-ignore lint/complexity/useRegexLiterals: a constructor call, so that lazy-patterns.test.ts sees when it is built
    name: new RegExp("[\\p{L}\\p{N}\\p{Mn}\\p{Mc}\\p{Pc}·]+", "uy"),
    // biome-ignore lint/complexity/useRegexLiterals: a constructor call, so that lazy-patterns.test.ts sees when it is built
    identifier: new RegExp("^[\\p{L}\\p{Nl}_][\\p{L}\\p{N}\\p{Mn}\\p{Mc}\\p{Pc}·]*$", "u"),
  };
  return namePatterns;
}
const STRING = /'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/sy;
const BLOCK_END = /\+%\}|-%\}\s*|%\}/y;
const VARIABLE_END = /-\}\}\s*|\}\}/y;
const COMMENT = /([\s\S]*?)(?:\+#\}|-#\}\s*|#\})/y;
const RAW_BEGIN = /\{%[-+]?\s*raw\s*(?:-%\}\s*|%\})/y;
const RAW_END = /[\s\S]*?\{%[-+]?\s*endraw\s*(?:\+%\}|-%\}\s*|%\})/y;
const TAG_START = /\{[{%#]/g;

function at(re: RegExp, src: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(src);
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Jinja's tokens of `src` (already newline-normalised, the trailing newline dropped), one at a time; the errors its
 * lexer raises are thrown when the token where they occur is asked for. Comments and white space are skipped.
 */
export function* tokens(src: string): Generator<Token, void, undefined> {
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  const column = (p: number) => p - lineStart + 1;
  const advance = (to: number) => {
    const text = src.slice(pos, to);
    const nl = newlines(text);
    if (nl > 0) {
      line += nl;
      lineStart = pos + text.lastIndexOf("\n") + 1;
    }
    pos = to;
  };
  while (pos < src.length) {
    // Template text up to the next `{{`, `{%` or `{#`.
    TAG_START.lastIndex = pos;
    const start = TAG_START.exec(src);
    const begin = start === null ? src.length : start.index;
    if (begin > pos) {
      const tok = { type: "data", value: src.slice(pos, begin), line, column: column(pos) };
      advance(begin);
      yield tok;
    }
    if (start === null) return;
    const kind = src[pos + 1];
    if (kind === "%") {
      const raw = at(RAW_BEGIN, src, pos);
      if (raw !== null) {
        advance(pos + raw[0].length);
        const end = at(RAW_END, src, pos);
        if (end === null) {
          // Jinja fails only when text follows the raw tag; at the very end of the template it stops quietly.
          if (pos < src.length) throw new Stop("Missing end of raw directive", line, column(pos));
          return;
        }
        const body = /\{%[-+]?\s*endraw/.exec(end[0]);
        const tok = { type: "data", value: end[0].slice(0, body?.index ?? 0), line, column: column(pos) };
        advance(pos + end[0].length);
        if (tok.value !== "") yield tok;
        continue;
      }
    }
    const beginLine = line;
    const beginColumn = column(pos);
    let next = pos + 2;
    if (src[next] === "-" || src[next] === "+") next++;
    if (kind === "#") {
      advance(next);
      const comment = at(COMMENT, src, pos);
      if (comment === null) {
        if (pos < src.length) throw new Stop("Missing end of comment tag", line, column(pos));
        return;
      }
      advance(pos + comment[0].length);
      continue;
    }
    const inBlock = kind === "%";
    advance(next);
    yield {
      type: inBlock ? "block_begin" : "variable_begin",
      value: "",
      line: beginLine,
      column: beginColumn,
    };
    // Inside the tag: Jinja ends it only where brackets are balanced.
    const open: string[] = [];
    for (;;) {
      if (open.length === 0) {
        const end = at(inBlock ? BLOCK_END : VARIABLE_END, src, pos);
        if (end !== null) {
          const tok = { type: inBlock ? "block_end" : "variable_end", value: "", line, column: column(pos) };
          advance(pos + end[0].length);
          yield tok;
          break;
        }
      }
      const ws = at(WHITESPACE, src, pos);
      if (ws !== null) {
        advance(pos + ws[0].length);
        continue;
      }
      if (pos >= src.length) return;
      const tokLine = line;
      const tokColumn = column(pos);
      const float = src[pos - 1] === "." ? null : at(FLOAT, src, pos);
      const number = float ?? at(INTEGER, src, pos);
      if (number !== null) {
        advance(pos + number[0].length);
        yield {
          type: float === null ? "integer" : "float",
          value: number[0],
          line: tokLine,
          column: tokColumn,
        };
        continue;
      }
      const name = at(names().name, src, pos);
      if (name !== null) {
        advance(pos + name[0].length);
        if (!names().identifier.test(name[0]))
          throw new Stop("Invalid character in identifier", tokLine, tokColumn);
        yield { type: "name", value: name[0], line: tokLine, column: tokColumn };
        continue;
      }
      const string = at(STRING, src, pos);
      if (string !== null) {
        advance(pos + string[0].length);
        const value = string[1] ?? string[2] ?? "";
        const bad = escapeProblem(value);
        if (bad !== undefined) throw new Stop(bad, tokLine, tokColumn);
        yield { type: "string", value, line: tokLine, column: tokColumn };
        continue;
      }
      const op = OPERATORS.find(([text]) => src.startsWith(text, pos));
      if (op === undefined)
        throw new Stop(`unexpected char ${pyRepr(src[pos])} at ${pos}`, tokLine, tokColumn);
      const [text, type] = op;
      if (text === "{" || text === "(" || text === "[")
        open.push(text === "{" ? "}" : text === "(" ? ")" : "]");
      else if (text === "}" || text === ")" || text === "]") {
        const expected = open.pop();
        if (expected === undefined) throw new Stop(`unexpected '${text}'`, tokLine, tokColumn);
        if (expected !== text)
          throw new Stop(`unexpected '${text}', expected '${expected}'`, tokLine, tokColumn);
      }
      advance(pos + text.length);
      yield { type, value: text, line: tokLine, column: tokColumn };
    }
  }
}

/**
 * What Python's `unicode-escape` codec says of a string literal's escapes it cannot read (Jinja's lexer decodes every
 * string with it and reports the codec's reason): a `\x`, `\u` or `\U` without enough hex digits, a `\U` past
 * U+10FFFF, a `\N` without its `{name}`.
 */
function escapeProblem(body: string): string | undefined {
  for (let i = body.indexOf("\\"); i !== -1; i = body.indexOf("\\", i + 2)) {
    const e = body[i + 1];
    const digits = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (digits > 0) {
      const hex = body.slice(i + 2, i + 2 + digits);
      if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
        return `truncated \\${e}${"X".repeat(digits)} escape`;
      if (e === "U" && Number.parseInt(hex, 16) > 0x10ffff) return "illegal Unicode character";
    } else if (e === "N" && !/^\{[^}]+\}/.test(body.slice(i + 2))) return "malformed \\N character escape";
  }
  return undefined;
}

/** Jinja's TokenStream: the current token, one more looked at when asked. */
export class Stream {
  current: Token;
  private readonly pushed: Token[] = [];
  private ended = false;

  constructor(private readonly source: Generator<Token, void, undefined>) {
    this.current = { type: "initial", value: "", line: 1, column: 1 };
    this.next();
  }

  /** Moves one token on and returns the one left behind. */
  next(): Token {
    const was = this.current;
    const pushed = this.pushed.shift();
    if (pushed !== undefined) this.current = pushed;
    else if (this.current.type !== "eof") {
      const got = this.ended ? undefined : this.source.next();
      if (got === undefined || got.done === true) {
        this.ended = true;
        // The end of the template is on the line of the last token Jinja read.
        this.current = { type: "eof", value: "", line: this.current.line, column: this.current.column };
      } else this.current = got.value;
    }
    return was;
  }

  look(): Token {
    const was = this.current;
    this.next();
    const ahead = this.current;
    this.pushed.push(ahead);
    this.current = was;
    return ahead;
  }

  skip(n = 1): void {
    for (let i = 0; i < n; i++) this.next();
  }

  skipIf(expr: string): boolean {
    if (!matches(this.current, expr)) return false;
    this.next();
    return true;
  }

  /** The current token's type (a call, so that TypeScript does not narrow it across the calls that move on). */
  type(): string {
    return this.current.type;
  }

  get atEnd(): boolean {
    return this.pushed.length === 0 && this.current.type === "eof";
  }

  expect(expr: string): Token {
    const tok = this.current;
    if (!matches(tok, expr)) {
      const what = pyRepr(describeExpr(expr));
      if (tok.type === "eof")
        throw new Stop(`unexpected end of template, expected ${what}.`, tok.line, tok.column);
      throw new Stop(`expected token ${what}, got ${pyRepr(describe(tok))}`, tok.line, tok.column);
    }
    return this.next();
  }
}
