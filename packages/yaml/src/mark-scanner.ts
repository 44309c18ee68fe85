/**
 * The token scanner of PyYAML (flavour `pyyaml`) and of libyaml (flavour `salt`), kept only to learn WHERE they
 * stop on bad input. The `yaml` package decides what a text means and whether it is refused; when it is, its error
 * sits where that parser noticed the problem, often a line away from the mark PyYAML prints (`problem_mark`). This
 * scanner follows PyYAML's order of work (tokens fetched lazily, simple keys remembered per flow level, indentation
 * unwound before each token) so that its first error is the one PyYAML raises, at the same place. It keeps no
 * scalar values; only what a later error depends on (anchor names, tag handles, directive values).
 */

/** A 0-based position, as PyYAML's `Mark` has it (column in code points). */
export interface ScanMark {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** PyYAML's first error: its problem text and `problem_mark`. */
export class MarkedProblem {
  constructor(
    readonly problem: string,
    readonly mark: ScanMark,
    /** True for the composer's problems (an undefined alias, a repeated anchor, a second document). */
    readonly composing = false,
  ) {}
}

export type TokenKind =
  | "stream-start"
  | "stream-end"
  | "directive"
  | "document-start"
  | "document-end"
  | "block-sequence-start"
  | "block-mapping-start"
  | "block-end"
  | "flow-sequence-start"
  | "flow-mapping-start"
  | "flow-sequence-end"
  | "flow-mapping-end"
  | "block-entry"
  | "flow-entry"
  | "key"
  | "value"
  | "alias"
  | "anchor"
  | "tag"
  | "scalar";

export interface ScanToken {
  readonly kind: TokenKind;
  readonly start: ScanMark;
  readonly end: ScanMark;
  /** Anchor or alias name, tag handle (`undefined` for a verbatim tag), directive name. */
  readonly name?: string | undefined;
  /** `%YAML` version or `%TAG` handle. */
  readonly version?: readonly [number, number];
  readonly plain?: boolean;
}

interface SimpleKey {
  readonly tokenNumber: number;
  readonly required: boolean;
  readonly mark: ScanMark;
}

const BREAKS = "\r\n\x85\u2028\u2029";
const isBreak = (ch: string) => ch !== "" && BREAKS.includes(ch);
/** End of text, space, tab or a line break (PyYAML's `'\0 \t\r\n\x85\u2028\u2029'`). */
const isBlankOrEnd = (ch: string) => ch === "" || ch === " " || ch === "\t" || BREAKS.includes(ch);
/** End of text, space or a line break, without the tab. */
const isSpaceOrEnd = (ch: string) => ch === "" || ch === " " || BREAKS.includes(ch);
const isWordChar = (ch: string) => /^[0-9A-Za-z_-]$/.test(ch);
const isHex = (ch: string) => /^[0-9A-Fa-f]$/.test(ch);
const URI_CHARS = "-;/?:@&=+$,_.!~*'()[]%";
const ESCAPES = '0abt\tnvfre "\\/N_LP';
const ESCAPE_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };
const PLAIN_NEVER_STARTS = "-?:,[]{}#&*!|>'\"%@`";

export class MarkScanner {
  private pos = 0;
  private line = 0;
  private column = 0;
  private done = false;
  private flowLevel = 0;
  private readonly queue: ScanToken[] = [];
  private taken = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private allowSimpleKey = true;
  private readonly keys = new Map<number, SimpleKey>();

  /** `libyaml`: the C scanner's rules (tabs, flow plain scalars, tags, directives, escapes) instead of PyYAML's. */
  constructor(
    private readonly text: string,
    private readonly libyaml: boolean,
  ) {
    const at = this.mark();
    this.queue.push({ kind: "stream-start", start: at, end: at });
  }

  peekToken(): ScanToken {
    while (this.needMore()) this.fetch();
    return this.queue[0]!;
  }

