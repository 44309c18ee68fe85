import { checkTree, MergeError, type PathKey } from "@merge/core";
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from "yaml";

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** One YAML document of an input, with a way back from a key path to where it was written. */
export interface SourceDocument {
  /** The input's name (`-` for standard input). */
  readonly file: string;
  /** 0-based index of the document inside its file (files may hold several `---` documents). */
  readonly index: number;
  readonly value: unknown;
  /**
   * Line and column of the deepest part of `path` found in the document: the key of a mapping entry, the start of
   * a list item. Undefined when not even the first step exists.
   */
  positionOf(path: readonly PathKey[]): Position | undefined;
}

/**
 * Parses YAML (JSON is YAML too) into documents with positions. YAML 1.2 core schema, duplicate keys are errors,
 * aliases are bounded. An empty input gives one document whose value is `null`.
 */
export function parseSourceDocuments(text: string, file: string): SourceDocument[] {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  // Input without documents (nothing, or only comments) parses to an empty stream.
  if (parsed.length === 0) return [{ file, index: 0, value: null, positionOf: () => undefined }];
  return parsed.map((doc, index) => {
    const problem = doc.errors[0];
    if (problem !== undefined) {
      const at = lineCounter.linePos(problem.pos[0]);
      throw new MergeError("YAML_PARSE", firstLine(problem.message), {
        source: { file, line: at.line, column: at.col, document: index },
        cause: problem,
      });
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (error) {
      throw new MergeError(
        "YAML_PARSE",
        `cannot load: ${error instanceof Error ? error.message : String(error)}`,
        {
          source: { file, document: index },
          cause: error,
        },
      );
    }
    try {
      checkTree(value);
    } catch (error) {
      if (error instanceof MergeError && error.source === undefined) error.source = { file, document: index };
      throw error;
    }
    const positionOf = (path: readonly PathKey[]): Position | undefined => {
      let node: unknown = doc.contents;
      let offset: number | undefined = (doc.contents as Node | null)?.range?.[0];
      for (const key of path) {
        if (isAlias(node)) node = node.resolve(doc);
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(key),
          );
          if (pair === undefined) break;
          offset = (pair.key as Node | null)?.range?.[0] ?? offset;
          node = pair.value;
        } else if (isSeq(node) && typeof key === "number" && key < node.items.length) {
          node = node.items[key];
          offset = (node as Node | null)?.range?.[0] ?? offset;
        } else {
          break;
        }
      }
      if (offset === undefined) return undefined;
      const at = lineCounter.linePos(offset);
      return { line: at.line, column: at.col };
    };
    return { file, index, value, positionOf };
  });
}

function firstLine(message: string): string {
  const line = message.split("\n", 1)[0]!;
  return line.replace(/ at line \d+, column \d+:?$/, "");
}
