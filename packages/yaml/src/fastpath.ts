import type { Node, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { mapNode, pairOf, scalarNode, seqNode } from "./nodes.js";

/**
 * A quick reader for the plain shape most configuration files have: block mappings and sequences, one-line plain
 * or quoted scalars, comments, and one-line flow collections of those. It builds the same syntax nodes as the
 * `yaml` package, several times faster. Whenever it meets anything else (tabs, anchors, tags, block scalars,
 * multi-line scalars, escapes, document markers, anything odd) it gives up and the full parser reads the text, so
 * it never decides a question of syntax on its own.
 */

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

interface Line {
  /** Offset of the first content character. */
  start: number;
  /** Column (0-based) of the first content character. */
  indent: number;
  /** Offset just past the last character of the line (before the line break). */
  end: number;
}

// Characters that may not start a plain scalar (PyYAML's check_plain), `-?:` being allowed before a non-space.
const NOT_PLAIN_START = "#,[]{}&*!|>'\"%@`";

export interface FastResult {
  readonly root: Node | null;
  readonly lineStarts: number[];
  /**
   * At least the deepest nesting the lexical depth check would measure (open flow brackets plus `-`/`?`
   * indicators on one line), so that check can be skipped when this is within the limit.
   */
  readonly lexicalDepth: number;
}

export function fastParse(text: string, maxDepth: number): FastResult | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  try {
    return new FastParser(text, maxDepth).parse();
  } catch (error) {
    if (error instanceof Bail) return undefined;
    throw error;
  }
}

