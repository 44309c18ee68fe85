import { isMergeError, MergeError } from "./errors.js";
import { KindCode, kindCodeOf, VALUE_KINDS, type ValueKind } from "./kinds.js";
import { copyMapping, type Mapping } from "./mapping.js";
import type { PathKey } from "./path.js";
import { formatPath } from "./path.js";
import type {
  InPlaceHandlers,
  MergeHandler,
  MergeHandlers,
  MergerContext,
  MergerOptions,
  MergerPlugin,
  TraceAction,
  TraceSink,
} from "./plugin.js";
import type { ParsedSpec, SpecEntry } from "./spec.js";
import { formatSpec, formatSpecEntry } from "./spec.js";

/** How deep the engine recurses before giving up with `DEPTH_LIMIT` (or `CYCLIC_INPUT` when a cycle is the cause). */
export const DEFAULT_MAX_DEPTH = 1000;

export interface EngineOptions {
  /** Deepest nesting the merge follows; deeper input is a `DEPTH_LIMIT` error. Default 1000. */
  readonly maxDepth?: number;
  /** Receives provenance events; without it tracing costs nothing. */
  readonly trace?: TraceSink;
}

/** A resolved spec: merges two values by the kind of the base value. */
export interface Merger {
  readonly spec: ParsedSpec;
  /** Canonical spec string (`list(append)+dict()+str()`). */
  readonly label: string;
  /** Merges `incoming` into `base` and returns the result. Inputs are never changed. */
  merge(base: unknown, incoming: unknown): unknown;
  /**
   * The fold's fast path: like `merge`, but mappings and lists listed in `owned` (containers the caller created and
   * nobody else holds) may be changed in place by plugins with in-place handlers; containers of `target` not in
   * `owned` are copied before their first change and the copies are added to `owned`. `incoming` is never changed.
   * `mergeAll` uses it with an accumulator that starts as a fresh `{}`.
   */
  mergeInto(target: unknown, incoming: unknown, owned: Set<object>): unknown;
  /** The label of the plugin that handles base values of this kind, if any. */
  handlerFor(kind: ValueKind): string | undefined;
  /** Sets the document index reported in trace events (used by `mergeAll`). */
  setDocument(index: number | undefined): void;
}

/** One plugin of a spec with the options validated for it. */
export interface PluginUse {
  readonly plugin: MergerPlugin;
  readonly entry: SpecEntry;
  readonly options: MergerOptions;
}

/**
 * Builds the merge function for a resolved spec. Dispatch is a 7-slot table indexed by the base value's kind,
 * filled by the first plugin in spec order that handles each kind; unhandled kinds return the base unchanged.
 * The path is a stack pushed only when a plugin passes a key, so the inner loop allocates nothing.
 */
