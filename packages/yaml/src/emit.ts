import { analyzeScalar, type Chars, type ScalarAnalysis, sliceChars } from "./analyze.js";
import type { YMap, YNode, YScalar, YSeq } from "./represent.js";

/** Formatting settings of PyYAML's `Emitter`. */
export interface EmitOptions {
  readonly indent: number;
  readonly width: number;
  readonly allowUnicode: boolean;
  readonly libyaml: boolean;
  readonly explicitStart: boolean;
  readonly explicitEnd: boolean;
  /**
   * The comment for the node at a path (mapping keys as given, list indexes as numbers), written on its line in
   * block context; undefined or "" for none. The root node gets none.
   */
  readonly comment?: (path: readonly unknown[]) => string | undefined;
}

type Style = "" | "'" | '"' | "|" | ">";

const BREAK_CHARS = "\n\u0085\u2028\u2029";
const ESCAPES: Record<string, string> = {
  "\0": "0",
  "\x07": "a",
  "\x08": "b",
  "\x09": "t",
  "\x0A": "n",
  "\x0B": "v",
  "\x0C": "f",
  "\x0D": "r",
  "\x1B": "e",
  '"': '"',
  "\\": "\\",
  "\u0085": "N",
  "\u00A0": "_",
  "\u2028": "L",
  "\u2029": "P",
};

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, "0");
}

function prepareTag(tag: string): string {
  if (tag.startsWith("tag:yaml.org,2002:") && tag.length > "tag:yaml.org,2002:".length) {
    return `!!${tag.slice("tag:yaml.org,2002:".length)}`;
  }
  return tag.startsWith("!") ? tag : `!<${tag}>`;
}

/** How many writes the emitter keeps as pieces before joining them (see `Emitter.pieces`). */
const PIECES = 1024;

/**
 * A port of the behaviour of PyYAML's `Emitter` (indentation, indicator spacing, line wrapping at `width`, scalar
 * style choice) driven by recursion over the node graph instead of an event queue.
 */
export class Emitter {
  private readonly o: EmitOptions;
  private readonly bestIndent: number;
  private readonly bestWidth: number;
  /**
   * The text written so far, in pieces: joined into one string every `PIECES` writes. A string grown a piece at a
   * time is a rope whose every node lives until the end, and a large document (`--explain` writes a comment on every
   * line) made of millions of them keeps the garbage collector copying them; joined, the pieces die young.
   */
  private readonly pieces: string[] = [];
  private readonly joined: string[] = [];

  /** The text written so far. */
  get out(): string {
    this.joined.push(this.pieces.join(""));
    this.pieces.length = 0;
    const text = this.joined.join("");
    this.joined.length = 0;
    this.joined.push(text);
    return text;
  }

  private put(data: string): void {
    const pieces = this.pieces;
    pieces.push(data);
    if (pieces.length === PIECES) {
      this.joined.push(pieces.join(""));
      pieces.length = 0;
    }
  }
  private column = 0;
  private whitespace = true;
  private indention = true;
  private openEnded = false;
  private indent: number | null = null;
  private readonly indents: (number | null)[] = [];
  private flowLevel = 0;
  private rootContext = false;
  private mappingContext = false;
  private simpleKeyContext = false;
  private readonly anchors: Map<YNode, string | null>;
  private readonly emitted = new Set<YNode>();
  /** Where the emitter is, for `comment`: keys and indexes from the root. */
  private readonly path: unknown[] = [];
  /** A comment for the scalar being written: a block scalar takes it on its header line. */
  private pendingComment: string | undefined;

  constructor(options: EmitOptions, anchors: Map<YNode, string | null>) {
    this.o = options;
    this.bestIndent = options.indent > 1 && options.indent < 10 ? options.indent : 2;
    this.bestWidth = options.width > this.bestIndent * 2 ? options.width : 80;
    this.anchors = anchors;
  }

