// The properties checkPlugin runs. Each takes one generated case, copies its inputs, merges, and throws a Violation
// naming the property and what it found; check.ts drives them with fast-check and turns a Violation into a
// PluginCheckError.
import {
  formatPath,
  formatSpecEntry,
  isMergeError,
  type Merger,
  type MergeError,
  mergeAll,
  type PathKey,
  PyFloat,
  type Registry,
  type TraceEvent,
  type TraceSink,
} from "@merge/core";
import { HOSTILE_KEYS, pollutionSince, prototypeState } from "./hostile.js";
import {
  copyValue,
  isMapping,
  isSupplied,
  mappingKeys,
  previewValue,
  showValue,
  subtreeTexts,
  suppliedBy,
  valueAt,
  walkValue,
} from "./values.js";

/** The properties, in the order they run. */
export const PROPERTY_NAMES = [
  "options-described",
  "kinds-handled",
  "inputs-unchanged",
  "merge-errors-only",
  "hostile-keys-as-data",
  "input-values-only",
  "in-place-equals-pure",
  "trace-paths",
] as const;

export type PropertyName = (typeof PROPERTY_NAMES)[number];

/** A property that did not hold, with what the failure message needs. */
export class Violation extends Error {
  constructor(
    readonly property: PropertyName,
    readonly problem: string,
    readonly spec: string | undefined,
    readonly inputs: readonly (readonly [string, string])[],
    readonly details: readonly string[] = [],
  ) {
    super(problem);
    this.name = "Violation";
  }
}

/** What the properties need to know about the plugin under test. */
export interface Subject {
  readonly registry: Registry;
  /** The merger for a spec (cached when untraced); throws a Violation when the plugin cannot serve it. */
  resolve(spec: string, trace?: TraceSink): Merger;
  /** True when a plugin of the spec brings in-place handlers. */
  hasInPlace(spec: string): boolean;
  readonly derivedStrings: boolean;
  readonly enabled: ReadonlySet<PropertyName>;
}

const at = (path: readonly PathKey[]) => (path.length === 0 ? "the root" : formatPath(path));

