import { type MappingKey, PyDict } from "@merge/core";
import { DEFAULT_MAX_NODES } from "@merge/yaml";

/*
 * A templated stack file usually changes in one place from host to host (`id: {{ minion_id }}` under one key) while
 * the rest of its rendered text stays the same. Cut at its top-level keys, such a text is read piece by piece: a
 * piece seen in the file's previous text keeps its value, and only the changed ones go to the YAML reader. In a
 * batch of hosts that is most of the reading of templated files (see bench/analysis.md).
 *
 * The cut is made only where each piece is read alone as it is read within the whole text:
 * - every line that starts in the first column is a comment, a simple key followed by `:` and a space or the end of
 *   the line, or (after the first key) an item of a sequence written flush left under its key. No quoted or
 *   explicit key, `<<`, `---`, `...` or `%` directive: each piece is one entry of the top-level mapping, and it
 *   ends where YAML ends it (a nested value, a block scalar and a plain scalar all need deeper lines);
 * - no line break other than `\n` (YAML also breaks lines at `\r`, NEL and the Unicode separators), no byte-order
 *   mark, and no `&` or `*` anywhere: an anchor and its aliases may sit in different pieces, two pieces may repeat
 *   an anchor (which PyYAML refuses), and aliases may make a text larger than the reader's node budget;
 * - a quoted scalar or flow collection that runs past a cut leaves its piece unterminated, which the reader refuses.
 *   Any piece refused, or two pieces with equal keys (Python equality: `yes` and `true`), and the whole text is read
 *   at once, so that errors and their lines are the whole text's.
 */

/** One piece's key and value, as the reader gave them. */
export interface PieceValue {
  readonly key: MappingKey;
  readonly value: unknown;
}

/** Reads one text into a value (the YAML reader with the loader's options). */
export type ReadPiece = (text: string) => unknown;

// A simple key at the start of a line: letters, digits and a few marks, then `:` and a space or the line's end.
const KEY_LINE = /^[A-Za-z0-9_][A-Za-z0-9_./@+-]*:(?: |$)/;
/**
 * The longest text cut. Without aliases a text of n characters holds at most about 1.5 n nodes (`a:` is a mapping, a
 * key and a null), so below this length neither the whole text nor any piece reaches the reader's node budget, and a
 * text the reader refuses as too large whole is never read piece by piece.
 */
const MOST_CUT = DEFAULT_MAX_NODES / 2;

// Line breaks YAML knows besides `\n`, the byte-order mark, and the marks of anchors and aliases.
const NOT_CUT = /[\r\x85\u2028\u2029\uFEFF&*]/;

/**
 * The text cut before each top-level key line, or undefined when it cannot be cut safely (see above) or holds fewer
 * than two keys. Blank and comment lines before the first key go with the first piece.
 */
export function topLevelPieces(text: string): string[] | undefined {
  if (text.length >= MOST_CUT || NOT_CUT.test(text)) return undefined;
  const starts: number[] = [];
  let keyed = false;
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\n", at);
    const next = end < 0 ? text.length : end + 1;
    const first = text.charCodeAt(at);
    if (first === 0x23 /* # */ || first === 0x0a /* \n */) {
      // A comment or an empty line: part of the piece it follows.
    } else if (first === 0x20 /* space */) {
      // A deeper line; before the first key only a blank or comment line may start with spaces.
      if (!keyed && !/^ *(?:#.*)?$/.test(text.slice(at, end < 0 ? text.length : end))) return undefined;
    } else if (KEY_LINE.test(text.slice(at, end < 0 ? text.length : end))) {
      starts.push(keyed ? at : 0);
      keyed = true;
    } else if (!(keyed && first === 0x2d /* - */ && (next === at + 2 || text.charCodeAt(at + 1) === 0x20))) {
      return undefined;
    }
    at = next;
  }
  if (starts.length < 2) return undefined;
  const pieces: string[] = [];
  for (let i = 0; i < starts.length; i++) pieces.push(text.slice(starts[i], starts[i + 1] ?? text.length));
  return pieces;
}

/**
 * The pieces of a text read whole, with their values: `doc` must be what the reader gave for `text`. Undefined when
 * the text cannot be cut or the document is not a mapping of one key per piece.
 */
export function piecesOfDocument(text: string, doc: unknown): Map<string, PieceValue> | undefined {
  if (!(doc instanceof PyDict)) return undefined;
  const pieces = topLevelPieces(text);
  if (pieces === undefined || pieces.length !== doc.size) return undefined;
  const out = new Map<string, PieceValue>();
  const keys = doc.keyList();
  for (let i = 0; i < pieces.length; i++) out.set(pieces[i]!, { key: keys[i]!, value: doc.get(keys[i]) });
  return out;
}

/**
 * Reads `text` piece by piece, taking the value of each piece found in `known` (the pieces of the file's previous
 * text) and reading the others alone. Gives the document and the new text's pieces, or undefined when the text must
 * be read whole (it cannot be cut, a piece is refused or is not one entry, or two pieces have equal keys).
 */
export function readByPieces(
  text: string,
  known: ReadonlyMap<string, PieceValue>,
  read: ReadPiece,
): { doc: PyDict; pieces: Map<string, PieceValue> } | undefined {
  const cut = topLevelPieces(text);
  if (cut === undefined) return undefined;
  const doc = new PyDict();
  const pieces = new Map<string, PieceValue>();
  for (const piece of cut) {
    let entry = known.get(piece);
    if (entry === undefined) {
      let one: unknown;
      try {
        one = read(piece);
      } catch {
        return undefined;
      }
      if (!(one instanceof PyDict) || one.size !== 1) return undefined;
      const [key] = one.keyList();
      entry = { key: key!, value: one.get(key) };
    }
    if (doc.has(entry.key)) return undefined;
    doc.set(entry.key, entry.value);
    pieces.set(piece, entry);
  }
  return { doc, pieces };
}
