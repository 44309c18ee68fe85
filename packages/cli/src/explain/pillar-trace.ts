import { getItem, hasItem, isMapping, type PathKey, type TraceSink } from "@merge/core";
import type { ExplainDocument } from "@merge/explain";
import type { PillarMergeTrace } from "../commands/pillar-merging.js";

/**
 * The trace of one external pillar's merge into the pillar (`merge pillar`, `merge mysql`): the entry's result is
 * built from the inputs `documents[from]` to `documents[to - 1]` (its stack files, its queries), and each decision
 * is credited to the last of them that had a value at the path, the one whose value the pillar merge took or
 * refused. A path none of them has as such (a value the entry's own merge built) goes to the last that has the
 * nearest enclosing path.
 */
export function entryTrace(
  sink: TraceSink,
  documents: readonly (ExplainDocument | undefined)[],
  from: number,
  to: number,
): PillarMergeTrace {
  return {
    sink,
    documentOf: (path) => {
      for (let length = path.length; length >= 0; length--) {
        for (let index = to - 1; index >= from; index--) {
          if (holds(documents[index]?.value, path, length)) return index;
        }
      }
      return undefined;
    },
  };
}

/** Whether `root` has a value at the first `length` keys of `path` (mapping keys only: the fold never indexes lists). */
function holds(root: unknown, path: readonly PathKey[], length: number): boolean {
  if (root === undefined) return false;
  let node: unknown = root;
  for (let i = 0; i < length; i++) {
    const key = path[i]!;
    if (!isMapping(node) || !hasItem(node, key)) return false;
    node = getItem(node, key);
  }
  return true;
}