function errorText(error: unknown): string {
  if (isMergeError(error)) return `MergeError ${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `a thrown ${typeof error} ${previewValue(error, 100)}`;
}

/** Why an error thrown by a merge breaks "merge-errors-only", or undefined when it is a coded MergeError. */
function uncoded(error: unknown): string | undefined {
  if (!isMergeError(error)) return `threw ${errorText(error)} instead of a MergeError`;
  if (error.code !== "PLUGIN_FAILED") return undefined;
  return (
    `threw ${errorText((error as MergeError).cause ?? error)}, which the engine wrapped as PLUGIN_FAILED: ` +
    "a merge of well-formed values must succeed or fail with a coded MergeError (ctx.fail)"
  );
}

interface Outcome {
  readonly value?: unknown;
  readonly error?: unknown;
}

function attempt(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
}

/** One merge: inputs unchanged, coded errors only, no prototype touched, results built from input values only. */
export function checkMerge(subject: Subject, spec: string, rawBase: unknown, rawIncoming: unknown): void {
  const base = copyValue(rawBase);
  const incoming = copyValue(rawIncoming);
  const before = [showValue(base), showValue(incoming)] as const;
  const inputs = [
    ["base", previewValue(base)],
    ["incoming", previewValue(incoming)],
  ] as const;
  const fail = (property: PropertyName, problem: string, details?: string[]): never => {
    throw new Violation(property, problem, spec, inputs, details);
  };
  const merger = subject.resolve(spec);
  const prototypes = prototypeState();
  const outcome = attempt(() => merger.merge(base, incoming));

  if (subject.enabled.has("inputs-unchanged")) {
    const after = [showValue(base), showValue(incoming)];
    for (const [index, label] of ["base", "incoming"].entries()) {
      if (after[index] !== before[index]) {
        fail("inputs-unchanged", `the merge changed its ${label} value`, [
          `${label} after the merge: ${previewValue(index === 0 ? base : incoming)}`,
        ]);
      }
    }
  }
  if (subject.enabled.has("hostile-keys-as-data")) {
    const pollution = pollutionSince(prototypes);
    if (pollution.length > 0) {
      fail("hostile-keys-as-data", `the merge changed a shared prototype (${pollution.join(", ")})`);
    }
  }
  if (outcome.error !== undefined || !("value" in outcome)) {
    const problem = uncoded(outcome.error);
    if (problem !== undefined && subject.enabled.has("merge-errors-only")) fail("merge-errors-only", problem);
    return;
  }
  const result = outcome.value;
  if (subject.enabled.has("hostile-keys-as-data")) {
    const containers = new Set<unknown>();
    for (const input of [base, incoming]) {
      walkValue(input, (value) => {
        if (typeof value === "object" && value !== null) containers.add(value);
      });
    }
    // A prototype that is data: one of the inputs' containers, a list, or a mapping that is no class's prototype.
    const fromData = (proto: unknown) =>
      proto !== null &&
      proto !== Object.prototype &&
      proto !== Array.prototype &&
      (containers.has(proto) ||
        Array.isArray(proto) ||
        (isMapping(proto) && !Object.hasOwn(proto, "constructor")));
    walkValue(result, (value, path) => {
      if (typeof value !== "object" || value === null || isMapping(value)) return;
      const proto = Object.getPrototypeOf(value);
      if (Array.isArray(value) ? proto !== Array.prototype : fromData(proto)) {
        fail(
          "hostile-keys-as-data",
          `the ${Array.isArray(value) ? "list" : "mapping"} at ${at(path)} of the result has a prototype taken ` +
            "from the data: a __proto__ key was assigned with `=`; write keys with setKey() (or " +
            "Object.defineProperty) so they stay own data",
          [`result: ${previewValue(result)}`],
        );
      }
    });
  }
  if (subject.enabled.has("input-values-only")) {
    const supplied = suppliedBy([base, incoming]);
    walkValue(result, (value, path) => {
      if (Array.isArray(value)) return;
      if (isMapping(value)) {
        for (const key of mappingKeys(value)) {
          if (!isSupplied(key, supplied, subject.derivedStrings)) {
            fail(
              "input-values-only",
              `the result has a key ${JSON.stringify(key)} at ${at(path)} that neither input has`,
              [`result: ${previewValue(result)}`],
            );
          }
        }
      } else if (!isSupplied(value, supplied, subject.derivedStrings)) {
        fail(
          "input-values-only",
          `the result holds ${previewValue(value, 80)} at ${at(path)}, which neither input holds` +
            (typeof value === "function" ? " (an inherited property read as if it were a key?)" : ""),
          [`result: ${previewValue(result)}`],
        );
      }
    });
  }
}

/** The names given to hostile keys by `checkRenamed`; a case whose inputs already use them is skipped. */
export const RENAMED: ReadonlyMap<string, string> = new Map(HOSTILE_KEYS.map((key) => [key, `x${key}`]));

/** True when renaming hostile keys could not be undone for this case (the inputs or options use the new names). */
export function renameClashes(spec: string, values: readonly unknown[]): boolean {
  const lower = spec.toLowerCase();
  if (HOSTILE_KEYS.some((key) => lower.includes(key.toLowerCase()))) return true;
  const taken = new Set(RENAMED.values());
  let clash = false;
  for (const root of values) {
    walkValue(root, (value) => {
      if (typeof value === "string" && taken.has(value)) clash = true;
      else if (
        isMapping(value) &&
        mappingKeys(value).some((key) => typeof key === "string" && taken.has(key))
      )
        clash = true;
    });
  }
  return clash;
}

/**
 * Hostile keys are data: merging inputs whose `__proto__`, `constructor`, ... keys carry other names gives the same
 * result, renamed. A plugin that assigns `__proto__` with `=`, reads an inherited `constructor`, or tests keys with
 * `in` gives a different one.
 */
export function checkRenamed(subject: Subject, spec: string, rawBase: unknown, rawIncoming: unknown): void {
  const inputs = [
    ["base", previewValue(rawBase)],
    ["incoming", previewValue(rawIncoming)],
  ] as const;
  const merger = subject.resolve(spec);
  const plain = attempt(() => merger.merge(copyValue(rawBase), copyValue(rawIncoming)));
  const renamed = attempt(() => merger.merge(copyValue(rawBase, RENAMED), copyValue(rawIncoming, RENAMED)));
  const fail = (problem: string, details: string[]): never => {
    throw new Violation("hostile-keys-as-data", problem, spec, inputs, details);
  };
  const names = [...RENAMED].map(([from, to]) => `${from} → ${to}`).join(", ");
  if ("value" in plain !== "value" in renamed) {
    fail(
      `the merge ${"value" in plain ? "failed only" : "succeeded only"} once hostile keys were renamed (${names})`,
      [
        `with the keys as they are: ${"value" in plain ? previewValue(plain.value) : errorText(plain.error)}`,
        `with renamed keys: ${"value" in renamed ? previewValue(renamed.value) : errorText(renamed.error)}`,
      ],
    );
  }
  if (!("value" in plain)) return;
  const loose = { sortKeys: true, nullPrototypes: false };
  const expected = showValue(copyValue(plain.value, RENAMED), loose);
  const actual = showValue(renamed.value, loose);
  if (expected !== actual) {
    fail(
      `renaming hostile keys in the inputs (${names}) changed the result beyond the renaming: a hostile key was not merged as plain data`,
      [`result: ${previewValue(plain.value)}`, `result with renamed keys: ${previewValue(renamed.value)}`],
    );
  }
}

/**
 * A fold through the in-place handlers (`mergeAll` without `onError`) gives the value, error and trace events of
 * the pure fold, and changes neither the documents nor the initial value.
 */
export function checkInPlace(
  subject: Subject,
  spec: string,
  rawInitial: unknown,
  rawDocs: readonly unknown[],
  exact = false,
): void {
  const inputs: [string, string][] = [];
  if (rawInitial !== undefined) inputs.push(["initial", previewValue(rawInitial)]);
  inputs.push(["documents", previewValue(rawDocs)]);
  const fold = (inPlace: boolean) => {
    const initial = copyValue(rawInitial);
    const docs = rawDocs.map((doc) => copyValue(doc));
    const before = showValue([initial, docs]);
    const events: TraceEvent[] = [];
    const outcome = attempt(() =>
      mergeAll(docs, {
        registry: subject.registry,
        spec,
        initial,
        exact,
        trace: { record: (event) => events.push(event) },
        onError: inPlace
          ? undefined
          : ({ error }) => {
              throw error;
            },
      }),
    );
    return { outcome, events, changed: showValue([initial, docs]) !== before, initial, docs };
  };
  const pure = fold(false);
  const owned = fold(true);
  const fail = (property: PropertyName, problem: string, details: string[]): never => {
    throw new Violation(property, problem, spec, inputs, details);
  };
  if (owned.changed && subject.enabled.has("inputs-unchanged")) {
    fail("inputs-unchanged", "the in-place fold (mergeAll) changed a document or the initial value", [
      `initial after: ${previewValue(owned.initial)}`,
      `documents after: ${previewValue(owned.docs)}`,
    ]);
  }
  if (!subject.enabled.has("in-place-equals-pure")) return;
  const describe = (outcome: Outcome) =>
    "value" in outcome ? previewValue(outcome.value) : errorText(outcome.error);
  if ("value" in pure.outcome !== "value" in owned.outcome) {
    fail("in-place-equals-pure", "the in-place fold and the pure fold disagree on whether the merge fails", [
      `pure: ${describe(pure.outcome)}`,
      `in place: ${describe(owned.outcome)}`,
    ]);
  }
  if (!("value" in pure.outcome)) {
    const codes = [pure.outcome.error, owned.outcome.error].map((error) =>
      isMergeError(error) ? error.code : String(error),
    );
    if (codes[0] !== codes[1]) {
      fail(
        "in-place-equals-pure",
        `the pure fold fails with ${codes[0]}, the in-place fold with ${codes[1]}`,
        [`pure: ${describe(pure.outcome)}`, `in place: ${describe(owned.outcome)}`],
      );
    }
    return;
  }
  const loose = { nullPrototypes: false };
  if (showValue(pure.outcome.value, loose) !== showValue(owned.outcome.value, loose)) {
    fail("in-place-equals-pure", "the in-place handlers give another result than the pure ones", [
      `pure: ${describe(pure.outcome)}`,
      `in place: ${describe(owned.outcome)}`,
    ]);
  }
  if (showValue(pure.events) !== showValue(owned.events)) {
    fail("in-place-equals-pure", "the in-place handlers record other trace events than the pure ones", [
      `pure: ${previewValue(pure.events, 1200)}`,
      `in place: ${previewValue(owned.events, 1200)}`,
    ]);
  }
}

const ACTIONS: ReadonlySet<string> = new Set([
  "added",
  "kept",
  "replaced",
  "merged",
  "appended",
  "prepended",
  "concatenated",
  "removed",
  "unchanged",
]);

/**
 * Trace events describe the result: each names a known action, a merger of the spec (or the engine) and a path
 * that exists in the result (`removed`: whose parent does); an item `appended` or `prepended` at a list index is an
 * item of the new value. Tracing changes nothing about the result.
 */
export function checkTrace(subject: Subject, spec: string, rawBase: unknown, rawIncoming: unknown): void {
  const inputs = [
    ["base", previewValue(rawBase)],
    ["incoming", previewValue(rawIncoming)],
  ] as const;
  const events: TraceEvent[] = [];
  const traced = subject.resolve(spec, { record: (event) => events.push(event) });
  const plain = attempt(() => subject.resolve(spec).merge(copyValue(rawBase), copyValue(rawIncoming)));
  const incoming = copyValue(rawIncoming);
  const outcome = attempt(() => traced.merge(copyValue(rawBase), incoming));
  const fail = (problem: string, details: string[] = []): never => {
    throw new Violation("trace-paths", problem, spec, inputs, details);
  };
  const shown = (o: Outcome) => ("value" in o ? showValue(o.value) : errorText(o.error));
  if (shown(plain) !== shown(outcome)) {
    fail("the merge gives another result when it is traced", [
      `untraced: ${"value" in plain ? previewValue(plain.value) : errorText(plain.error)}`,
      `traced: ${"value" in outcome ? previewValue(outcome.value) : errorText(outcome.error)}`,
    ]);
  }
  if (!("value" in outcome)) return;
  const result = outcome.value;
  const labels = new Set(["engine", ...traced.spec.map(formatSpecEntry)]);
  let items: Set<string> | undefined;
  for (const event of events) {
    const details = [`event: ${previewValue(event)}`, `result: ${previewValue(result)}`];
    if (!ACTIONS.has(event.action))
      fail(`a trace event has the unknown action ${JSON.stringify(event.action)}`, details);
    if (!labels.has(event.merger)) {
      fail(
        `a trace event names the merger ${JSON.stringify(event.merger)}, which is not in the spec`,
        details,
      );
    }
    const path = event.path;
    if (!Array.isArray(path) || !path.every(isPathKey)) {
      fail("a trace event's path is not a list of keys and indexes", details);
    }
    if (event.action === "removed") {
      if (path.length > 0 && !valueAt(result, path.slice(0, -1)).found) {
        fail(`a trace event (removed) names ${at(path)}, whose parent is not in the result`, details);
      }
      continue;
    }
    const found = valueAt(result, path);
    if (!found.found)
      fail(`a trace event (${event.action}) names ${at(path)}, which is not in the result`, details);
    const last = path[path.length - 1];
    if ((event.action === "appended" || event.action === "prepended") && typeof last === "number") {
      items ??= subtreeTexts(incoming);
      if (!items.has(showValue(found.value))) {
        fail(
          `a trace event (${event.action}) names ${at(path)}, but the item there is not from the new value ` +
            "(record events at the positions items have in the result, after any reordering or filtering)",
          details,
        );
      }
    }
  }
}

/** A key a path may hold: a string or list index, or any hashable key of a PyDict (int, float, bool, None). */
function isPathKey(key: unknown): boolean {
  switch (typeof key) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return true;
    default:
      return key === null || key instanceof PyFloat || key instanceof Date;
  }
}
