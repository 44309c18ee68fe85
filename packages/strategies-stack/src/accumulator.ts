import {
  DEFAULT_MAX_DEPTH,
  type Dict,
  hasOwn,
  isPlainObject,
  MergeError,
  type PathKey,
  setKey,
} from "@merge/core";
import { cloneClean, cloneData, cloneList } from "./cleanup.js";
import { pyMembership } from "./equality.js";
import {
  DIRECTIVE_KEY,
  isListDirective,
  isStackStrategy,
  type StackStrategy,
  unknownStrategyMessage,
} from "./strategy.js";

export interface StackAccumulatorOptions {
  /** Strategy for mappings and lists without a `__` directive. Default `merge-last`, as in Salt. */
  readonly strategy?: StackStrategy;
  /** Starting data (copied, never changed). Default `{}`. */
  readonly initial?: Dict;
  /** Deepest nesting accepted; deeper input is a `DEPTH_LIMIT` error. Default 1000. */
  readonly maxDepth?: number;
}

/**
 * A PillarStack fold that owns its data: `merge(doc)` changes `value` in place, the way Salt grows its `stack`
 * dict, but never changes a document. Values taken from a document are copied on the way in, so the caller (or a
 * template holding `value`) may change `value` freely without reaching any document. A mapping found in `value`
 * that the accumulator did not create (a template put it there) is copied before it is changed.
 */
export interface StackAccumulator {
  /** The data merged so far. The same object between merges unless a top-level `__: overwrite` replaced it. */
  readonly value: Dict;
  /** Merges one document (a mapping) into `value`. */
  merge(doc: Dict): void;
}

export function createStackAccumulator(options: StackAccumulatorOptions = {}): StackAccumulator {
  const fallback = options.strategy ?? "merge-last";
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const owned = new WeakSet<object>();
  const path: PathKey[] = [];
  let swapped = 0;

  const fail = (written: unknown, where: "mapping" | "list"): never => {
    throw new MergeError("UNKNOWN_STRATEGY", unknownStrategyMessage(written, where), {
      path: path.slice(),
      plugin: "stack",
      details: { strategy: written },
    });
  };

  const copy = (value: unknown): unknown =>
    typeof value === "object" && value !== null ? cloneClean(value, maxDepth - path.length, owned) : value;

  const own = (dict: Dict): Dict => {
    if (owned.has(dict)) return dict;
    const out: Dict = {};
    for (const key of Object.keys(dict)) setKey(out, key, dict[key]);
    owned.add(out);
    return out;
  };

  const child = (old: unknown, value: unknown): unknown => {
    if (typeof value === "object" && value !== null && typeof old === "object" && old !== null) {
      if (Array.isArray(value)) {
        if (Array.isArray(old)) return mergeList(old, value);
      } else if (isPlainObject(value) && isPlainObject(old)) {
        return mergeDict(old, value);
      }
    }
    return copy(value);
  };

  const enter = (key: PathKey) => {
    if (path.length >= maxDepth) {
      throw new MergeError("DEPTH_LIMIT", `the input nests deeper than the limit of ${maxDepth} levels`, {
        path: path.slice(0, 40),
        details: { maxDepth },
      });
    }
    path.push(key);
  };

  function mergeDict(target: Dict, incoming: Dict): unknown {
    let strategy: StackStrategy = swapped > 0 ? "merge-last" : fallback;
    if (hasOwn(incoming, DIRECTIVE_KEY)) {
      const written = incoming[DIRECTIVE_KEY];
      if (!isStackStrategy(written)) fail(written, "mapping");
      strategy = written as StackStrategy;
    }
    if (strategy === "overwrite") return copy(incoming);
    const keys = Object.keys(incoming);
    if (strategy === "remove") {
      let out: Dict | undefined;
      for (const key of keys) {
        if (key === DIRECTIVE_KEY || !hasOwn(target, key)) continue;
        out ??= own(target);
        delete out[key];
      }
      return out ?? target;
    }
    const out = own(target);
    for (const key of keys) {
      if (key === DIRECTIVE_KEY) continue;
      const value = incoming[key];
      if (!hasOwn(out, key)) {
        setKey(out, key, copy(value));
        continue;
      }
      enter(key);
      if (strategy === "merge-first") {
        // Salt's swap: the cleaned new value takes the key and the old value is merged into it.
        const fresh = copy(value);
        swapped++;
        try {
          setKey(out, key, child(fresh, out[key]));
        } finally {
          swapped--;
        }
      } else {
        setKey(out, key, child(out[key], value));
      }
      path.pop();
    }
    return out;
  }

  function mergeList(target: readonly unknown[], incoming: readonly unknown[]): unknown[] {
    let strategy: StackStrategy = swapped > 0 ? "merge-last" : fallback;
    let start = 0;
    if (incoming.length > 0 && isListDirective(incoming[0])) {
      const written = incoming[0][DIRECTIVE_KEY];
      if (!isStackStrategy(written)) fail(written, "list");
      strategy = written as StackStrategy;
      start = 1;
    }
    const depth = maxDepth - path.length;
    // Salt builds a new list for every list merge (`stack + obj`), so no one holding the old list sees a change.
    switch (strategy) {
      case "overwrite":
        return cloneList(incoming, start, depth, owned, 0);
      case "remove": {
        const has = pyMembership(incoming, start);
        return target.filter((item) => !has(item));
      }
      case "merge-first":
        return [...cloneList(incoming, start, depth, owned, 0), ...target];
      default:
        return [...target, ...cloneList(incoming, start, depth, owned, 0)];
    }
  }

  let value: Dict = {};
  owned.add(value);
  if (options.initial !== undefined) value = cloneData(options.initial, maxDepth, owned, 0) as Dict;

  return {
    get value() {
      return value;
    },
    merge(doc) {
      if (!isPlainObject(doc)) {
        throw new MergeError("MERGE_TYPE", "a PillarStack document must be a mapping", { plugin: "stack" });
      }
      path.length = 0;
      swapped = 0;
      value = mergeDict(value, doc) as Dict;
    },
  };
}

/** Folds mappings left to right into a fresh result with PillarStack's rules. Documents are never changed. */
export function stackMergeAll(docs: Iterable<Dict>, options: StackAccumulatorOptions = {}): Dict {
  const accumulator = createStackAccumulator(options);
  for (const doc of docs) accumulator.merge(doc);
  return accumulator.value;
}