  /** One document: `---` when asked for, the root node, and `...` when asked for or after a plain root scalar. */
  document(root: YNode): string {
    if (this.o.explicitStart) {
      this.writeIndent();
      this.writeIndicator("---", true);
    }
    this.node(root, true, false, false);
    this.writeIndent();
    if (this.o.explicitEnd) {
      this.writeIndicator("...", true);
      this.writeIndent();
    }
    if (this.openEnded) {
      this.writeIndicator("...", true);
      this.writeIndent();
    }
    return this.out;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent === null) this.indent = flow ? this.bestIndent : 0;
    else if (!indentless) this.indent += this.bestIndent;
  }

  /** PyYAML's `expect_node`: the contexts that matter are root, mapping (value or key) and simple key. */
  private node(node: YNode, root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootContext = root;
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    const anchor = this.anchors.get(node) ?? null;
    if (anchor !== null && this.emitted.has(node)) {
      this.writeIndicator(`*${anchor}`, true);
      return;
    }
    this.emitted.add(node);
    if (anchor !== null) this.writeIndicator(`&${anchor}`, true);
    if (node.kind === "scalar") {
      const analysis = analyzeScalar(node.value, this.o);
      const style = this.chooseStyle(node, analysis);
      if (!((style === "" && node.implicit[0]) || (style !== "" && node.implicit[1]))) {
        // libyaml marks a quoted scalar whose tag the resolver would find in plain text with the bare `!`.
        this.writeIndicator(this.o.libyaml && node.implicit[0] ? "!" : prepareTag(node.tag), true);
      }
      this.increaseIndent(true, false);
      this.scalar(analysis, style);
      this.indent = this.indents.pop() ?? null;
      return;
    }
    const implicit = node.tag === (node.kind === "seq" ? "tag:yaml.org,2002:seq" : "tag:yaml.org,2002:map");
    if (!implicit) this.writeIndicator(prepareTag(node.tag), true);
    if (node.kind === "seq") {
      if (this.flowLevel > 0 || node.flow || node.items.length === 0) this.flowSequence(node);
      else this.blockSequence(node);
    } else if (this.flowLevel > 0 || node.flow || node.pairs.length === 0) this.flowMapping(node);
    else this.blockMapping(node);
  }

  private flowSequence(node: YSeq): void {
    this.writeIndicator("[", true, true);
    this.flowLevel++;
    this.increaseIndent(true, false);
    node.items.forEach((item, index) => {
      if (index > 0) this.writeIndicator(",", false);
      if (this.column > this.bestWidth) this.writeIndent();
      this.node(item, false, false, false);
    });
    this.indent = this.indents.pop() ?? null;
    this.flowLevel--;
    this.writeIndicator("]", false);
  }

  private flowMapping(node: YMap): void {
    this.writeIndicator("{", true, true);
    this.flowLevel++;
    this.increaseIndent(true, false);
    node.pairs.forEach(([key, value], index) => {
      if (index > 0) this.writeIndicator(",", false);
      if (this.column > this.bestWidth) this.writeIndent();
      if (this.checkSimpleKey(key)) {
        this.node(key, false, true, true);
        this.writeIndicator(":", false);
        this.node(value, false, true, false);
      } else {
        this.writeIndicator("?", true);
        this.node(key, false, true, false);
        if (this.column > this.bestWidth) this.writeIndent();
        this.writeIndicator(":", true);
        this.node(value, false, true, false);
      }
    });
    this.indent = this.indents.pop() ?? null;
    this.flowLevel--;
    this.writeIndicator("}", false);
  }

  private blockSequence(node: YSeq): void {
    // A sequence that is a mapping value starts at its key's column (PyYAML's "indentless" sequence).
    const indentless = this.mappingContext && !this.indention;
    this.increaseIndent(false, indentless);
    node.items.forEach((item, index) => {
      this.path.push(index);
      const comment = this.commentHere();
      this.writeIndent();
      this.writeIndicator("-", true, false, true);
      this.nodeWithComment(item, comment, false, false);
      this.path.pop();
    });
    this.indent = this.indents.pop() ?? null;
  }

  private blockMapping(node: YMap): void {
    this.increaseIndent(false, false);
    node.pairs.forEach(([key, value], index) => {
      this.path.push(node.keys?.[index]);
      const comment = node.keys === undefined ? undefined : this.commentHere();
      this.writeIndent();
      if (this.checkSimpleKey(key)) {
        this.node(key, false, true, true);
        this.writeIndicator(":", false);
        this.nodeWithComment(value, comment, true, false);
      } else {
        // A complex key spans lines: its comment gets a line of its own, above the `?`.
        if (comment !== undefined) {
          this.writeComment(comment);
          this.writeIndent();
        }
        this.writeIndicator("?", true, false, true);
        this.node(key, false, true, false);
        this.writeIndent();
        this.writeIndicator(":", true, false, true);
        this.node(value, false, true, false);
      }
      this.path.pop();
    });
    this.indent = this.indents.pop() ?? null;
  }

  /** The comment for the node at `path` (block context only). */
  private commentHere(): string | undefined {
    if (this.o.comment === undefined || this.flowLevel > 0) return undefined;
    const text = this.o.comment(this.path);
    return text === undefined || text === "" ? undefined : text;
  }

  /**
   * A child node with its comment: after a block collection's indicator (`key: # ...`, `- # ...`) when the child
   * is a block mapping or sequence, on the header line of a block scalar, else after the node on its last line.
   */
  private nodeWithComment(
    node: YNode,
    comment: string | undefined,
    mapping: boolean,
    simpleKey: boolean,
  ): void {
    if (comment === undefined || this.o.comment === undefined) {
      this.node(node, false, mapping, simpleKey);
      return;
    }
    if (this.isBlockCollection(node)) {
      this.writeComment(comment);
      this.node(node, false, mapping, simpleKey);
      return;
    }
    this.pendingComment = comment;
    this.node(node, false, mapping, simpleKey);
    if (this.pendingComment !== undefined) this.writeComment(this.pendingComment);
    this.pendingComment = undefined;
  }

  private isBlockCollection(node: YNode): boolean {
    if (node.kind === "scalar" || this.flowLevel > 0 || node.flow) return false;
    if ((this.anchors.get(node) ?? null) !== null && this.emitted.has(node)) return false;
    return node.kind === "seq" ? node.items.length > 0 : node.pairs.length > 0;
  }

  /** ` # text` where the emitter stands; `text` made one line PyYAML and libyaml read as a comment. */
  private writeComment(text: string): void {
    const data = `${this.whitespace ? "" : " "}# ${commentText(text)}`;
    this.raw(data, codePoints(data));
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * Whether a key can be written `key: value` rather than `? key`. PyYAML counts code points plus the anchor and
   * the tag (which its serializer always passes) and wants fewer than 128; libyaml counts UTF-8 bytes plus the
   * anchor and only a tag it will print, and accepts up to 128.
   */
  private checkSimpleKey(node: YNode): boolean {
    const anchor = this.anchors.get(node) ?? null;
    const libyaml = this.o.libyaml;
    let length = anchor === null ? 0 : anchor.length;
    if (anchor !== null && this.emitted.has(node)) return libyaml ? length <= 128 : length < 128;
    let simple: boolean;
    if (node.kind === "scalar") {
      const analysis = analyzeScalar(node.value, this.o);
      const shown = !(node.implicit[0] || node.implicit[1]);
      if (!libyaml || shown) length += prepareTag(node.tag).length;
      length += libyaml ? Buffer.byteLength(node.value, "utf8") : analysis.chars.length;
      // libyaml accepts the empty string (`'': v`), PyYAML writes `? ''`.
      simple = (libyaml || !analysis.empty) && !analysis.multiline;
    } else {
      const implicit = node.tag === (node.kind === "seq" ? "tag:yaml.org,2002:seq" : "tag:yaml.org,2002:map");
      if (!libyaml || !implicit) length += prepareTag(node.tag).length;
      simple = node.kind === "seq" ? node.items.length === 0 : node.pairs.length === 0;
    }
    return simple && (libyaml ? length <= 128 : length < 128);
  }

  private chooseStyle(node: YScalar, analysis: ScalarAnalysis): Style {
    if (node.style === undefined && node.implicit[0]) {
      if (
        !(this.simpleKeyContext && (analysis.empty || analysis.multiline)) &&
        (this.flowLevel > 0 ? analysis.allowFlowPlain : analysis.allowBlockPlain)
      ) {
        return "";
      }
    }
    if (node.style === "|") {
      if (this.flowLevel === 0 && !this.simpleKeyContext && analysis.allowBlock) return "|";
    }
    if (node.style === undefined) {
      if (analysis.allowSingleQuoted && !(this.simpleKeyContext && analysis.multiline)) return "'";
    }
    return '"';
  }

  private scalar(analysis: ScalarAnalysis, style: Style): void {
    const split = !this.simpleKeyContext;
    const chars = analysis.chars;
    if (style === '"') writeDoubleQuoted(this, chars, split);
    else if (style === "'") writeSingleQuoted(this, chars, split);
    else if (style === "|") this.writeLiteral(chars);
    else this.writePlain(chars, split);
  }

  // Writers, shared with the quoting helpers through this small surface.

  get currentColumn(): number {
    return this.column;
  }
  get width(): number {
    return this.bestWidth;
  }
  get allowUnicode(): boolean {
    return this.o.allowUnicode;
  }
  get libyaml(): boolean {
    return this.o.libyaml;
  }

  raw(data: string, length: number): void {
    this.column += length;
    this.put(data);
  }

  writeIndicator(indicator: string, needWhitespace: boolean, whitespace = false, indention = false): void {
    const data = this.whitespace || !needWhitespace ? indicator : ` ${indicator}`;
    this.whitespace = whitespace;
    this.indention = this.indention && indention;
    this.column += codePoints(data);
    this.openEnded = false;
    this.put(data);
  }

  writeIndent(): void {
    const indent = this.indent ?? 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.writeLineBreak();
    }
    if (this.column < indent) {
      this.whitespace = true;
      this.put(" ".repeat(indent - this.column));
      this.column = indent;
    }
  }

  writeLineBreak(data = "\n"): void {
    this.whitespace = true;
    this.indention = true;
    this.column = 0;
    this.put(data);
  }

  clearWhitespace(): void {
    this.whitespace = false;
    this.indention = false;
  }

  private writePlain(chars: Chars, split: boolean): void {
    // PyYAML ends a document whose root is a plain scalar with `...`; libyaml does not.
    if (this.rootContext && !this.o.libyaml) this.openEnded = true;
    if (chars.length === 0) return;
    if (!this.whitespace) this.raw(" ", 1);
    this.whitespace = false;
    this.indention = false;
    // Runs of other characters are found with indexOf rather than a character at a time: this runs for every plain
    // scalar written, and mostly while the code is still cold.
    const length = chars.length;
    let start = 0;
    while (start < length) {
      if (chars[start] === " ") {
        let end = start + 1;
        while (end < length && chars[end] === " ") end++;
        // PyYAML breaks the line at a single space once the column is past the width.
        if (end === start + 1 && this.column > this.bestWidth && split) {
          this.writeIndent();
          this.whitespace = false;
          this.indention = false;
        } else {
          this.raw(sliceChars(chars, start, end), end - start);
        }
        start = end;
      } else {
        const space = chars.indexOf(" ", start);
        const end = space < 0 ? length : space;
        this.raw(sliceChars(chars, start, end), end - start);
        start = end;
      }
    }
  }

  private writeLiteral(chars: Chars): void {
    const hints = blockHints(chars, this.bestIndent);
    this.writeIndicator(`|${hints}`, true);
    if (hints.endsWith("+")) this.openEnded = true;
    if (this.pendingComment !== undefined) {
      this.writeComment(this.pendingComment);
      this.pendingComment = undefined;
    }
    this.writeLineBreak();
    let breaks = true;
    let start = 0;
    for (let end = 0; end <= chars.length; end++) {
      const ch = end < chars.length ? chars[end] : undefined;
      if (breaks) {
        if (ch === undefined || !BREAK_CHARS.includes(ch)) {
          for (const br of sliceChars(chars, start, end)) this.writeLineBreak(br);
          if (ch !== undefined) this.writeIndent();
          start = end;
        }
      } else if (ch === undefined || BREAK_CHARS.includes(ch)) {
        this.put(sliceChars(chars, start, end));
        if (ch === undefined) this.writeLineBreak();
        start = end;
      }
      if (ch !== undefined) breaks = BREAK_CHARS.includes(ch);
    }
  }
}

