import {
  copyMapping,
  DEFAULT_MAX_DEPTH,
  deleteItem,
  emptyLike,
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  MergeError,
  mappingKeys,
  type PathKey,
  PyDict,
  setItem,
} from "@merge/core";
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
  /** Starting data (copied, never changed). Default `{}`, or an empty `PyDict` with `exact`. */
  readonly initial?: Mapping;
  /** Start from an empty `PyDict` (the exact model) when no `initial` is given. */
  readonly exact?: boolean;
  /** Deepest nesting accepted; deeper input is a `DEPTH_LIMIT` error. Default 1000. */
  readonly maxDepth?: number;
  /**
   * Change in place the containers in `value` that the accumulator did not make (those a template put in `stack`), as
   * Salt changes everything in its stack, instead of copying them first: a mapping a template put under two keys then
   * shows a merge into either under both, and merge-first keeps such a value itself where Salt does. Frozen containers
   * are still copied before a change. For a caller whose containers in `value` are its own to change (the stack
   * loader: what its templates made for this host). Default false: nothing the accumulator did not make is changed.
   */
  readonly inPlace?: boolean;
}

/**
 * A PillarStack fold that owns its data and runs Salt's algorithm step for step: `merge(doc)` changes `value` in
 * place, the way Salt grows its `stack` dict. Each document is first copied (keeping its shared parts shared, as a
 * YAML alias makes them) and Salt's changes to the document happen on that copy, so documents are never changed,
 * yet a value that appears under two keys behaves as it does under Salt (merging into one changes both).
 * A mapping found in `value` that the accumulator did not create (a template put it there) is copied before it is
 * changed, so nothing outside the accumulator is ever changed through it.
 */
export interface StackAccumulator {
  /** The data merged so far. The same object between merges unless a top-level `__: overwrite` replaced it. */
  readonly value: Mapping;
  /** Merges one document (a mapping) into `value`. */
  merge(doc: Mapping, how?: StackDocumentOptions): void;
  /**
   * Copies into `value` whatever it still shares with documents merged `shared`, so that changing `value` (as a
   * template may change `stack`) changes no document. Values shared twice become two copies, as two parses would
   * have made them in Salt; every other value stays as it is, a value a template put in two places included (it
   * stays one value, as in Salt). May replace `value`.
   */
  own(): void;
}

export interface StackDocumentOptions {
  /**
   * The document's frozen containers (`PyDict.freeze()`, `Object.freeze`) join `value` as they are instead of as
   * copies, and are copied only where a later merge changes them: for documents that hold no container twice (no YAML
   * alias), such as a loader's cache of parsed files, frozen. A container that is not frozen is copied as without
   * `shared`. `value` then shares containers with the document until `own()`. Default false.
   */
  readonly shared?: boolean;
}

