import { formatPath, getItem, hasItem, isMapping, mappingSize, type PathKey } from "@merge/core";
import type {
  ExplainDecision,
  ExplainDocument,
  ExplainEntry,
  ExplainRemoval,
  Explanation,
} from "@merge/explain";
import type { OutputFormat } from "../render.js";
import { type KeyLookup, lookupKey, whereLookupStopped } from "../key-path.js";
import { jsonText, yamlText } from "../render.js";
import { pathId } from "./paths.js";
import { decisionJson, decisionText, originJson, removalJson } from "./render.js";
import { byMerger, describeLosers, describeRemovalInStep, originWhere, shortValue, where } from "./words.js";

export interface StoryInput {
  /** The key as the user wrote it. */
  readonly key: string;
  readonly path: readonly PathKey[];
  readonly value: unknown;
  readonly title: string;
  readonly documents: readonly ExplainDocument[];
  readonly explanation: Explanation;
  readonly format: OutputFormat;
}

interface Step {
  readonly document: number;
  readonly name: string;
  readonly line: number | undefined;
  /** The input's `detailOf` there (a query and row). */
  readonly detail?: string;
  readonly value: unknown;
  readonly decisions: readonly ExplainDecision[];
  /** What merging this input removed at the key or inside it (a key, or items of a list). */
  readonly removals: readonly ExplainRemoval[];
}

/**
 * `--get KEY --explain`: the story of one key, after Puppet's `lookup --explain`. Every input that had a value there,
 * in merge order, with its file and line, what it had, and what the mergers decided while merging it (an input that
 * replaced its own value there, a query whose later row did, once per value it had); then the final value with where
 * it came from, and the values that lost.
 */
export function renderStory(input: StoryInput): string {
  const { explanation, path } = input;
  const entry = explanation.entries.find((candidate) => pathId(candidate.path) === pathId(path));
  const steps = storySteps(input, entry);
  if (input.format === "json") {
    return jsonText({
      key: input.key,
      path: formatPath(path),
      keys: path,
      value: input.value,
      from: entry?.origin === undefined ? null : originJson(entry.origin),
      decided: entry?.decision === undefined ? null : decisionJson(entry.decision),
      inputs: steps.map((step) => ({
        document: step.document,
        file: step.name,
        line: step.line ?? null,
        ...(step.detail === undefined ? {} : { detail: step.detail }),
        value: step.value,
        decisions: step.decisions.map(decisionJson),
        removed: step.removals.map(removalJson),
      })),
      lost: (entry?.lost ?? []).map((loss) => ({
        value: loss.value,
        kind: loss.kind,
        ...originJson(loss.origin),
      })),
    });
  }
  const lines = [`Searching for ${JSON.stringify(input.key)} (${formatPath(path) || "the whole result"})`];
  lines.push(...titleLines(input.title));
  if (steps.length === 0) lines.push("  no input has a value there as such (it was built by the merge)");
  for (const step of steps) {
    lines.push(`  ${originWhere(step)} (input ${step.document + 1})`);
    lines.push(...valueLines("had", step.value, "    "));
    for (const decision of step.decisions) {
      lines.push(
        `    ${decision.inherited ? "with its parent: " : ""}${decisionText(decision, step.document)}`,
      );
    }
    for (const removal of step.removals) lines.push(`    ${describeRemovalInStep(removal)}`);
  }
  const without = explanation.documents.filter((doc) => !steps.some((step) => step.document === doc.index));
  if (without.length > 0 && steps.length > 0) {
    const names = without.slice(0, 4).map((doc) => doc.name);
    const more = without.length > 4 ? `, and ${without.length - 4} more` : "";
    lines.push(
      `  no value there in ${without.length === 1 ? "1 other input" : `${without.length} other inputs`}: ${names.join(", ")}${more}`,
    );
  }
  const from = entry?.origin === undefined ? "" : ` (from ${originWhere(entry.origin)})`;
  lines.push(...valueLines("Final value", input.value, "", from));
  const lost = describeLosers(entry?.lost ?? []);
  if (lost !== "") lines.push(`Values that lost: ${lost.slice("lost: ".length)}`);
  return `${lines.join("\n")}\n`;
}

function storySteps(input: StoryInput, entry: ExplainEntry | undefined): Step[] {
  const { documents, path } = input;
  const throughList = crossesList(input.explanation, path);
  const steps: Step[] = [];
  documents.forEach((doc, document) => {
    let at: readonly PathKey[] | undefined = path;
    // Through a list, an input's item at the same index is not the same value: only the input it came from counts.
    if (throughList) at = entry?.origin?.document === document ? entry.origin.path : undefined;
    const found = at === undefined ? { found: false as const } : valueAt(doc.value, at);
    const decisions = (entry?.history ?? []).filter((decision) => decision.document === document);
    if (
      decisions.length === 0 &&
      entry?.decision?.inherited === true &&
      entry.decision.document === document &&
      found.found
    ) {
      decisions.push(entry.decision);
    }
    const removals = input.explanation.removed.filter(
      (removal) => removal.decision.document === document && startsWith(removal.path, path),
    );
    const line = at === undefined ? undefined : doc.positionOf?.(at)?.line;
    // What the input had there before and replaced itself (an earlier row of the same query), each as its own step.
    for (const earlier of at === undefined ? [] : (doc.lostOf?.(at) ?? [])) {
      steps.push({
        document,
        name: doc.name,
        line,
        ...(earlier.detail === undefined ? {} : { detail: earlier.detail }),
        value: earlier.value,
        decisions: [],
        removals: [],
      });
    }
    if (!found.found && decisions.length === 0 && removals.length === 0) return;
    const detail = at === undefined || !found.found ? undefined : doc.detailOf?.(at);
    steps.push({
      document,
      name: doc.name,
      line,
      ...(detail === undefined ? {} : { detail }),
      value: found.found ? found.value : undefined,
      decisions,
      removals,
    });
  });
  return steps;
}

