import { formatPath, type PathKey } from "@merge/core";
import {
  type ExplainDecision,
  type ExplainDocument,
  type ExplainEntry,
  type ExplainOrigin,
  type ExplainRemoval,
  type Explanation,
  explainInOrder,
  explainResult,
} from "@merge/explain";
import { sortedKeys } from "@merge/yaml";
import { jsonText, type YamlStyle, yamlText } from "../render.js";
import { pathId } from "./paths.js";
import { describeLosers, describeRemoval, headerLines, originWhere, where } from "./words.js";

function originText(origin: ExplainOrigin): string {
  return originWhere(origin);
}

/** `appended by list(append)`, `kept by dict() over b.yml:4`. */
export function decisionText(decision: ExplainDecision, source: number | undefined): string {
  let text = `${decision.action} by ${decision.merger}`;
  const elsewhere = decision.document !== undefined && decision.document !== source;
  if (elsewhere && decision.action === "kept") text += ` over ${where(decision.name, decision.line)}`;
  else if (elsewhere) text += ` merging ${where(decision.name, decision.line)}`;
  if (decision.detail !== undefined && decision.detail !== "") text += ` (${decision.detail})`;
  return text;
}

/** The comment `--explain` puts next to one value or container. */
export function describeEntry(entry: ExplainEntry, documents: readonly { readonly name: string }[]): string {
  // The parts are joined with ", " (one string per value, no array of parts).
  let text = "";
  if (entry.origin !== undefined) text = `from ${originText(entry.origin)}`;
  else if (entry.kind !== "value" && entry.contributors.length > 0) {
    const names = entry.contributors.map((index) => documents[index]?.name ?? `#${index + 1}`);
    text = `from ${[...new Set(names)].join(", ")}`;
  }
  const decision = entry.decision;
  // A container built from several inputs was not decided by one merger: its values say who decided them.
  const single = entry.kind === "value" || entry.origin !== undefined || entry.contributors.length <= 1;
  const source =
    entry.origin?.document ?? (entry.contributors.length === 1 ? entry.contributors[0] : undefined);
  if (decision !== undefined && single) {
    const decided = decisionText(decision, source);
    text = text === "" ? decided : `${text}, ${decided}`;
  }
  const lost = describeLosers(entry.lost);
  if (lost !== "") text += `; ${lost}`;
  return text;
}

/** The merged YAML with a comment on every line saying where the value came from and what decided it. */
export function renderExplainedYaml(
  result: unknown,
  explanation: Explanation,
  title: string,
  style: YamlStyle = "readable",
): string {
  const find = entryFinder(explanation.entries);
  const comment = (path: readonly unknown[]) => {
    const entry = find(path as readonly PathKey[]);
    return entry === undefined ? undefined : describeEntry(entry, explanation.documents);
  };
  return yamlText(result, style, { header: headerLines(title, explanation), comment });
}

/**
 * `renderExplainedYaml` from the merge's inputs and events: the entries are worked out as the emitter reaches them and dropped once written (`explainInOrder`), so a
 * large result's explanation is never held whole. The same text, byte for byte.
 */
export function renderExplainedYamlInOrder(
  result: unknown,
  documents: readonly ExplainDocument[],
  events: Parameters<typeof explainResult>[2],
  title: string,
  style: YamlStyle = "readable",
): string {
  // The cloud-init style writes keys sorted: the entries are made in that order.
  const keyOrder = style === "cloud-init" ? sortedKeys : undefined;
  const cursor = explainInOrder(result, documents, events, { keyOrder });
  // Entries read from the cursor and not asked for yet: the emitter asks for them in this order.
  const ahead: ExplainEntry[] = [];
  // Set when the emitter asks out of order (it should not): the whole explanation, found by path from then on.
  let whole:
    | { explanation: Explanation; find: (path: readonly PathKey[]) => ExplainEntry | undefined }
    | undefined;
  const find = (path: readonly PathKey[]): ExplainEntry | undefined => {
    if (whole !== undefined) return whole.find(path);
    while (ahead.length < LOOKAHEAD) {
      const entry = cursor.next();
      if (entry === undefined) break;
      ahead.push(entry);
    }
    for (let i = 0; i < ahead.length; i++) {
      const entry = ahead[i]!;
      if (samePath(entry.path, path)) {
        ahead.splice(0, i + 1);
        return entry;
      }
    }
    const explanation = explainResult(result, documents, events);
    whole = { explanation, find: entryFinder(explanation.entries) };
    return whole.find(path);
  };
  const comment = (path: readonly unknown[]) => {
    const entry = find(path as readonly PathKey[]);
    return entry === undefined ? undefined : describeEntry(entry, documents);
  };
  // Written after the document: which inputs contributed is known once every entry is made.
  const header = () => {
    if (whole !== undefined) return headerLines(title, whole.explanation);
    while (cursor.next() !== undefined);
    return headerLines(title, { ...cursor.finish(), entries: [] });
  };
  return yamlText(result, style, { header, comment });
}