  nextToken(): ScanToken {
    const token = this.peekToken();
    this.queue.shift();
    this.taken++;
    return token;
  }

  // ---- reading the text

  private ch(k = 0): string {
    return this.text[this.pos + k] ?? "";
  }

  private mark(): ScanMark {
    return { offset: this.pos, line: this.line, column: this.column };
  }

  private forward(n = 1): void {
    for (let i = 0; i < n && this.pos < this.text.length; i++) {
      const c = this.text[this.pos]!;
      this.pos++;
      if (
        c === "\n" ||
        c === "\x85" ||
        c === "\u2028" ||
        c === "\u2029" ||
        (c === "\r" && this.ch() !== "\n")
      ) {
        this.line++;
        this.column = 0;
      } else if (
        c !== "\ufeff" &&
        !(c >= "\udc00" && c <= "\udfff" && this.text[this.pos - 2]! >= "\ud800")
      ) {
        // A code point counts once (a surrogate pair is one), and the byte-order mark not at all.
        this.column++;
      }
    }
  }

  private fail(problem: string, at: ScanMark = this.mark()): never {
    throw new MarkedProblem(problem, at);
  }

  private skipLineBreak(): boolean {
    const c = this.ch();
    if (!isBreak(c)) return false;
    this.forward(c === "\r" && this.ch(1) === "\n" ? 2 : 1);
    return true;
  }

  private atDocumentIndicator(): boolean {
    const three = this.text.slice(this.pos, this.pos + 3);
    return this.column === 0 && (three === "---" || three === "...") && isBlankOrEnd(this.ch(3));
  }

  // ---- the token queue and simple keys

  private needMore(): boolean {
    if (this.done) {
      // libyaml still checks its saved keys once the stream has ended (at the end's mark, a line further down).
      if (this.libyaml && this.queue.length > 0) this.staleKeys();
      return false;
    }
    if (this.queue.length === 0) return true;
    this.staleKeys();
    return this.nextKeyNumber() === this.taken;
  }

  private nextKeyNumber(): number | undefined {
    let min: number | undefined;
    for (const key of this.keys.values())
      if (min === undefined || key.tokenNumber < min) min = key.tokenNumber;
    return min;
  }

  /** A simple key must end on its line and within 1024 characters; a required one that cannot is an error. */
  private staleKeys(): void {
    for (const [level, key] of this.keys) {
      if (key.mark.line !== this.line || this.pos - key.mark.offset > 1024) {
        if (key.required) this.fail("could not find expected ':'");
        this.keys.delete(level);
      }
    }
  }

