import { describe, expect, it } from "vitest";
import { loadYamlWithPositions } from "./load.js";

type Path = (string | number)[];
interface Written {
  readonly text: string;
  /** Where the generator wrote each key and item: the truth `positionOf` is checked against. */
  readonly at: Map<string, { line: number; column: number }>;
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A block document of nested mappings and lists with comments, flow mappings, multi-line plain scalars, anchored
 * mappings used again by an alias and by a merge key (`<<`), each key and item recorded where it was written.
 */
function generate(seed: number): Written {
  const next = random(seed);
  const lines: string[] = [];
  const at = new Map<string, { line: number; column: number }>();
  const mark = (path: Path, column: number) => at.set(JSON.stringify(path), { line: lines.length, column });
  let names = 0;
  // Anchored mappings so far: their name and the positions of their keys (what an alias or `<<` refers to).
  const anchors: { name: string; keys: { key: string; line: number; column: number }[] }[] = [];

  const mapping = (path: Path, indent: number, depth: number): void => {
    const pad = " ".repeat(indent);
    const count = 1 + Math.floor(next() * 4);
    if (depth > 0 && anchors.length > 0 && next() < 0.2) {
      // Keys of an anchored mapping merged in: found where the anchored mapping wrote them.
      const anchor = anchors[Math.floor(next() * anchors.length)]!;
      lines.push(`${pad}<<: *${anchor.name}`);
      for (const key of anchor.keys) {
        at.set(JSON.stringify([...path, key.key]), { line: key.line, column: key.column });
      }
    }
    for (let i = 0; i < count; i++) {
      const key = `k${names++}`;
      const kind = next();
      if (next() < 0.2) lines.push(`${pad}# a comment`);
      if (kind < 0.35 || depth > 3) {
        lines.push(`${pad}${key}: v${names} # after`);
        mark([...path, key], indent + 1);
      } else if (kind < 0.45) {
        lines.push(`${pad}${key}: first words`);
        mark([...path, key], indent + 1);
        lines.push(`${pad}  and more words`);
      } else if (kind < 0.55) {
        lines.push(`${pad}${key}: {a: 1, bb: 2}`);
        mark([...path, key], indent + 1);
        const start = indent + key.length + 4;
        at.set(JSON.stringify([...path, key, "a"]), { line: lines.length, column: start });
        at.set(JSON.stringify([...path, key, "bb"]), { line: lines.length, column: start + 6 });
      } else if (kind < 0.65) {
        const name = `a${names}`;
        lines.push(`${pad}${key}: &${name}`);
        mark([...path, key], indent + 1);
        const keys: { key: string; line: number; column: number }[] = [];
        for (const inner of ["x", "y"]) {
          lines.push(`${pad}  ${inner}${names}: ${inner}`);
          const place = { line: lines.length, column: indent + 3 };
          keys.push({ key: `${inner}${names}`, ...place });
          at.set(JSON.stringify([...path, key, `${inner}${names}`]), place);
        }
        anchors.push({ name, keys });
      } else if (kind < 0.72 && anchors.length > 0) {
        // An alias: the same mapping again, its keys where the anchored one wrote them.
        const anchor = anchors[Math.floor(next() * anchors.length)]!;
        lines.push(`${pad}${key}: *${anchor.name}`);
        mark([...path, key], indent + 1);
        for (const inner of anchor.keys) {
          at.set(JSON.stringify([...path, key, inner.key]), { line: inner.line, column: inner.column });
        }
      } else if (kind < 0.86) {
        lines.push(`${pad}${key}:`);
        mark([...path, key], indent + 1);
        const items = 1 + Math.floor(next() * 3);
        for (let item = 0; item < items; item++) {
          if (next() < 0.5) {
            lines.push(`${pad}  - item${names++}`);
            mark([...path, key, item], indent + 5);
          } else {
            // A mapping item: the item is where its first key is.
            lines.push(`${pad}  - n: ${names++}`);
            mark([...path, key, item], indent + 5);
            mark([...path, key, item, "n"], indent + 5);
            lines.push(`${pad}    m: two`);
            mark([...path, key, item, "m"], indent + 5);
          }
        }
      } else {
        lines.push(`${pad}${key}:`);
        mark([...path, key], indent + 1);
        mapping([...path, key], indent + 2, depth + 1);
      }
    }
  };
  mapping([], 0, 0);
  return { text: `${lines.join("\n")}\n`, at };
}

describe("loadYamlWithPositions on generated documents", () => {
  it("gives every key and item the line and column it was written at, with LF and CRLF line ends", () => {
    let checked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const written = generate(seed);
      // CRLF takes the full parser's path; most LF documents the fast path's (not those with anchors).
      for (const text of [written.text, written.text.replaceAll("\n", "\r\n")]) {
        const { positionOf } = loadYamlWithPositions(text, { values: "exact", filename: `gen-${seed}` });
        for (const [path, place] of written.at) {
          expect({ seed, path, at: positionOf(JSON.parse(path) as Path) }).toEqual({ seed, path, at: place });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });
});
