// Turns a merge result and its explanation (from @merge/explain, what `merge --explain` prints) into the plain data
// the page shows: the result's lines, each tied to the value it shows, and for each value where it came from, what
// decided it and which values of other inputs it beat.
import {
  formatJson,
  formatMergeError,
  formatPath,
  getItem,
  hasItem,
  isMapping,
  isMergeError,
  type PathKey,
  pyEquals,
} from "@merge/core";
import {
  type ExplainDecision,
  type ExplainDocument,
  type ExplainEntry,
  type Explanation,
  explainResult,
} from "@merge/explain";
import type { TraceEvent } from "@merge/core";
import { loadYamlWithPositions } from "@merge/yaml";
import type { BeatenView, DecisionView, EntryView, ErrorView, Place, ResultView } from "./protocol.js";

const SHOWN_VALUE_LENGTH = 160;

/** A coded error as the page shows it; `input` says which part, document or file it belongs to. */
export function errorView(error: unknown, input?: number): ErrorView {
  if (isMergeError(error)) {
    const source = error.source;
    return {
      code: error.code,
      message: error.message,
      input,
      file: source?.file,
      line: source?.line,
      column: source?.column,
      offset: source?.offset,
      path: error.path,
      text: formatMergeError(error),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  // Not a MergeError: a bug in the playground or a package, shown as such.
  return { code: "BUG", message, input, text: `internal error (please report it): ${message}` };
}

/** A value in one line of JSON (Python's reading of it: `9.0`, typed keys), cut when long. */
export function shortValue(value: unknown): string {
  let text: string;
  try {
    text = formatJson(value, { indent: 0 });
  } catch {
    text = String(value);
  }
  return text.length > SHOWN_VALUE_LENGTH ? `${text.slice(0, SHOWN_VALUE_LENGTH - 1)}…` : text;
}

const MISSING = Symbol("missing");

function lookup(value: unknown, path: readonly PathKey[]): unknown {
  let at: unknown = value;
  for (const step of path) {
    if (Array.isArray(at) && typeof step === "number") {
      if (step >= at.length) return MISSING;
      at = at[step];
    } else if (isMapping(at) && hasItem(at, step as never)) {
      at = getItem(at, step as never);
    } else {
      return MISSING;
    }
  }
  return at;
}

export interface ViewInput {
  readonly value: unknown;
  /** The result as shown. */
  readonly text: string;
  /** 0-based line of `text` where the YAML dump of `value` starts (after cloud-init's header). */
  readonly bodyStart: number;
  readonly documents: readonly ExplainDocument[];
  readonly events: readonly TraceEvent[];
  /** Which input (part, document, file) each document is; default: the same index. */
  readonly inputOf?: (document: number) => number;
}

export function resultView(input: ViewInput): ResultView {
  const explanation: Explanation = explainResult(input.value, input.documents, input.events);
  const inputOf = input.inputOf ?? ((document: number) => document);
  const place = (document: number, path: readonly PathKey[], line?: number): Place => ({
    input: inputOf(document),
    name: input.documents[document]?.name ?? `#${document + 1}`,
    line: line ?? input.documents[document]?.positionOf?.(path)?.line,
  });
  const decision = (d: ExplainDecision, path: readonly PathKey[]): DecisionView => ({
    action: d.action,
    merger: d.merger,
    at: d.document === undefined ? undefined : place(d.document, path, d.line),
    detail: d.detail,
  });

  const entries: EntryView[] = explanation.entries.map((entry) => entryView(entry));
  function entryView(entry: ExplainEntry): EntryView {
    const beaten: BeatenView[] = [];
    const here = lookup(input.value, entry.path);
    // Mappings merge key by key: their values say what they beat. Lists and values taken from one input beat what
    // the other inputs had at the same path.
    if (entry.kind === "value" || (entry.kind === "list" && entry.origin !== undefined)) {
      input.documents.forEach((doc, index) => {
        if (index === entry.origin?.document || doc.value === undefined) return;
        const other = lookup(doc.value, entry.path);
        if (other === MISSING || pyEquals(other, here)) return;
        beaten.push({ ...place(index, entry.path), value: shortValue(other) });
      });
    }
    return {
      path: formatPath(entry.path) || "(root)",
      kind: entry.kind,
      value: entry.kind === "value" ? shortValue(entry.value) : undefined,
      origin:
        entry.origin === undefined
          ? undefined
          : place(entry.origin.document, entry.origin.path, entry.origin.line),
      contributors: entry.contributors.map((document) => place(document, entry.path)),
      decision: entry.decision === undefined ? undefined : decision(entry.decision, entry.path),
      history: entry.history.map((d) => decision(d, entry.path)),
      beaten,
    };
  }

  const lines = input.text.split("\n").map(() => -1);
  let positions: ReturnType<typeof loadYamlWithPositions> | undefined;
  try {
    positions = loadYamlWithPositions(input.text.split("\n").slice(input.bodyStart).join("\n"));
  } catch {
    positions = undefined;
  }
  if (positions !== undefined) {
    // Entries come parents first: a deeper value on the same line (`- key: value`) wins the line.
    explanation.entries.forEach((entry, index) => {
      const at = positions.positionOf(entry.path);
      if (at !== undefined) lines[input.bodyStart + at.line - 1] = index;
    });
  }
  return {
    text: input.text,
    lines,
    entries,
    inputs: explanation.documents.map((d) => ({ name: d.name, note: d.note })),
    removed: explanation.removed.map((removal) => ({
      path: formatPath(removal.path) || "(root)",
      decision: decision(removal.decision, removal.path),
    })),
  };
}