  private saveKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.column;
    if (!this.allowSimpleKey) return;
    this.removeKey();
    this.keys.set(this.flowLevel, {
      tokenNumber: this.taken + this.queue.length,
      required,
      mark: this.mark(),
    });
  }

  private removeKey(): void {
    const key = this.keys.get(this.flowLevel);
    if (key === undefined) return;
    if (key.required) this.fail("could not find expected ':'");
    this.keys.delete(this.flowLevel);
  }

  private unwind(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      const at = this.mark();
      this.indent = this.indents.pop()!;
      this.queue.push({ kind: "block-end", start: at, end: at });
    }
  }

  private addIndent(column: number): boolean {
    if (this.indent >= column) return false;
    this.indents.push(this.indent);
    this.indent = column;
    return true;
  }

  private push(kind: TokenKind, length = 1): void {
    const start = this.mark();
    this.forward(length);
    this.queue.push({ kind, start, end: this.mark() });
  }

  // ---- fetching one token

  private fetch(): void {
    this.skipToToken();
    this.staleKeys();
    this.unwind(this.column);
    const c = this.ch();
    const next = this.ch(1);
    if (c === "") {
      this.fetchStreamEnd();
      return;
    }
    if (c === "%" && this.column === 0) {
      this.fetchDirective();
      return;
    }
    if ((c === "-" || c === ".") && this.atDocumentIndicator()) {
      this.fetchDocumentIndicator(c);
      return;
    }
    if (c === "[" || c === "{") {
      this.fetchFlowStart(c);
      return;
    }
    if (c === "]" || c === "}") {
      this.fetchFlowEnd(c);
      return;
    }
    if (c === ",") {
      this.allowSimpleKey = true;
      this.removeKey();
      this.push("flow-entry");
      return;
    }
    if (c === "-" && isBlankOrEnd(next)) {
      this.fetchBlockEntry();
      return;
    }
    if (c === "?" && (this.flowLevel > 0 || isBlankOrEnd(next))) {
      this.fetchKey();
      return;
    }
    if (c === ":" && (this.flowLevel > 0 || isBlankOrEnd(next))) {
      this.fetchValue();
      return;
    }
    if (c === "*" || c === "&") {
      this.fetchAnchor(c);
      return;
    }
    if (c === "!") {
      this.fetchTag();
      return;
    }
    if ((c === "|" || c === ">") && this.flowLevel === 0) {
      this.fetchBlockScalar();
      return;
    }
    if (c === "'" || c === '"') {
      this.fetchQuoted(c);
      return;
    }
    if (this.canStartPlain(c, next)) {
      this.fetchPlain();
      return;
    }
    this.fail(
      this.libyaml
        ? "found character that cannot start any token"
        : `found character ${pyRepr(c)} that cannot start any token`,
    );
  }

  private canStartPlain(c: string, next: string): boolean {
    if (!isBlankOrEnd(c) && !PLAIN_NEVER_STARTS.includes(c)) return true;
    // libyaml lets `-` start a plain scalar before any non-blank; PyYAML before anything but the end or a break.
    const nextOk = this.libyaml ? next !== " " && next !== "\t" : !isBlankOrEnd(next);
    if (c === "-") return nextOk;
    return this.flowLevel === 0 && (c === "?" || c === ":") && !isBlankOrEnd(next);
  }

  /**
   * Spaces, comments and line breaks before the next token. PyYAML skips only spaces; libyaml also tabs, except
   * where a block simple key could start.
   */
  private skipToToken(): void {
    if (this.pos === 0 && this.ch() === "\ufeff") this.forward();
    for (;;) {
      while (
        this.ch() === " " ||
        (this.libyaml && this.ch() === "\t" && (this.flowLevel > 0 || !this.allowSimpleKey))
      )
        this.forward();
      if (this.ch() === "#") while (this.ch() !== "" && !isBreak(this.ch())) this.forward();
      if (!this.skipLineBreak()) return;
      if (this.flowLevel === 0) this.allowSimpleKey = true;
    }
  }

  private fetchStreamEnd(): void {
    // libyaml puts the end of a stream that lacks a final line break at the start of the line after.
    if (this.libyaml && this.column !== 0) {
      this.line++;
      this.column = 0;
    }
    this.unwind(-1);
    this.removeKey();
    this.allowSimpleKey = false;
    // PyYAML forgets the keys saved in enclosing levels of an unclosed flow collection; libyaml keeps them.
    if (!this.libyaml) this.keys.clear();
    const at = this.mark();
    this.queue.push({ kind: "stream-end", start: at, end: at });
    this.done = true;
  }

  private fetchDocumentIndicator(c: string): void {
    this.unwind(-1);
    this.removeKey();
    this.allowSimpleKey = false;
    this.push(c === "-" ? "document-start" : "document-end", 3);
  }

  private fetchFlowStart(c: string): void {
    this.saveKey();
    this.flowLevel++;
    this.allowSimpleKey = true;
    this.push(c === "[" ? "flow-sequence-start" : "flow-mapping-start");
  }

  private fetchFlowEnd(c: string): void {
    this.removeKey();
    // PyYAML lets the level go below zero on a stray closing bracket (the parser refuses the token); libyaml not.
    if (!this.libyaml || this.flowLevel > 0) this.flowLevel--;
    this.allowSimpleKey = false;
    this.push(c === "]" ? "flow-sequence-end" : "flow-mapping-end");
  }

  /**
   * A block indicator (`-`, `?`, or `:` without a saved key) outside flow context: refused where no simple key may
   * start (libyaml and PyYAML word it differently), else it may open a block collection at its column.
   */
  private openBlock(start: TokenKind, libyamlProblem: string, pyyamlProblem: string): void {
    if (!this.allowSimpleKey) this.fail(this.libyaml ? libyamlProblem : pyyamlProblem);
    if (this.addIndent(this.column)) {
      const at = this.mark();
      this.queue.push({ kind: start, start: at, end: at });
    }
  }

  /** After a directive or a block scalar's header: blanks, perhaps a comment, then the line must end. */
  private skipToLineEnd(): void {
    this.skipBlanks();
    if (this.ch() === "#") while (this.ch() !== "" && !isBreak(this.ch())) this.forward();
    if (this.ch() !== "" && !isBreak(this.ch()))
      this.fail(
        this.libyaml
          ? "did not find expected comment or line break"
          : `expected a comment or a line break, but found ${pyRepr(this.ch())}`,
      );
    this.skipLineBreak();
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      this.openBlock(
        "block-sequence-start",
        "block sequence entries are not allowed in this context",
        "sequence entries are not allowed here",
      );
    }
    this.allowSimpleKey = true;
    this.removeKey();
    this.push("block-entry");
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      this.openBlock(
        "block-mapping-start",
        "mapping keys are not allowed in this context",
        "mapping keys are not allowed here",
      );
    }
    this.allowSimpleKey = this.flowLevel === 0;
    this.removeKey();
    this.push("key");
  }

  private fetchValue(): void {
    const key = this.keys.get(this.flowLevel);
    if (key !== undefined) {
      // The saved candidate becomes a key: its KEY (and maybe BLOCK-MAPPING-START) go in before the tokens since.
      this.keys.delete(this.flowLevel);
      const at = key.tokenNumber - this.taken;
      this.queue.splice(at, 0, { kind: "key", start: key.mark, end: key.mark });
      if (this.flowLevel === 0 && this.addIndent(key.mark.column))
        this.queue.splice(at, 0, { kind: "block-mapping-start", start: key.mark, end: key.mark });
      this.allowSimpleKey = false;
    } else {
      if (this.flowLevel === 0) {
        this.openBlock(
          "block-mapping-start",
          "mapping values are not allowed in this context",
          "mapping values are not allowed here",
        );
      }
      this.allowSimpleKey = this.flowLevel === 0;
      this.removeKey();
    }
    this.push("value");
  }

  private fetchAnchor(c: string): void {
    this.saveKey();
    this.allowSimpleKey = false;
    const start = this.mark();
    this.forward();
    const from = this.pos;
    while (isWordChar(this.ch())) this.forward();
    const name = this.text.slice(from, this.pos);
    const after = this.ch();
    if (name === "" || !(isBlankOrEnd(after) || "?:,]}%@`".includes(after)))
      this.fail(
        this.libyaml
          ? "did not find expected alphabetic or numeric character"
          : `expected alphabetic or numeric character, but found ${pyRepr(after)}`,
      );
    this.queue.push({ kind: c === "*" ? "alias" : "anchor", start, end: this.mark(), name });
  }

  private fetchTag(): void {
    this.saveKey();
    this.allowSimpleKey = false;
    const start = this.mark();
    const handle = this.libyaml ? this.scanTagC() : this.scanTagPy();
    this.queue.push({ kind: "tag", start, end: this.mark(), name: handle });
  }

  /** PyYAML's tag: `!<uri>`, `!`, `!suffix` or `!handle!suffix`, then a space or a line break. */
  private scanTagPy(): string | undefined {
    let handle: string | undefined;
    if (this.ch(1) === "<") {
      this.forward(2);
      this.scanUri("tag");
      if (this.ch() !== ">") this.fail(`expected '>', but found ${pyRepr(this.ch())}`);
      this.forward();
    } else if (isBlankOrEnd(this.ch(1))) {
      handle = undefined;
      this.forward();
    } else {
      let k = 1;
      let secondBang = false;
      while (!isSpaceOrEnd(this.ch(k))) {
        if (this.ch(k) === "!") {
          secondBang = true;
          break;
        }
        k++;
      }
      if (secondBang) handle = this.scanTagHandle(false);
      else {
        handle = "!";
        this.forward();
      }
      this.scanUri("tag");
    }
    if (!isSpaceOrEnd(this.ch())) this.fail(`expected ' ', but found ${pyRepr(this.ch())}`);
    return handle;
  }

  /** libyaml's tag: a `!word!` handle or the whole tag as a suffix; a `,` may end it in a flow collection. */
  private scanTagC(): string | undefined {
    let handle: string | undefined;
    if (this.ch(1) === "<") {
      this.forward(2);
      this.scanUri("verbatim");
      if (this.ch() !== ">") this.fail("did not find the expected '>'");
      this.forward();
    } else {
      const from = this.pos;
      this.forward();
      while (isWordChar(this.ch())) this.forward();
      if (this.ch() === "!") this.forward();
      const read = this.text.slice(from, this.pos);
      if (read.length > 1 && read.endsWith("!")) {
        handle = read;
        this.scanUri("tag");
      } else {
        handle = "!";
        // The `!` alone (a single character read, nothing after) is the non-specific tag.
        this.scanUri("tag", read.length);
      }
    }
    if (!isBlankOrEnd(this.ch()) && !(this.flowLevel > 0 && this.ch() === ","))
      this.fail("did not find expected whitespace or line break");
    return handle;
  }

  /** `!`, `!!` or `!word!`; in a `%TAG` directive the handle must be one of them. */
  private scanTagHandle(directive: boolean): string {
    const from = this.pos;
    if (this.ch() !== "!")
      this.fail(this.libyaml ? "did not find expected '!'" : `expected '!', but found ${pyRepr(this.ch())}`);
    this.forward();
    if (this.libyaml) {
      while (isWordChar(this.ch())) this.forward();
      if (this.ch() === "!") this.forward();
      else if (directive && this.pos - from > 1) this.fail("did not find expected '!'");
      return this.text.slice(from, this.pos);
    }
    if (this.ch() !== " ") {
      while (isWordChar(this.ch())) this.forward();
      if (this.ch() !== "!") this.fail(`expected '!', but found ${pyRepr(this.ch())}`);
      this.forward();
    }
    return this.text.slice(from, this.pos);
  }

  /** URI characters and `%XX` escapes; at least one (or a non-empty head already read, for libyaml). */
  private scanUri(context: "tag" | "verbatim" | "directive", head = 0): void {
    let count = 0;
    for (;;) {
      const c = this.ch();
      // libyaml ends a tag (not a verbatim one, nor a directive's prefix) before `,`, `[` and `]`.
      const flowStop = this.libyaml && context === "tag" && ",[]".includes(c);
      if (c === "" || !(isWordChar(c) || URI_CHARS.includes(c)) || flowStop) break;
      if (c === "%") {
        // libyaml marks a bad escape at its `%`, PyYAML after it.
        if (this.libyaml && !(isHex(this.ch(1)) && isHex(this.ch(2))))
          this.fail("did not find URI escaped octet");
        this.forward();
        for (let k = 0; k < 2; k++)
          if (!isHex(this.ch(k)))
            this.fail(
              `expected URI escape sequence of 2 hexadecimal numbers, but found ${pyRepr(this.ch(k))}`,
            );
        this.forward(2);
      } else this.forward();
      count++;
    }
    if (count === 0 && head === 0)
      this.fail(
        this.libyaml ? "did not find expected tag URI" : `expected URI, but found ${pyRepr(this.ch())}`,
      );
  }

  private fetchDirective(): void {
    this.unwind(-1);
    this.removeKey();
    this.allowSimpleKey = false;
    const start = this.mark();
    this.forward();
    const from = this.pos;
    while (isWordChar(this.ch())) this.forward();
    const name = this.text.slice(from, this.pos);
    if (name === "")
      this.fail(
        this.libyaml
          ? "could not find expected directive name"
          : `expected alphabetic or numeric character, but found ${pyRepr(this.ch())}`,
      );
    if (this.libyaml ? !isBlankOrEnd(this.ch()) : !isSpaceOrEnd(this.ch()))
      this.fail(
        this.libyaml
          ? "found unexpected non-alphabetical character"
          : `expected alphabetic or numeric character, but found ${pyRepr(this.ch())}`,
      );
    let version: [number, number] | undefined;
    let handle: string | undefined;
    // The two directives YAML 1.1 defines (`%YAML`, `%TAG`); names written as `%` plus name to read as directives.
    if (`%${name}` === "%YAML") version = this.scanVersion();
    else if (`%${name}` === "%TAG") handle = this.scanTagDirective();
    else if (this.libyaml) this.fail("found unknown directive name");
    else while (this.ch() !== "" && !isBreak(this.ch())) this.forward();
    const end = this.mark();
    this.skipToLineEnd();
    this.queue.push({ kind: "directive", start, end, name: handle ?? name, ...(version ? { version } : {}) });
  }

  /** Spaces (and, for libyaml, tabs) inside a directive's or block scalar header's line. */
  private skipBlanks(): void {
    while (this.ch() === " " || (this.libyaml && this.ch() === "\t")) this.forward();
  }

  private scanVersion(): [number, number] {
    this.skipBlanks();
    const major = this.scanVersionNumber();
    if (this.ch() !== ".")
      this.fail(
        this.libyaml
          ? "did not find expected digit or '.' character"
          : `expected a digit or '.', but found ${pyRepr(this.ch())}`,
      );
    this.forward();
    const minor = this.scanVersionNumber();
    if (!this.libyaml && !isSpaceOrEnd(this.ch()))
      this.fail(`expected a digit or ' ', but found ${pyRepr(this.ch())}`);
    return [major, minor];
  }

  private scanVersionNumber(): number {
    const from = this.pos;
    while (this.ch() >= "0" && this.ch() <= "9") {
      if (this.libyaml && this.pos - from === 9) this.fail("found extremely long version number");
      this.forward();
    }
    if (this.pos === from)
      this.fail(
        this.libyaml
          ? "did not find expected version number"
          : `expected a digit, but found ${pyRepr(this.ch())}`,
      );
    return Number(this.text.slice(from, this.pos));
  }

  private scanTagDirective(): string {
    this.skipBlanks();
    const handle = this.scanTagHandle(true);
    if (this.libyaml ? this.ch() !== " " && this.ch() !== "\t" : this.ch() !== " ")
      this.fail(
        this.libyaml ? "did not find expected whitespace" : `expected ' ', but found ${pyRepr(this.ch())}`,
      );
    this.skipBlanks();
    this.scanUri("directive");
    if (this.libyaml ? !isBlankOrEnd(this.ch()) : !isSpaceOrEnd(this.ch()))
      this.fail(
        this.libyaml
          ? "did not find expected whitespace or line break"
          : `expected ' ', but found ${pyRepr(this.ch())}`,
      );
    return handle;
  }

  private fetchBlockScalar(): void {
    this.allowSimpleKey = true;
    this.removeKey();
    const start = this.mark();
    this.forward();
    const increment = this.scanBlockHeader();
    const least = Math.max(this.indent + 1, 1);
    let indent: number;
    let last: ScanMark;
    if (increment === undefined) {
      // No indicator: the deepest indentation of the leading empty lines, or of the first content line.
      const leading = this.blockBreaks(0);
      indent = Math.max(least, leading.maxIndent);
      last = leading.mark;
    } else {
      indent = least + increment - 1;
      last = this.blockBreaks(indent).mark;
    }
    // A line at exactly the indentation continues the scalar; anything shorter ends it.
    while (this.column === indent && this.ch() !== "") {
      while (this.ch() !== "" && !isBreak(this.ch())) this.forward();
      this.skipLineBreak();
      last = this.blockBreaks(indent).mark;
    }
    this.queue.push({ kind: "scalar", start, end: last, plain: false });
  }

  /** Chomping and indentation indicators, then only blanks or a comment up to the line break. */
  private scanBlockHeader(): number | undefined {
    let increment: number | undefined;
    const zero = () =>
      this.fail(
        this.libyaml
          ? "found an indentation indicator equal to 0"
          : "expected indentation indicator in the range 1-9, but found 0",
      );
    for (let round = 0; round < 2; round++) {
      const c = this.ch();
      if ((c === "+" || c === "-") && (round === 0 || increment !== undefined)) this.forward();
      else if (c >= "0" && c <= "9" && increment === undefined) {
        if (c === "0") zero();
        increment = Number(c);
        this.forward();
      } else break;
    }
    if (!this.libyaml && !isSpaceOrEnd(this.ch()))
      this.fail(`expected chomping or indentation indicators, but found ${pyRepr(this.ch())}`);
    this.skipToLineEnd();
    return increment;
  }

  /**
   * Empty lines before (more of) a block scalar's content, read with indentation `indent` (0: not yet known, the
   * deepest indentation is measured). libyaml refuses a tab where indentation is still expected.
   */
  private blockBreaks(indent: number): { mark: ScanMark; maxIndent: number } {
    let mark = this.mark();
    let maxIndent = 0;
    for (;;) {
      while ((indent === 0 || this.column < indent) && this.ch() === " ") this.forward();
      if (this.column > maxIndent) maxIndent = this.column;
      if (this.libyaml && (indent === 0 || this.column < indent) && this.ch() === "\t")
        this.fail("found a tab character where an indentation space is expected");
      if (!isBreak(this.ch())) break;
      this.skipLineBreak();
      mark = this.mark();
    }
    return { mark, maxIndent };
  }

  private fetchQuoted(quote: string): void {
    this.saveKey();
    this.allowSimpleKey = false;
    const start = this.mark();
    const double = quote === '"';
    this.forward();
    for (;;) {
      if (this.libyaml && this.atDocumentIndicator()) this.fail("found unexpected document indicator");
      const c = this.ch();
      if (c === "") this.fail("found unexpected end of stream");
      if (c === quote && !(quote === "'" && this.ch(1) === "'")) break;
      if (c === "'" && quote === "'") this.forward(2);
      else if (double && c === "\\") this.scanEscape();
      else if (isBreak(c)) {
        this.skipLineBreak();
        if (!this.libyaml && this.atDocumentIndicator()) this.fail("found unexpected document separator");
      } else this.forward();
    }
    this.forward();
    this.queue.push({ kind: "scalar", start, end: this.mark(), plain: false });
  }

  private scanEscape(): void {
    const backslash = this.mark();
    this.forward();
    const c = this.ch();
    if (ESCAPES.includes(c) && c !== "") {
      this.forward();
      return;
    }
    const length = ESCAPE_LENGTH[c];
    if (length !== undefined) {
      this.forward();
      for (let k = 0; k < length; k++)
        if (!isHex(this.ch(k)))
          this.fail(
            this.libyaml
              ? "did not find expected hexdecimal number"
              : `expected escape sequence of ${length} hexadecimal numbers, but found ${pyRepr(this.ch(k))}`,
          );
      const code = Number.parseInt(this.text.slice(this.pos, this.pos + length), 16);
      if (this.libyaml && ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff))
        this.fail("found invalid Unicode character escape code");
      this.forward(length);
      return;
    }
    if (isBreak(c)) {
      this.skipLineBreak();
      if (!this.libyaml && this.atDocumentIndicator()) this.fail("found unexpected document separator");
      return;
    }
    // libyaml marks the backslash, PyYAML the character after it.
    if (this.libyaml) this.fail("found unknown escape character", backslash);
    this.fail(`found unknown escape character ${pyRepr(c)}`);
  }

  private fetchPlain(): void {
    this.saveKey();
    this.allowSimpleKey = false;
    const start = this.mark();
    let end = start;
    const indent = this.indent + 1;
    let leadingBreak = false;
    for (;;) {
      if (this.libyaml && this.atDocumentIndicator()) break;
      if (this.ch() === "#") break;
      let length = 0;
      for (;;) {
        const c = this.ch();
        if (isBlankOrEnd(c)) break;
        const next = this.ch(1);
        if (this.libyaml) {
          if (this.flowLevel > 0 && c === ":" && ",?[]{}".includes(next) && next !== "")
            this.fail("found unexpected ':'");
          if ((c === ":" && isBlankOrEnd(next)) || (this.flowLevel > 0 && ",[]{}".includes(c))) break;
        } else if (
          (c === ":" && (isBlankOrEnd(next) || (this.flowLevel > 0 && ",[]{}".includes(next)))) ||
          (this.flowLevel > 0 && ",?[]{}".includes(c))
        )
          break;
        this.forward();
        length++;
      }
      if (length === 0 && !this.libyaml) break;
      if (length > 0) {
        if (!this.libyaml) this.allowSimpleKey = false;
        leadingBreak = false;
        end = this.mark();
      }
      const c = this.ch();
      if (!(c === " " || c === "\t" || isBreak(c))) break;
      if (!this.libyaml && c === "\t") break;
      if (!this.plainSpaces(indent, () => (leadingBreak = true))) break;
      if (this.ch() === "#" || (this.flowLevel === 0 && this.column < indent)) break;
    }
    if (this.libyaml && leadingBreak) this.allowSimpleKey = true;
    this.queue.push({ kind: "scalar", start, end, plain: true });
  }

  /**
   * The white space after a piece of a plain scalar. False when the scalar ends here: PyYAML at a tab or at a
   * document marker after a line break (and when there was no white space at all).
   */
  private plainSpaces(indent: number, sawBreak: () => void): boolean {
    if (this.libyaml) {
      let breaks = false;
      while (this.ch() === " " || this.ch() === "\t" || isBreak(this.ch())) {
        if (this.ch() === "\t" && breaks && this.column < indent)
          this.fail("found a tab character that violates indentation");
        if (isBreak(this.ch())) {
          breaks = true;
          sawBreak();
          this.skipLineBreak();
        } else this.forward();
      }
      return true;
    }
    const from = this.pos;
    while (this.ch() === " ") this.forward();
    if (!isBreak(this.ch())) return this.pos > from;
    this.skipLineBreak();
    this.allowSimpleKey = true;
    if (this.atDocumentIndicator()) return false;
    while (this.ch() === " " || isBreak(this.ch())) {
      if (this.ch() === " ") this.forward();
      else {
        this.skipLineBreak();
        if (this.atDocumentIndicator()) return false;
      }
    }
    return true;
  }
}

/** Python's `repr` of one character, as PyYAML's messages quote it. */
export function pyRepr(ch: string): string {
  if (ch === "") return "'\\x00'";
  const named: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "'": "\\'", "\\": "\\\\" };
  if (named[ch] !== undefined) return ch === "'" ? `"'"` : `'${named[ch]}'`;
  return `'${ch}'`;
}