export function createStackAccumulator(options: StackAccumulatorOptions = {}): StackAccumulator {
  const fallback = options.strategy ?? "merge-last";
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const owned = new WeakSet<object>();
  const inPlace = options.inPlace === true;
  // Whether a container may be changed as it is: the accumulator made it, or (inPlace) a template did.
  const writable = (container: object): boolean => owned.has(container) || (inPlace && !isFrozen(container));
  const path: PathKey[] = [];
  // Above zero while an old value is merged *into* a new one (merge-first's swap); the default is then merge-last,
  // Salt's hard-wired default, so the old side wins at every depth.
  let swapped = 0;

  const tooDeep = (): MergeError =>
    new MergeError(
      "DEPTH_LIMIT",
      `the input nests deeper than the limit of ${maxDepth} levels (or refers to itself)`,
      {
        path: path.slice(0, 40),
        plugin: "stack",
        details: { maxDepth },
      },
    );

  const unknown = (written: unknown, where: "mapping" | "list"): never => {
    throw new MergeError("UNKNOWN_STRATEGY", unknownStrategyMessage(written, where), {
      path: path.slice(),
      plugin: "stack",
      details: { strategy: written },
    });
  };

  // Copies made of the current document's values, by original: shared parts (YAML aliases) stay shared, and a
  // copy is the live state of its original from then on (Salt changes the document itself as it merges).
  let memo = new Map<object, unknown>();
  const copying = new Set<object>();

  const live = (value: unknown): unknown =>
    typeof value === "object" && value !== null ? (memo.has(value) ? memo.get(value) : value) : value;

  // Whether the document being merged is shared (see StackDocumentOptions): its frozen values are then taken as they
  // are.
  let sharing = false;

  // The owned deep copy of a document value (the value itself when the accumulator already owns it, or when it is a
  // frozen part of a shared document: it holds no container twice, so no copy is needed to keep aliases together).
  // Anything else is copied as in a document that is not shared: a value a template made and put in `stack` (met
  // again when merge-first moves the old value into the new one) must become the same copy as in a copying fold.
  const adopt = (value: unknown, depth: number): unknown => {
    if (typeof value !== "object" || value === null || owned.has(value)) return value;
    if (sharing && isFrozen(value)) return value;
    // Inside merge-first's swap the value comes from the stack, not from the document: Salt moves that very value.
    if (inPlace && swapped > 0 && !isFrozen(value)) return value;
    const isList = Array.isArray(value);
    if (!isList && !isMapping(value)) return value;
    if (memo.has(value)) return memo.get(value);
    if (copying.has(value)) {
      throw new MergeError("CYCLIC_INPUT", "the input refers to itself (a cycle); it cannot be merged", {
        path: path.slice(0, 40),
        plugin: "stack",
      });
    }
    if (depth >= maxDepth) throw tooDeep();
    copying.add(value);
    let out: unknown[] | Mapping;
    if (isList) {
      out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) out[i] = adopt(value[i], depth + 1);
    } else {
      const source = value as Mapping;
      out = emptyLike(source);
      for (const key of mappingKeys(source)) setItem(out, key, adopt(getItem(source, key), depth + 1));
    }
    copying.delete(value);
    owned.add(out);
    memo.set(value, out);
    return out;
  };

  // The mapping itself when it may be changed (see `writable`), else an owned shallow copy (for values a template put
  // in, and frozen ones).
  const writableDict = (dict: Mapping): Mapping => {
    if (writable(dict)) return dict;
    const out = copyMapping(dict);
    owned.add(out);
    return out;
  };

  // The list without its first item: in place when it may be changed (Salt's `del obj[0]`), else a new owned list.
  const dropFirst = (list: unknown[]): unknown[] => {
    if (writable(list)) {
      list.splice(0, 1);
      return list;
    }
    const out = list.slice(1);
    owned.add(out);
    return out;
  };

  // Salt's _cleanup on an owned value: drops `__` from mappings reached through mappings and the directive opening
  // such a list, in place.
  const cleanup = (value: unknown, depth: number): unknown => {
    if (typeof value !== "object" || value === null) return value;
    // A frozen part of a shared document (adopt keeps those): copied only where the cleanup changes it.
    if (sharing && isFrozen(value)) return cleanupShared(value, depth);
    if (Array.isArray(value)) return value.length > 0 && isListDirective(value[0]) ? dropFirst(value) : value;
    if (!isMapping(value)) return value;
    const keys = mappingKeys(value);
    if (keys.length === 0) return value;
    if (depth >= maxDepth) throw tooDeep();
    const dict = writableDict(value);
    deleteItem(dict, DIRECTIVE_KEY);
    for (const key of keys) {
      if (key === DIRECTIVE_KEY) continue;
      const child = getItem(dict, key);
      if (typeof child === "object" && child !== null) setItem(dict, key, cleanup(child, depth + 1));
    }
    return dict;
  };

  // Salt's _cleanup on a shared value: the same result, but a mapping is copied only when something under it
  // changes, and the rest stays shared.
  const cleanupShared = (value: unknown, depth: number): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.length > 0 && isListDirective(value[0]) ? dropFirst(value) : value;
    if (!isMapping(value)) return value;
    const keys = mappingKeys(value);
    if (keys.length === 0) return value;
    if (depth >= maxDepth) throw tooDeep();
    let dict: Mapping | undefined;
    if (hasItem(value, DIRECTIVE_KEY)) {
      dict = writableDict(value);
      deleteItem(dict, DIRECTIVE_KEY);
    }
    for (const key of keys) {
      if (key === DIRECTIVE_KEY) continue;
      const child = getItem(value, key);
      if (typeof child !== "object" || child === null) continue;
      const cleaned = cleanupShared(child, depth + 1);
      if (cleaned === child) continue;
      dict ??= writableDict(value);
      setItem(dict, key, cleaned);
    }
    return dict ?? value;
  };

  // What enters the stack from the document: owned, then cleaned.
  const enter = (value: unknown): unknown => cleanup(adopt(value, path.length), path.length);

  function mergeDict(stack: Mapping, obj: Mapping): Mapping {
    if (path.length >= maxDepth) throw tooDeep();
    let strategy: unknown = swapped > 0 ? "merge-last" : fallback;
    if (hasItem(obj, DIRECTIVE_KEY)) {
      strategy = getItem(obj, DIRECTIVE_KEY);
      // Salt pops the directive from the document: later uses of the same mapping no longer see it.
      obj = writableDict(adopt(obj, path.length) as Mapping);
      deleteItem(obj, DIRECTIVE_KEY);
    }
    if (!isStackStrategy(strategy)) unknown(strategy, "mapping");
    if (strategy === "overwrite") return enter(obj) as Mapping;
    const target = writableDict(stack);
    for (const key of mappingKeys(obj)) {
      if (strategy === "remove") {
        deleteItem(target, key);
        continue;
      }
      let value = live(getItem(obj, key));
      if (!hasItem(target, key)) {
        path.push(key);
        setItem(target, key, enter(value));
        path.pop();
        continue;
      }
      path.push(key);
      let entered = false;
      try {
        if (strategy === "merge-first") {
          // Salt's swap: the cleaned new value takes the key, then the old value is merged into it.
          const old = getItem(target, key);
          setItem(target, key, enter(value));
          value = old;
          swapped++;
          entered = true;
        }
        setItem(target, key, mergeValue(getItem(target, key), value));
      } finally {
        if (entered) swapped--;
        path.pop();
      }
    }
    return target;
  }

  function mergeValue(current: unknown, value: unknown): unknown {
    if (typeof current === "object" && current !== null && typeof value === "object" && value !== null) {
      if (Array.isArray(current)) {
        if (Array.isArray(value)) return mergeList(current, value);
      } else if (isMapping(current) && isMapping(value)) {
        return mergeDict(current, value);
      }
    }
    // Different types (or scalars): the value replaces what was there.
    return enter(value);
  }

  function mergeList(stack: readonly unknown[], obj: unknown[]): unknown[] {
    let strategy: unknown = swapped > 0 ? "merge-last" : fallback;
    if (obj.length > 0 && isListDirective(live(obj[0]))) {
      strategy = getItem(live(obj[0]) as Mapping, DIRECTIVE_KEY);
      obj = dropFirst(adopt(obj, path.length) as unknown[]);
    }
    if (!isStackStrategy(strategy)) unknown(strategy, "list");
    if (strategy === "remove") {
      const has = pyMembership(obj.map(live), 0);
      const kept = stack.filter((item) => !has(item));
      owned.add(kept);
      return kept;
    }
    // Items join the stack as they are (Salt does not clean inside lists), but owned.
    const items = adopt(obj, path.length) as unknown[];
    if (strategy === "overwrite") return items;
    // Salt builds a new list (`stack + obj`): whoever holds the old list does not see the change.
    const out = strategy === "merge-first" ? [...items, ...stack] : [...stack, ...items];
    owned.add(out);
    return out;
  }

  let value: Mapping = options.exact === true ? new PyDict() : {};
  owned.add(value);
  if (options.initial !== undefined) {
    value = adopt(options.initial, 0) as Mapping;
    memo = new Map();
  }

  const merge = (doc: Mapping, how?: StackDocumentOptions): void => {
    if (!isMapping(doc)) {
      throw new MergeError("MERGE_TYPE", "a PillarStack document must be a mapping", { plugin: "stack" });
    }
    path.length = 0;
    swapped = 0;
    copying.clear();
    sharing = how?.shared === true;
    try {
      value = mergeDict(value, doc);
    } finally {
      memo = new Map();
      sharing = false;
    }
  };

  // Walks `value` without recursion (a template may have nested it deeply, or put it inside itself), copying each
  // frozen container (a shared document's) where it is found; any other container is walked once however often it is
  // found and stays as it is: one a template made and put in two places is one value in Salt, and in a copying fold.
  const own = (): void => {
    const copyOf = (child: unknown): unknown => {
      if (typeof child !== "object" || child === null || owned.has(child) || !isFrozen(child)) return child;
      let copy: unknown;
      if (Array.isArray(child)) copy = child.slice();
      else if (isMapping(child)) copy = copyMapping(child);
      else return child;
      owned.add(copy as object);
      return copy;
    };
    value = copyOf(value) as Mapping;
    const walked = new Set<object>([value]);
    const pending: object[] = [value];
    const visit = (child: unknown): unknown => {
      const copy = copyOf(child);
      if (typeof copy === "object" && copy !== null && !walked.has(copy)) {
        walked.add(copy);
        pending.push(copy);
      }
      return copy;
    };
    while (pending.length > 0) {
      const container = pending.pop()!;
      if (Array.isArray(container)) {
        for (let i = 0; i < container.length; i++) {
          const copy = visit(container[i]);
          if (copy !== container[i]) container[i] = copy;
        }
      } else if (isMapping(container)) {
        for (const key of mappingKeys(container)) {
          const child = getItem(container, key);
          const copy = visit(child);
          if (copy !== child) setItem(container, key, copy);
        }
      }
    }
  };
  return new Accumulator(() => value, merge, own);
}