/**
 * How many code points `text` has (`Array.from(text).length`: a surrogate pair is one, a lone surrogate one too),
 * without an array of them: `--explain` writes a comment on every line.
 */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * Comment text that stays a comment: PyYAML ends a comment at any of its line breaks (LF, CR, NEL, U+2028, U+2029)
 * and refuses a stream holding a character it cannot print (C0 and C1 controls, DEL, U+FFFE, U+FFFF, unpaired
 * surrogates); those are written as escapes (`\n`, `\x1b`, `\u2028`). A BOM is escaped too (libyaml's reader is
 * stricter about it).
 */
export function commentText(text: string): string {
  // Most comments are printable ASCII and tabs, with nothing to escape: `--explain` writes one on every line.
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code > 0x7e) {
      plain = false;
      break;
    }
  }
  if (plain) return text;
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (char) => {
      if (char === "\n") return "\\n";
      if (char === "\r") return "\\r";
      const code = char.charCodeAt(0);
      return code < 0x100 ? `\\x${hex(code, 2).toLowerCase()}` : `\\u${hex(code, 4).toLowerCase()}`;
    },
  );
}

function blockHints(chars: Chars, indent: number): string {
  let hints = "";
  if (chars.length > 0) {
    if (` ${BREAK_CHARS}`.includes(chars[0]!)) hints += String(indent);
    if (!BREAK_CHARS.includes(chars[chars.length - 1]!)) hints += "-";
    else if (chars.length === 1 || BREAK_CHARS.includes(chars[chars.length - 2]!)) hints += "+";
  }
  return hints;
}

