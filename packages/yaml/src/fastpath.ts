import { type Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";

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
        this.lines.push({ start: i, indent: i - pos, end });
      }
      if (end === text.length) break;
      pos = end + 1;
    }
    if (this.lines.length === 0) {
      // `---` alone is a document holding null; nothing at all is no document.
      if (!this.sawStart) return { root: null, lineStarts: this.lineStarts };
      bail();
    }
    const first = this.lines[0]!;
    const root = this.block(first.indent, 0);
    if (this.index < this.lines.length) bail();
    return { root, lineStarts: this.lineStarts };
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
    const seq = new YAMLSeq();
    const first = this.lines[this.index]!;
    seq.range = [first.start, first.start, first.start];
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
    const empty = new Scalar(null);
    empty.source = "";
    empty.type = "PLAIN";
    empty.range = [at, at, at];
    return empty;
  }

  /** After a one-line value, a more indented line would continue it (a multi-line scalar): not handled here. */
  private noDeeperLine(indent: number): void {
    const next = this.lines[this.index];
    if (next !== undefined && next.indent > indent) bail();
  }

  private mapping(indent: number, depth: number): YAMLMap {
    const map = new YAMLMap();
    const first = this.lines[this.index]!;
    map.range = [first.start, first.start, first.start];
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
      map.items.push(new Pair(key, value));
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
      const node = new Scalar(null);
      node.source = c === "'" ? raw.replace(/''/g, "'") : raw;
      node.type = c === "'" ? "QUOTE_SINGLE" : "QUOTE_DOUBLE";
      node.range = [start, close, close];
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
    const node = new Scalar(null);
    node.source = value;
    node.type = "PLAIN";
    node.range = [start, stop, stop];
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
    const text = this.text;
    const isMap = text[start] === "{";
    const close = isMap ? "}" : "]";
    const node = isMap ? new YAMLMap() : new YAMLSeq();
    node.flow = true;
    let i = this.skipSpaces(start + 1, end);
    if (text[i] === close) {
      node.range = [start, i + 1, i + 1];
      return [node, i + 1];
    }
    for (;;) {
      const [item, after] = this.flowItem(i, end, depth);
      i = this.skipSpaces(after, end);
      if (isMap) {
        if (text[i] !== ":" || !(text[i + 1] === " ")) bail();
        const [value, next] = this.flowItem(this.skipSpaces(i + 1, end), end, depth);
        (node as YAMLMap).items.push(new Pair(item, value));
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
      const node = new Scalar(null);
      node.source = c === "'" ? raw.replace(/''/g, "'") : raw;
      node.type = c === "'" ? "QUOTE_SINGLE" : "QUOTE_DOUBLE";
      node.range = [i, close, close];
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
    const node = new Scalar(null);
    node.source = text.slice(i, stop);
    node.type = "PLAIN";
    node.range = [i, stop, stop];
    return [node, j];
  }
}
