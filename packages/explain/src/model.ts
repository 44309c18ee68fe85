import type { PathKey, TraceAction, TraceEvent } from "@merge/core";

/** One input of a merge as `--explain` sees it: a name, its value and, when known, where each path was written. */
export interface ExplainDocument {
  /** File name, `part 2`, `query main`: how the output names this input. */
  readonly name: string;
  readonly value: unknown;
  /** Shown next to the input in the `--explain` header (`rejected: CLOUD_CONFIG_PART`). */
  readonly note?: string;
  positionOf?(path: readonly PathKey[]): { readonly line: number; readonly column: number } | undefined;
  /**
   * What more there is to say about where the value at a path came from, when a line does not say it all: the query
   * and row of a database value (`query "main" row 3 (pillar=env)`). Becomes the origin's `detail`.
   */
  detailOf?(path: readonly PathKey[]): string | undefined;
  /**
   * The values this input itself had at a path before the one its `value` holds there, in the order it had them: a
   * database row a later row of the same query overwrote. Each becomes a loss (with its own `detail`), listed before
   * what this input finally had there, as a value another input replaced is.
   */
  lostOf?(path: readonly PathKey[]): readonly ExplainEarlier[] | undefined;
}

/** A value an input had at a path and replaced itself (`ExplainDocument.lostOf`). */
export interface ExplainEarlier {
  readonly value: unknown;
  /** What more there is to say about where it came from (its row), as `detailOf` says for the final value. */
  readonly detail?: string;
}

/** Where a value was written. */
export interface ExplainOrigin {
  /** Index into the documents given to `explainResult`. */
  readonly document: number;
  readonly name: string;
  /** The path inside that document (it differs from the result path for list items that moved). */
  readonly path: readonly PathKey[];
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** The document's `detailOf` for that path, when it has one and says something. */
  readonly detail?: string;
}

/** Which merger decided the value at a path, and while merging which document. */
export interface ExplainDecision {
  readonly action: TraceAction;
  readonly merger: string;
  readonly document: number | undefined;
  readonly name: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly detail: string | undefined;
  /** True when no event was recorded at this path and the decision is the nearest enclosing one. */
  readonly inherited: boolean;
}

export interface ExplainEntry {
  readonly path: readonly PathKey[];
  readonly kind: "dict" | "list" | "value";
  /** Set for values (leaves): the value in the result. */
  readonly value?: unknown;
  /** The document that supplied this value (for a container: only when it was taken whole from one document). */
  readonly origin: ExplainOrigin | undefined;
  /** For containers: the documents that supplied something inside, in order. */
  readonly contributors: readonly number[];
  readonly decision: ExplainDecision | undefined;
  /** Every decision recorded at exactly this path, in merge order. */
  readonly history: readonly ExplainDecision[];
  /**
   * The values other inputs had at this mapping key that are not in the result (overridden, kept out, replaced
   * whole), in merge order, and the ones an input replaced itself (its `lostOf`) before its own. For list items only
   * the latter (an input's item at the same index is not a rival); empty when every input agreed.
   */
  readonly lost: readonly ExplainLoss[];
}

/** A value an input had at a path that the result does not hold. */
export interface ExplainLoss {
  /** Where the losing value was written. */
  readonly origin: ExplainOrigin;
  readonly kind: "dict" | "list" | "value";
  /** The losing value itself, for scalars. */
  readonly value?: unknown;
}

/** A value a merger removed (`allow_delete`, `__: remove`): it is not in the result, so it is listed apart. */
export interface ExplainRemoval {
  readonly path: readonly PathKey[];
  readonly decision: ExplainDecision;
  /**
   * Set when items were removed from a list that is still in the result (PillarStack's `__: remove` on a list): the
   * items the removing input listed. Undefined when the key itself was removed.
   */
  readonly items?: readonly unknown[];
}

/** One input as the explanation lists it. */
export interface ExplainInputSummary {
  readonly index: number;
  readonly name: string;
  readonly note?: string;
  /**
   * False when nothing of the result comes from this input and no merger decided anything while merging it (a
   * cloud-config part that only declares mergers, one whose every value lost, an empty file).
   */
  readonly contributed: boolean;
}

export interface Explanation {
  readonly documents: readonly ExplainInputSummary[];
  readonly entries: readonly ExplainEntry[];
  readonly removed: readonly ExplainRemoval[];
}

export type { TraceEvent };