/** `Emitter.write_single_quoted`: quotes doubled, a line break written as a blank line, wrapping at spaces. */
export function writeSingleQuoted(e: Emitter, chars: Chars, split: boolean): void {
  e.writeIndicator("'", true);
  let spaces = false;
  let breaks = false;
  let start = 0;
  for (let end = 0; end <= chars.length; end++) {
    const ch = end < chars.length ? chars[end] : undefined;
    if (spaces) {
      if (ch === undefined || ch !== " ") {
        if (start + 1 === end && e.currentColumn > e.width && split && start !== 0 && end !== chars.length) {
          e.writeIndent();
        } else {
          e.raw(sliceChars(chars, start, end), end - start);
        }
        start = end;
      }
    } else if (breaks) {
      if (ch === undefined || !BREAK_CHARS.includes(ch)) {
        if (chars[start] === "\n") e.writeLineBreak();
        for (const br of sliceChars(chars, start, end)) e.writeLineBreak(br);
        e.writeIndent();
        start = end;
      }
    } else if (ch === undefined || ` ${BREAK_CHARS}`.includes(ch) || ch === "'") {
      if (start < end) {
        e.raw(sliceChars(chars, start, end), end - start);
        start = end;
      }
    }
    if (ch === "'") {
      e.raw("''", 2);
      start = end + 1;
    }
    if (ch !== undefined) {
      spaces = ch === " ";
      breaks = BREAK_CHARS.includes(ch);
    }
  }
  e.writeIndicator("'", false);
}