/** Whether a value is a frozen container (`PyDict.freeze()`, `Object.freeze`): a part of a document merged shared. */
function isFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return value instanceof PyDict ? value.isFrozen : Object.isFrozen(value);
}

/**
 * What `createStackAccumulator` returns. `value` is a getter of this class, not one written in the object literal
 * the factory returns: V8 gives every object literal with a getter function of its own a hidden class of its own
 * that holds the function, and hidden classes stay in the old generation until a full collection. Through the
 * getter's closure, that kept every merged stack alive through the young-generation collections that should have
 * freed it: a 400-host `--minions` batch promoted 24 MB of finished pillars and spent 90 ms collecting them (7 MB and
 * 50 ms with this class; see accumulator-memory.test.ts).
 */
class Accumulator implements StackAccumulator {
  readonly #read: () => Mapping;
  readonly merge: (doc: Mapping, how?: StackDocumentOptions) => void;
  readonly own: () => void;

  constructor(
    read: () => Mapping,
    merge: (doc: Mapping, how?: StackDocumentOptions) => void,
    own: () => void,
  ) {
    this.#read = read;
    this.merge = merge;
    this.own = own;
  }

  get value(): Mapping {
    return this.#read();
  }
}

/** Folds mappings left to right into a fresh result with PillarStack's rules. Documents are never changed. */
export function stackMergeAll(docs: Iterable<Mapping>, options: StackAccumulatorOptions = {}): Mapping {
  const accumulator = createStackAccumulator(options);
  for (const doc of docs) accumulator.merge(doc);
  return accumulator.value;
}