// How far ahead of the last entry found the next one is looked for: the emitter skips the root and what is inside
// flow collections, so the entry it asks for is rarely the very next one.
const LOOKAHEAD = 4;

/**
 * The entry for each path the emitter asks about. Entries come in document order, parents first, which is the
 * order the emitter writes a result in its own key order: a cursor finds almost every one a step or two ahead,
 * without a key per value. A path asked out of order (sorted keys) is looked up in a tree of the entries by path
 * step, built on first use.
 */
function entryFinder(
  entries: readonly ExplainEntry[],
): (path: readonly PathKey[]) => ExplainEntry | undefined {
  let cursor = 0;
  let tree: EntryNode | undefined;
  return (path) => {
    const end = Math.min(entries.length, cursor + LOOKAHEAD);
    for (let i = cursor; i < end; i++) {
      if (samePath(entries[i]!.path, path)) {
        cursor = i + 1;
        return entries[i];
      }
    }
    if (tree === undefined) {
      tree = { entry: undefined, steps: undefined, objects: undefined };
      // A later entry for the same path wins, as it would in a map.
      for (const entry of entries) entryNode(tree, entry.path, true)!.entry = entry;
    }
    return entryNode(tree, path, false)?.entry;
  };
}

/** The entries by path: one node per step, steps told apart as `pathId` tells them. */
interface EntryNode {
  entry: ExplainEntry | undefined;
  /** Strings, numbers, booleans, null: a Map keeps them apart as `pathId` does (`8080` and `"8080"`). */
  steps: Map<unknown, EntryNode> | undefined;
  /** Object steps (a float key `1.0`, a date) by their `pathId`. */
  objects: Map<string, EntryNode> | undefined;
}

function entryNode(root: EntryNode, path: readonly PathKey[], make: boolean): EntryNode | undefined {
  let node = root;
  for (const step of path) {
    const object = typeof step === "object" && step !== null;
    const id = object ? pathId([step]) : step;
    const steps = (object ? node.objects : node.steps) as Map<unknown, EntryNode> | undefined;
    let next = steps?.get(id);
    if (next === undefined) {
      if (!make) return undefined;
      next = { entry: undefined, steps: undefined, objects: undefined };
      if (object) {
        node.objects ??= new Map();
        node.objects.set(id as string, next);
      } else {
        node.steps ??= new Map();
        node.steps.set(id, next);
      }
    }
    node = next;
  }
  return node;
}

/** Whether two paths have the same `pathId`, mostly without making it: equal strings and numbers are the same step. */
function samePath(a: readonly PathKey[], b: readonly PathKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = a.length - 1; i >= 0; i--) {
    const x = a[i];
    const y = b[i];
    if (x === y && typeof x !== "object") continue;
    if (typeof x !== "object" || typeof y !== "object" || pathId([x]) !== pathId([y])) return false;
  }
  return true;
}

/** `--explain --format json`: the result plus one record per value, in the exact model (keys typed, `9.0`). */
export function renderExplainedJson(result: unknown, explanation: Explanation): string {
  return jsonText(explainedRecord(result, explanation));
}

export function explainedRecord(result: unknown, explanation: Explanation) {
  return {
    result,
    documents: explanation.documents,
    values: explanation.entries.map((entry) => ({
      path: formatPath(entry.path),
      keys: entry.path,
      kind: entry.kind,
      ...(entry.kind === "value" ? { value: entry.value } : {}),
      from: entry.origin === undefined ? null : originJson(entry.origin),
      contributors: entry.kind === "value" ? undefined : entry.contributors,
      decided: entry.decision === undefined ? null : decisionJson(entry.decision),
      history: entry.history.map(decisionJson),
      lost: entry.lost.map((loser) => ({
        value: loser.value,
        kind: loser.kind,
        ...originJson(loser.origin),
      })),
    })),
    removed: explanation.removed.map(removalJson),
  };
}

/** A removal in `--explain --format json`: where, the items for a list that stays, who decided, and the header's words. */
export function removalJson(removal: ExplainRemoval) {
  return {
    path: formatPath(removal.path),
    keys: removal.path,
    items: removal.items ?? null,
    decided: decisionJson(removal.decision),
    said: describeRemoval(removal),
  };
}

export function originJson(origin: ExplainOrigin) {
  return {
    document: origin.document,
    file: origin.name,
    line: origin.line ?? null,
    column: origin.column ?? null,
    path: formatPath(origin.path),
    ...(origin.detail === undefined ? {} : { detail: origin.detail }),
  };
}

export function decisionJson(decision: ExplainDecision) {
  return {
    action: decision.action,
    merger: decision.merger,
    document: decision.document ?? null,
    file: decision.name ?? null,
    line: decision.line ?? null,
    detail: decision.detail ?? null,
    inherited: decision.inherited,
  };
}