function isPlainDoubleChar(cp: number, allowUnicode: boolean): boolean {
  if (cp >= 0x20 && cp <= 0x7e) return true;
  return allowUnicode && ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd));
}

/** `Emitter.write_double_quoted`: escapes, `\x`/`\u`/`\U` for the rest, wrapping with `\` at spaces. */
export function writeDoubleQuoted(
  e: Emitter,
  chars: Chars,
  split: boolean,
  allowUnicode = e.allowUnicode,
): void {
  if (e.libyaml) {
    writeDoubleQuotedLibyaml(e, chars, split, allowUnicode);
    return;
  }
  e.writeIndicator('"', true);
  let start = 0;
  for (let end = 0; end <= chars.length; end++) {
    const ch = end < chars.length ? chars[end] : undefined;
    const cp = ch === undefined ? -1 : ch.codePointAt(0)!;
    if (
      ch === undefined ||
      '"\\\u0085\u2028\u2029\uFEFF'.includes(ch) ||
      !isPlainDoubleChar(cp, allowUnicode)
    ) {
      if (start < end) {
        e.raw(sliceChars(chars, start, end), end - start);
        start = end;
      }
      if (ch !== undefined) {
        const data = escapeChar(ch, cp);
        e.raw(data, data.length);
        start = end + 1;
      }
    }
    if (
      end > 0 &&
      end < chars.length - 1 &&
      (ch === " " || start >= end) &&
      e.currentColumn + (end - start) > e.width &&
      split
    ) {
      const data = `${sliceChars(chars, start, end)}\\`;
      const length = (start < end ? end - start : 0) + 1;
      if (start < end) start = end;
      e.raw(data, length);
      e.writeIndent();
      e.clearWhitespace();
      if (chars[start] === " ") e.raw("\\", 1);
    }
  }
  e.writeIndicator('"', false);
}

function escapeChar(ch: string, cp: number): string {
  if (ESCAPES[ch] !== undefined) return `\\${ESCAPES[ch]}`;
  return cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
}

/**
 * libyaml's double-quoted writer (Salt dumps with `CSafeDumper`): same escapes, but it only folds lines at a single
 * space, which the line break replaces (no trailing backslash).
 */
function writeDoubleQuotedLibyaml(e: Emitter, chars: Chars, split: boolean, allowUnicode: boolean): void {
  e.writeIndicator('"', true);
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if ('"\\\u0085\u2028\u2029\uFEFF\r'.includes(ch) || !isPlainDoubleChar(cp, allowUnicode)) {
      const data = escapeChar(ch, cp);
      e.raw(data, data.length);
      spaces = false;
    } else if (ch === " ") {
      if (split && !spaces && e.currentColumn > e.width && i !== 0 && i !== chars.length - 1) {
        e.writeIndent();
        if (chars[i + 1] === " ") e.raw("\\", 1);
      } else {
        e.raw(" ", 1);
      }
      spaces = true;
    } else {
      e.raw(ch, 1);
      spaces = false;
    }
  }
  e.writeIndicator('"', false);
}