/** The command a story is about, under its first line: `  in: merge stack ...` and its further lines. */
function titleLines(title: string): string[] {
  return title.split("\n").map((line, i) => `  ${i === 0 ? "in: " : "    "}${line}`);
}

/** Whether `path` begins with `prefix` (or is it). */
function startsWith(path: readonly PathKey[], prefix: readonly PathKey[]): boolean {
  return pathId(path).startsWith(pathId(prefix));
}

/** Whether a step of the path indexes a list (an entry's kind says so for every prefix). */
function crossesList(explanation: Explanation, path: readonly PathKey[]): boolean {
  const lists = new Set(
    explanation.entries.filter((entry) => entry.kind === "list").map((entry) => pathId(entry.path)),
  );
  for (let i = 0; i < path.length; i++) if (lists.has(pathId(path.slice(0, i)))) return true;
  return false;
}

function valueAt(
  root: unknown,
  path: readonly PathKey[],
): { found: true; value: unknown } | { found: false } {
  let node = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === "number" && step >= 0 && step < node.length) node = node[step];
    else if (isMapping(node) && hasItem(node, step)) node = getItem(node, step);
    else return { found: false };
  }
  return node === undefined ? { found: false } : { found: true, value: node };
}

/** `had: 22`, or for a mapping or list `had:` and its YAML indented below (at most 8 lines). */
function valueLines(label: string, value: unknown, indent: string, after = ""): string[] {
  if (value === undefined) return [`${indent}${label}: (nothing: a decision only)`];
  const container = Array.isArray(value) || isMapping(value);
  const empty = Array.isArray(value) ? value.length === 0 : container && mappingSize(value as never) === 0;
  if (!container || empty) return [`${indent}${label}: ${shortValue(value)}${after}`];
  const text = yamlText(value).trimEnd().split("\n");
  const shown = text.slice(0, 8).map((line) => `${indent}  ${line}`);
  if (text.length > 8) shown.push(`${indent}  … (${text.length - 8} more lines)`);
  return [`${indent}${label}${after}:`, ...shown];
}

export interface AbsentStoryInput {
  /** The key as the user wrote it. */
  readonly key: string;
  /** Where the key's lookup in the result stopped. */
  readonly lookup: Extract<KeyLookup, { found: false }>;
  readonly title: string;
  readonly documents: readonly ExplainDocument[];
  readonly explanation: Explanation;
  readonly format: OutputFormat;
}

interface AbsentStep {
  readonly document: number;
  readonly name: string;
  readonly line: number | undefined;
  readonly value: unknown;
  /** Removals by this input of the key or of a key above it. */
  readonly removals: readonly ExplainRemoval[];
  /** This input's whole replacements of the deepest part of the key the result has (`__: overwrite`, a scalar). */
  readonly replaced: readonly ExplainDecision[];
}

/**
 * `--get KEY --explain` for a key the result does not have, when some input had it: why a host does not get it. Every
 * input that had a value there (the key read in it as in the result), in merge order, with what it had; the input
 * that removed it or replaced a key above it whole; and where the result stops. Undefined when no input had it.
 */
export function renderAbsentStory(input: AbsentStoryInput): string | undefined {
  const { explanation, lookup } = input;
  const nearest = explanation.entries.find((entry) => pathId(entry.path) === pathId(lookup.nearest));
  const steps: AbsentStep[] = [];
  input.documents.forEach((doc, document) => {
    const found = lookupKey(doc.value, input.key);
    const at = found.found ? found.path : undefined;
    const removals =
      at === undefined
        ? []
        : explanation.removed.filter(
            (removal) => removal.decision.document === document && startsWith(at, removal.path),
          );
    const replaced = (nearest?.history ?? []).filter(
      (decision) => decision.document === document && decision.action === "replaced",
    );
    if (!found.found && removals.length === 0 && replaced.length === 0) return;
    steps.push({
      document,
      name: doc.name,
      // Where the input had the key; else where it decided (the `__: overwrite` line).
      line: at === undefined ? (replaced[0]?.line ?? removals[0]?.decision.line) : doc.positionOf?.(at)?.line,
      value: found.found ? found.value : undefined,
      removals,
      replaced,
    });
  });
  if (!steps.some((step) => step.value !== undefined)) return undefined;
  const stopped = whereLookupStopped(lookup);
  if (input.format === "json") {
    return jsonText({
      key: input.key,
      found: false,
      stopped,
      nearest: formatPath(lookup.nearest),
      keys: lookup.nearest,
      inputs: steps.map((step) => ({
        document: step.document,
        file: step.name,
        line: step.line ?? null,
        value: step.value === undefined ? null : step.value,
        had: step.value !== undefined,
        removed: step.removals.map(removalJson),
        replaced: step.replaced.map(decisionJson),
      })),
    });
  }
  const lines = [`Searching for ${JSON.stringify(input.key)} (not in the result)`];
  lines.push(...titleLines(input.title));
  for (const step of steps) {
    lines.push(`  ${where(step.name, step.line)} (input ${step.document + 1})`);
    if (step.value !== undefined) lines.push(...valueLines("had", step.value, "    "));
    for (const decision of step.replaced) {
      lines.push(`    replaced ${formatPath(lookup.nearest) || "the result"} whole ${byMerger(decision)}`);
    }
    for (const removal of step.removals) lines.push(`    ${describeRemovalInStep(removal)}`);
  }
  lines.push(`Final value: none; ${stopped}`);
  return `${lines.join("\n")}\n`;
}