class FastParser {
  private readonly text: string;
  private readonly maxDepth: number;
  private readonly lines: Line[] = [];
  private readonly lineStarts: number[] = [];
  private index = 0;
  private sawStart = false;
  /** Flow collections open now, and the most ever open at once. */
  private flowOpen = 0;
  private flowMax = 0;
  /** The longest run of `-`/`?` indicators starting a line. */
  private indicatorMax = 0;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  parse(): FastResult {
    const text = this.text;
    let pos = 0;
    while (pos <= text.length) {
      this.lineStarts.push(pos);
      let end = text.indexOf("\n", pos);
      if (end < 0) end = text.length;
      let i = pos;
      while (i < end && text.charCodeAt(i) === 32) i++;
      // Blank lines and whole-line comments carry nothing.
      if (i < end && text[i] !== "#") {
        if (text.startsWith("---", i) || text.startsWith("...", i)) {
          if (i === pos && (end - i === 3 || text[i + 3] === " ")) {
            // One `---` opening the only document is fine; anything else about documents goes to the full parser.
            const bare = /^---\s*(?:#.*)?$/.test(text.slice(i, end));
            if (!bare || text[i] !== "-" || this.lines.length > 0 || this.sawStart) bail();
            this.sawStart = true;
            if (end === text.length) break;
            pos = end + 1;
            continue;
          }
        }
        if (text[i] === "%" && i === pos) bail();
        this.countIndicators(i, end);
        this.lines.push({ start: i, indent: i - pos, end });
      }
      if (end === text.length) break;
      pos = end + 1;
    }
    if (this.lines.length === 0) {
      // `---` alone is a document holding null; nothing at all is no document.
      if (!this.sawStart) return { root: null, lineStarts: this.lineStarts, lexicalDepth: 0 };
      bail();
    }
    const first = this.lines[0]!;
    const c = text[first.start];
    if (c === "[" || c === "{") {
      // A document that is one flow collection (JSON): read across lines; if that reader gives up, the line
      // reader below may still take a one-line collection.
      try {
        const flow = new FlowReader(text, this.maxDepth);
        const node = flow.document(first.start);
        return { root: node, lineStarts: this.lineStarts, lexicalDepth: flow.deepest };
      } catch (error) {
        if (!(error instanceof Bail)) throw error;
      }
    }
    const root = this.block(first.indent, 0);
    if (this.index < this.lines.length) bail();
    return { root, lineStarts: this.lineStarts, lexicalDepth: this.flowMax + this.indicatorMax };
  }

  /** Counts the `-`/`?` indicators that open the line (`- - x`): the lexical depth check adds them up. */
  private countIndicators(start: number, end: number): void {
    const text = this.text;
    let n = 0;
    let i = start;
    while (i < end && (text[i] === "-" || text[i] === "?") && (i + 1 === end || text[i + 1] === " ")) {
      n++;
      i += 2;
      while (i < end && text.charCodeAt(i) === 32) i++;
    }
    if (n > this.indicatorMax) this.indicatorMax = n;
  }

  private block(indent: number, depth: number): Node {
    if (depth > this.maxDepth) bail();
    const line = this.lines[this.index]!;
    if (this.isSeqItem(line)) return this.sequence(indent, depth);
    const colon = this.keyEnd(line.start, line.end);
    if (colon >= 0) return this.mapping(indent, depth);
    // A lone scalar: only as the whole document.
    if (depth !== 0 || this.lines.length !== 1) bail();
    this.index++;
    return this.inline(line.start, line.end, depth);
  }

  private isSeqItem(line: Line): boolean {
    const text = this.text;
    return text[line.start] === "-" && (line.start + 1 === line.end || text[line.start + 1] === " ");
  }

  private sequence(indent: number, depth: number, indentless = false): YAMLSeq {
    const seq = seqNode(this.lines[this.index]!.start);
    while (this.index < this.lines.length) {
      const line = this.lines[this.index]!;
      if (line.indent < indent) break;
      // A sequence written at its key's column ends at the next key of that mapping.
      if (indentless && line.indent === indent && !this.isSeqItem(line)) break;
      if (line.indent > indent || !this.isSeqItem(line)) bail();
      let rest = line.start + 1;
      while (rest < line.end && this.text.charCodeAt(rest) === 32) rest++;
      if (rest >= line.end || this.text[rest] === "#") {
        if (rest < line.end && this.text[rest - 1] !== " ") bail();
        this.index++;
        seq.items.push(this.nested(indent, depth, false, rest));
        continue;
      }
      // `- key: value` or `- - x`: the rest of the line opens a collection at its own column.
      const column = line.indent + (rest - line.start);
      const sub: Line = { start: rest, indent: column, end: line.end };
      if (this.isSeqItem(sub) || this.keyEnd(rest, line.end) >= 0) {
        this.lines[this.index] = sub;
        seq.items.push(this.block(column, depth + 1));
        continue;
      }
      this.index++;
      seq.items.push(this.inline(rest, line.end, depth + 1));
      this.noDeeperLine(indent);
    }
    return seq;
  }

  /** The value of `key:` or `-` written on the following lines, or an empty (null) scalar. */
  private nested(indent: number, depth: number, inMapping: boolean, at: number): Node {
    const next = this.lines[this.index];
    if (next !== undefined && next.indent > indent) return this.block(next.indent, depth + 1);
    // A sequence may sit at its key's column (PyYAML writes them so).
    if (inMapping && next !== undefined && next.indent === indent && this.isSeqItem(next)) {
      return this.sequence(indent, depth + 1, true);
    }
    const empty = scalarNode("", "PLAIN", at, at);
    return empty;
  }

  /** After a one-line value, a more indented line would continue it (a multi-line scalar): not handled here. */
  private noDeeperLine(indent: number): void {
    const next = this.lines[this.index];
    if (next !== undefined && next.indent > indent) bail();
  }

  private mapping(indent: number, depth: number): YAMLMap {
    const map = mapNode(this.lines[this.index]!.start);
    while (this.index < this.lines.length) {
      const line = this.lines[this.index]!;
      if (line.indent < indent) break;
      if (line.indent > indent) bail();
      const colon = this.keyEnd(line.start, line.end);
      if (colon < 0) bail();
      const key = this.scalarAt(line.start, colon, true);
      let rest = colon + 1;
      while (rest < line.end && this.text.charCodeAt(rest) === 32) rest++;
      this.index++;
      let value: Node;
      if (rest >= line.end || this.text[rest] === "#") {
        if (rest < line.end && this.text[rest - 1] !== " ") bail();
        value = this.nested(indent, depth, true, rest);
      } else {
        value = this.inline(rest, line.end, depth + 1);
        this.noDeeperLine(indent);
      }
      map.items.push(pairOf(key, value));
    }
    return map;
  }

  /**
   * End of a simple key on this line: the offset of the `:` (followed by a space or the line end) that closes a
   * plain or quoted key; -1 when the line is not `key: ...`.
   */
  private keyEnd(start: number, end: number): number {
    const text = this.text;
    const c = text[start];
    if (c === "'" || c === '"') {
      const close = this.quoteEnd(start, end);
      if (close < 0) return -1;
      let i = close;
      while (i < end && text.charCodeAt(i) === 32) i++;
      if (text[i] === ":" && (i + 1 === end || text[i + 1] === " ")) return i;
      return -1;
    }
    if (c === "[" || c === "{") {
      // A one-line flow collection is a value here; followed by `:` it would be a (complex) key.
      const [, after] = this.flow(start, end, 0);
      let i = after;
      while (i < end && text.charCodeAt(i) === 32) i++;
      if (text[i] === ":") bail();
      return -1;
    }
    if (c === "?" || c === "&" || c === "*" || c === "!") {
      // Flow or complex keys, anchors, aliases and tags belong to the full parser.
      for (let i = start; i < end; i++) if (text[i] === ":") bail();
      return -1;
    }
    for (let i = start; i < end; i++) {
      const ch = text[i];
      if (ch === "#" && i > start && text[i - 1] === " ") return -1;
      if (ch === ":" && (i + 1 === end || text[i + 1] === " ")) {
        if (i - start > 1024) bail();
        return i;
      }
    }
    return -1;
  }

  /** Offset just past the closing quote of a one-line quoted scalar starting at `start`, or -1. */
  private quoteEnd(start: number, end: number): number {
    const text = this.text;
    const q = text[start];
    for (let i = start + 1; i < end; i++) {
      const ch = text[i];
      if (q === '"' && ch === "\\") bail();
      if (ch === q) {
        if (q === "'" && text[i + 1] === "'") {
          i++;
          continue;
        }
        return i + 1;
      }
    }
    return -1;
  }

  /** A scalar that is the whole of [start, end) (trailing spaces and a comment allowed after it). */
  private scalarAt(start: number, end: number, isKey: boolean): Scalar {
    const text = this.text;
    const c = text[start]!;
    if (c === "'" || c === '"') {
      const close = this.quoteEnd(start, end);
      if (close < 0) bail();
      if (!isKey) this.onlyComment(close, end);
      const raw = text.slice(start + 1, close - 1);
      const node = scalarNode(
        c === "'" ? raw.replace(/''/g, "'") : raw,
        c === "'" ? "QUOTE_SINGLE" : "QUOTE_DOUBLE",
        start,
        close,
      );
      return node;
    }
    this.checkPlainStart(start, end, false);
    let stop = end;
    for (let i = start + 1; i < end; i++) {
      if (text.charCodeAt(i) === 35 && text.charCodeAt(i - 1) === 32) {
        stop = i - 1;
        break;
      }
    }
    while (stop > start && text.charCodeAt(stop - 1) === 32) stop--;
    const value = text.slice(start, stop);
    // `a: b: c` and friends are errors for PyYAML: leave them to the full parser.
    if (!isKey && (value.includes(": ") || value.endsWith(":"))) bail();
    const node = scalarNode(value, "PLAIN", start, stop);
    return node;
  }

  private checkPlainStart(start: number, end: number, flow: boolean): void {
    const text = this.text;
    const c = text[start]!;
    if (NOT_PLAIN_START.includes(c)) bail();
    if ((c === "-" || c === "?" || c === ":") && (start + 1 >= end || text[start + 1] === " ")) bail();
    if (flow && (c === "-" || c === "?" || c === ":")) bail();
  }

  private onlyComment(from: number, end: number): void {
    const text = this.text;
    let i = from;
    while (i < end && text.charCodeAt(i) === 32) i++;
    if (i < end && text[i] !== "#") bail();
  }

  /** A value written on one line after `key: ` or `- `. */
  private inline(start: number, end: number, depth: number): Node {
    const c = this.text[start];
    if (c === "[" || c === "{") {
      const [node, after] = this.flow(start, end, depth);
      this.onlyComment(after, end);
      return node;
    }
    return this.scalarAt(start, end, false);
  }

  private skipSpaces(i: number, end: number): number {
    while (i < end && this.text.charCodeAt(i) === 32) i++;
    return i;
  }

  /** A one-line flow collection of scalars and flow collections; returns the node and the offset after it. */
  private flow(start: number, end: number, depth: number): [Node, number] {
    if (depth > this.maxDepth) bail();
    this.flowOpen++;
    if (this.flowOpen > this.flowMax) this.flowMax = this.flowOpen;
    const result = this.flowBody(start, end, depth);
    this.flowOpen--;
    return result;
  }

  private flowBody(start: number, end: number, depth: number): [Node, number] {
    const text = this.text;
    const isMap = text[start] === "{";
    const close = isMap ? "}" : "]";
    const node = isMap ? mapNode(start) : seqNode(start);
    node.flow = true;
    let i = this.skipSpaces(start + 1, end);
    if (text[i] === close) {
      node.range = [start, i + 1, i + 1];
      return [node, i + 1];
    }
    for (;;) {
      const itemStart = i;
      const [item, after] = this.flowItem(i, end, depth);
      i = this.skipSpaces(after, end);
      if (isMap) {
        // A simple key is at most 1,024 characters long (PyYAML, libyaml): longer ones go to the full parser.
        if (text[i] !== ":" || !(text[i + 1] === " ") || i - itemStart > 1000) bail();
        const [value, next] = this.flowItem(this.skipSpaces(i + 1, end), end, depth);
        (node as YAMLMap).items.push(pairOf(item, value));
        i = this.skipSpaces(next, end);
      } else {
        if (text[i] === ":") bail();
        (node as YAMLSeq).items.push(item);
      }
      if (text[i] === ",") {
        i = this.skipSpaces(i + 1, end);
        if (text[i] === close) bail();
        continue;
      }
      if (text[i] === close) {
        node.range = [start, i + 1, i + 1];
        return [node, i + 1];
      }
      bail();
    }
  }

  private flowItem(i: number, end: number, depth: number): [Node, number] {
    const text = this.text;
    const c = text[i];
    if (i >= end) bail();
    if (c === "[" || c === "{") return this.flow(i, end, depth + 1);
    if (c === "'" || c === '"') {
      const close = this.quoteEnd(i, end);
      if (close < 0) bail();
      const raw = text.slice(i + 1, close - 1);
      const node = scalarNode(
        c === "'" ? raw.replace(/''/g, "'") : raw,
        c === "'" ? "QUOTE_SINGLE" : "QUOTE_DOUBLE",
        i,
        close,
      );
      return [node, close];
    }
    this.checkPlainStart(i, end, true);
    let j = i;
    while (j < end) {
      const ch = text[j]!;
      if (ch === "," || ch === "[" || ch === "]" || ch === "{" || ch === "}" || ch === "?") break;
      if (ch === ":") break;
      if (ch === "#" && text[j - 1] === " ") bail();
      j++;
    }
    let stop = j;
    while (stop > i && text.charCodeAt(stop - 1) === 32) stop--;
    if (stop === i) bail();
    const node = scalarNode(text.slice(i, stop), "PLAIN", i, stop);
    return [node, j];
  }
}

const FLOW_END = new Set([" ", "\n", ",", "[", "]", "{", "}"]);
const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * A document that is a single flow collection spread over any number of lines, as JSON is: collections, one-line
 * quoted scalars (double-quoted ones with JSON's escapes only), and plain scalars of one word. Keys must end on
 * their own line with `:` (PyYAML's simple-key rule), values must be present, no comments, nothing after the
 * collection but blank lines. Anything else gives up, and the full parser reads the text.
 */
class FlowReader {
  private readonly text: string;
  private readonly maxDepth: number;
  private open = 0;
  /** Deepest nesting of flow collections met. */
  deepest = 0;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  document(start: number): Node {
    const text = this.text;
    const [node, after] = this.collection(start);
    for (let i = after; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch !== 32 && ch !== 10) bail();
    }
    return node;
  }

  /** Skips spaces and line breaks. */
  private space(i: number): number {
    const text = this.text;
    for (;;) {
      const ch = text.charCodeAt(i);
      if (ch !== 32 && ch !== 10) return i;
      i++;
    }
  }

  private collection(start: number): [Node, number] {
    this.open++;
    if (this.open > this.maxDepth) bail();
    if (this.open > this.deepest) this.deepest = this.open;
    const text = this.text;
    const isMap = text[start] === "{";
    const close = isMap ? "}" : "]";
    const node = isMap ? mapNode(start) : seqNode(start);
    node.flow = true;
    let i = this.space(start + 1);
    if (text[i] !== close) {
      for (;;) {
        if (isMap) {
          const c = text[i];
          if (c === "[" || c === "{") bail();
          const [key, afterKey] = this.item(i);
          let j = afterKey;
          while (text.charCodeAt(j) === 32) j++;
          // A simple key ends with `:` on its own line, within 1024 characters (PyYAML, libyaml).
          if (text[j] !== ":" || j - i > 1000) bail();
          // After a plain key the `:` needs a space (`a:1` is one scalar); JSON's quoted keys need none.
          if (key.type === "PLAIN" && text[j + 1] !== " " && text[j + 1] !== "\n") bail();
          const v = this.space(j + 1);
          if (text[v] === "," || text[v] === "}") bail();
          const [value, afterValue] = this.item(v);
          (node as YAMLMap).items.push(pairOf(key, value));
          i = this.space(afterValue);
        } else {
          const [item, afterItem] = this.item(i);
          (node as YAMLSeq).items.push(item);
          i = this.space(afterItem);
        }
        if (text[i] === ",") {
          i = this.space(i + 1);
          if (text[i] === close || text[i] === ",") bail();
          continue;
        }
        if (text[i] === close) break;
        bail();
      }
    }
    node.range = [start, i + 1, i + 1];
    this.open--;
    return [node, i + 1];
  }

  /** A collection or a scalar starting at `i`; returns it and the offset after it. */
  private item(i: number): [Node & { type?: Scalar.Type }, number] {
    const text = this.text;
    const c = text[i];
    if (c === "[" || c === "{") return this.collection(i);
    if (c === '"') return this.doubleQuoted(i);
    if (c === "'") return this.singleQuoted(i);
    if (c === undefined || NOT_PLAIN_START.includes(c) || c === "?" || c === ":" || FLOW_END.has(c)) bail();
    if (c === "-" && FLOW_END.has(text[i + 1] ?? " ")) bail();
    let j = i + 1;
    for (;;) {
      const ch = text[j];
      if (ch === undefined || FLOW_END.has(ch) || ch === ":") break;
      if (ch === "#" || ch === "?") bail();
      j++;
    }
    return [this.scalar(text.slice(i, j), "PLAIN", i, j), j];
  }

  private scalar(source: string, type: Scalar.Type, start: number, end: number): Scalar {
    const node = scalarNode(source, type, start, end);
    return node;
  }

  private singleQuoted(start: number): [Scalar, number] {
    const text = this.text;
    let i = start + 1;
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch === "\n") bail();
      if (ch === "'") {
        if (text[i + 1] !== "'") break;
        i++;
      }
      i++;
    }
    const raw = text.slice(start + 1, i);
    return [this.scalar(raw.replace(/''/g, "'"), "QUOTE_SINGLE", start, i + 1), i + 1];
  }

  private doubleQuoted(start: number): [Scalar, number] {
    const text = this.text;
    let value = "";
    let from = start + 1;
    let i = from;
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch === "\n") bail();
      if (ch === '"') break;
      if (ch === "\\") {
        const e = text[i + 1]!;
        let decoded = JSON_ESCAPES[e];
        let length = 2;
        if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) bail();
          const code = Number.parseInt(hex, 16);
          // A surrogate is refused by libyaml (the salt flavour): the full path knows the flavour.
          if (code >= 0xd800 && code <= 0xdfff) bail();
          decoded = String.fromCharCode(code);
          length = 6;
        }
        if (decoded === undefined) bail();
        value += text.slice(from, i) + decoded;
        i += length;
        from = i;
        continue;
      }
      i++;
    }
    value = from === start + 1 ? text.slice(from, i) : value + text.slice(from, i);
    return [this.scalar(value, "QUOTE_DOUBLE", start, i + 1), i + 1];
  }
}
