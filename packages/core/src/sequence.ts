import type { Merger } from "./engine.js";
import { isMergeError, MergeError, type SourcePosition } from "./errors.js";
import type { TraceSink } from "./plugin.js";
import type { Registry } from "./registry.js";
import { normalizeSpec, type ParsedSpec, type SpecInput } from "./spec.js";
import { PyDict } from "./values/pydict.js";

/**
 * How declared mergers apply:
 * - `self`: a document's declared mergers decide how that document is merged in (what cloud-init does today);
 * - `following`: a document's declared mergers decide how the *next* documents are merged in; the stack starts
 *   with the default spec and each declaration is pushed on it (the design in cloud-init's merging doc).
 */
export type MergerScope = "self" | "following";

/** What an extractor finds in one item of the sequence. */
export interface Extracted {
  /** The document to merge, with the declaration removed. */
  readonly doc: unknown;
  /** The declared mergers, if any. */
  readonly spec?: SpecInput | undefined;
}

/**
 * Finds merger declarations in a sequence item (cloud-init's `merge_how` is one such extractor). It must not change
 * the item: return a copy without the declaration.
 */
export type MergerExtractor<T = unknown> = (item: T, index: number) => Extracted;

export interface DocumentError {
  readonly index: number;
  readonly error: MergeError;
}

export interface MergeAllOptions<T = unknown> {
  readonly registry: Registry;
  /** The default spec (the bottom of the stack). */
  readonly spec: SpecInput;
  readonly extract?: MergerExtractor<T>;
  /** Default `self`. */
  readonly scope?: MergerScope;
  /** Starting value of the fold. Default `{}`, or an empty `PyDict` with `exact`. */
  readonly initial?: unknown;
  /** Start from an empty `PyDict` (the exact model) instead of `{}` when no `initial` is given. */
  readonly exact?: boolean;
  /** Ignore unknown options in specs (cloud-init's behaviour). */
  readonly lenient?: boolean;
  readonly maxDepth?: number;
  readonly trace?: TraceSink;
  /** Names the documents in errors (`sources[i]` describes `docs[i]`). */
  readonly sources?: readonly (SourcePosition | undefined)[];
  /**
   * Called for a document that cannot be extracted, resolved or merged. When given, that document is skipped whole
   * (nothing it contains reaches the result) and the fold goes on; without it the error is thrown.
   */
  readonly onError?: (failure: DocumentError) => void;
}

/**
 * Folds documents left to right, starting from `{}` (or an empty `PyDict` with `exact`). Without `onError` the fold owns its accumulator: mergers with
 * in-place handlers change the containers the fold created instead of copying them for every document (documents
 * and `initial` are never changed). With `onError` each merge is pure, so a rejected document leaves the
 * accumulated value exactly as it was.
 */
export function mergeAll<T = unknown>(docs: Iterable<T>, options: MergeAllOptions<T>): unknown {
  const scope = options.scope ?? "self";
  const resolved = new Map<string, Merger>();
  const resolve = (spec: ParsedSpec): Merger => {
    // Not formatSpec: `dict(no_replace)` from a settings string (substring test) and from a list (exact test) format
    // alike but merge differently, so the cache key keeps the two apart.
    const key = JSON.stringify(spec);
    let merger = resolved.get(key);
    if (merger === undefined) {
      merger = options.registry.resolve(spec, {
        lenient: options.lenient,
        maxDepth: options.maxDepth,
        trace: options.trace,
      });
      resolved.set(key, merger);
    }
    return merger;
  };

  const base = resolve(normalizeSpec(options.spec));
  let following = base;
  let value: unknown =
    options.initial !== undefined ? options.initial : options.exact === true ? new PyDict() : {};
  // The containers the fold may change in place: its own `{}` and the copies the engine makes on first change.
  const owned = options.onError === undefined ? new Set<object>() : undefined;
  if (owned !== undefined && options.initial === undefined) owned.add(value as object);
  let index = 0;
  for (const item of docs) {
    const current = index++;
    try {
      const { doc, spec } =
        options.extract === undefined ? { doc: item, spec: undefined } : options.extract(item, current);
      const declared = spec === undefined || spec === null ? undefined : resolve(normalizeSpec(spec));
      const merger = scope === "self" ? (declared ?? base) : following;
      merger.setDocument(current);
      value = owned === undefined ? merger.merge(value, doc) : merger.mergeInto(value, doc, owned);
      if (scope === "following" && declared !== undefined) following = declared;
    } catch (error) {
      const failure = locate(error, current, options.sources?.[current]);
      if (options.onError === undefined) throw failure;
      options.onError({ index: current, error: failure });
    }
  }
  return value;
}

function locate(error: unknown, index: number, source: SourcePosition | undefined): MergeError {
  if (!isMergeError(error)) {
    return new MergeError("PLUGIN_FAILED", `document ${index + 1} could not be merged: ${String(error)}`, {
      source: { ...source, document: index },
      cause: error,
    });
  }
  if (error.source === undefined) error.source = { ...source, document: index };
  return error;
}