export function createMerger(
  spec: ParsedSpec,
  uses: readonly PluginUse[],
  options: EngineOptions = {},
): Merger {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const trace = options.trace;
  const table: (MergeHandler | undefined)[] = new Array(VALUE_KINDS.length).fill(undefined);
  const owners: (string | undefined)[] = new Array(VALUE_KINDS.length).fill(undefined);
  // In-place handlers for dict (0) and list (1), set only when the plugin owning that kind provides one.
  const inPlaceTable: (MergeHandler | undefined)[] = [undefined, undefined];
  // Containers that may be changed in place; set only while `mergeInto` runs.
  let owned: Set<object> | undefined;
  const path: PathKey[] = [];
  // Values on the current recursion chain; only read when the depth limit is hit, to tell a cycle apart. Levels
  // above `chainFrom` are not recorded: configuration rarely nests that deep, so the common merge skips the store,
  // and a cycle shorter than the remaining levels still repeats inside what is recorded.
  const chain: unknown[] = [];
  const chainFrom = maxDepth > 64 ? 32 : 0;
  let depth = 0;
  let document: number | undefined;

  const record = (
    action: TraceAction,
    merger: string,
    key: PathKey | undefined,
    detail: string | undefined,
  ) => {
    if (trace === undefined) return;
    const at = key === undefined ? path.slice() : [...path, key];
    trace.record({ path: at, action, merger, document, detail });
  };

  function merge(base: unknown, incoming: unknown, key?: PathKey): unknown {
    const kind = kindCodeOf(base);
    let handler = table[kind];
    if (handler === undefined) {
      if (trace !== undefined) record("unchanged", "engine", key, `no merger handles ${VALUE_KINDS[kind]}`);
      return base;
    }
    if (depth >= maxDepth) throw depthError(key);
    if (owned !== undefined && kind <= KindCode.List && inPlaceTable[kind] !== undefined) {
      // Copy on first change: after this the container belongs to the fold and later documents change it in place.
      if (!owned.has(base as object)) {
        base = kind === KindCode.Dict ? copyMapping(base as Mapping) : (base as unknown[]).slice();
        owned.add(base as object);
      }
      handler = inPlaceTable[kind];
    }
    if (key !== undefined) path.push(key);
    if (depth >= chainFrom) chain[depth] = base;
    depth++;
    // No `finally`: the normal path unwinds inline, which keeps the per-level cost to a few stores.
    let result: unknown;
    try {
      result = (handler as (b: unknown, i: unknown) => unknown)(base, incoming);
    } catch (error) {
      const stamped = stamp(error, kind);
      unwind(key);
      throw stamped;
    }
    unwind(key);
    return result;
  }

  function unwind(key: PathKey | undefined): void {
    depth--;
    if (key !== undefined) path.pop();
    if (depth === 0 && chain.length !== 0) chain.length = 0;
  }

  function depthError(key: PathKey | undefined): MergeError {
    const at = key === undefined ? path.slice() : [...path, key];
    const seen = new Set<unknown>();
    for (const value of chain) {
      if (typeof value === "object" && value !== null) {
        if (seen.has(value)) {
          return new MergeError("CYCLIC_INPUT", "the input refers to itself (a cycle); it cannot be merged", {
            path: at.slice(0, 40),
          });
        }
        seen.add(value);
      }
    }
    return new MergeError("DEPTH_LIMIT", `the input nests deeper than the limit of ${maxDepth} levels`, {
      path: at.slice(0, 40),
      details: { maxDepth },
    });
  }

  // Gives whatever a plugin threw a code, the plugin's label and the key path. The innermost level does it once;
  // outer levels see a stamped MergeError and pass it on.
  function stamp(error: unknown, kind: KindCode): MergeError {
    if (isMergeError(error)) {
      if (error.keys === undefined) error.keys = path.slice();
      if (error.plugin === undefined) error.plugin = owners[kind];
      return error;
    }
    const plugin = owners[kind]!;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return new MergeError("DEPTH_LIMIT", `the input nests too deep to merge (${error.message})`, {
        path: path.slice(),
        plugin,
        cause: error,
      });
    }
    const reason = error instanceof Error ? error.message : String(error);
    const at = path.length === 0 ? "the root" : formatPath(path);
    return new MergeError("PLUGIN_FAILED", `merger ${plugin} failed at ${at}: ${reason}`, {
      path: path.slice(),
      plugin,
      cause: error,
    });
  }

  for (const use of uses) {
    const label = formatSpecEntry(use.entry);
    const context: MergerContext = {
      merge,
      entry: use.entry,
      label,
      tracing: trace !== undefined,
      explain: (action, key, detail) => record(action, label, key, detail),
      path: () => path.slice(),
      fail: (code, message, details) => {
        throw new MergeError(code, message, { path: path.slice(), plugin: label, details });
      },
    };
    let handlers: MergeHandlers;
    try {
      handlers = use.plugin.create(use.options, context);
    } catch (error) {
      if (isMergeError(error)) throw error;
      throw new MergeError("INVALID_PLUGIN", `merger ${label} could not be created: ${String(error)}`, {
        plugin: label,
        cause: error,
      });
    }
    for (const kind of use.plugin.kinds) {
      const code = VALUE_KINDS.indexOf(kind);
      const handler = handlers[kind];
      if (typeof handler !== "function") {
        throw new MergeError(
          "INVALID_PLUGIN",
          `plugin "${use.plugin.name}" declares kind "${kind}" but create() returned no handler for it`,
          { plugin: label },
        );
      }
      if (table[code] === undefined) {
        table[code] = handler as MergeHandler;
        owners[code] = label;
        const inPlace = handlers.inPlace?.[kind as keyof InPlaceHandlers];
        if (typeof inPlace === "function" && code <= KindCode.List)
          inPlaceTable[code] = inPlace as MergeHandler;
      }
    }
  }

  return {
    spec,
    label: formatSpec(spec),
    merge: (base, incoming) => merge(base, incoming),
    mergeInto: (target, incoming, ownedSet) => {
      const outer = owned;
      owned = ownedSet;
      try {
        return merge(target, incoming);
      } finally {
        owned = outer;
      }
    },
    handlerFor: (kind) => owners[VALUE_KINDS.indexOf(kind)],
    setDocument: (index) => {
      document = index;
    },
  };
}
