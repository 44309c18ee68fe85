import {
  copyDict,
  deleteItem,
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  type MappingKey,
  MergeError,
  type MergerContext,
  type MergerOptions,
  type MergerPlugin,
  mappingKeys,
  type PathKey,
  PyDict,
  setItem,
} from "@merge/core";
import { cleanShared } from "./cleanup.js";
import { pyMembership } from "./equality.js";
import {
  DIRECTIVE_KEY,
  isListDirective,
  isStackStrategy,
  type StackStrategy,
  unknownStrategyMessage,
} from "./strategy.js";

declare module "@merge/core" {
  interface MergerMap {
    stack: StackOption;
  }
}

/** The options of `stack(...)`: the default strategy (`-` may be written for `_`). */
export type StackOption = "merge_last" | "merge_first" | "remove" | "overwrite";

// Spec options arrive with `-` read as `_` (core's spec parser), so `stack(merge-first)` gives `merge_first`.
const OPTION_STRATEGIES: Readonly<Record<StackOption, StackStrategy>> = Object.freeze({
  merge_last: "merge-last",
  merge_first: "merge-first",
  remove: "remove",
  overwrite: "overwrite",
});

/** The strategy a `stack(...)` spec entry selects as the default (`merge-last` when none is given). */
export function strategyFromOptions(options: MergerOptions): StackStrategy {
  const chosen = (Object.keys(OPTION_STRATEGIES) as StackOption[]).filter((option) => options.has(option));
  if (chosen.length > 1) {
    throw new MergeError(
      "SPEC_SYNTAX",
      `stack() takes at most one default strategy, got ${chosen.join(", ")}`,
      { plugin: "stack", details: { options: chosen } },
    );
  }
  return chosen.length === 1 ? OPTION_STRATEGIES[chosen[0]!]! : "merge-last";
}

/**
 * The `stack` merger: Salt PillarStack's merging of a new YAML mapping into the data merged so far.
 * Mappings merge key by key and lists concatenate unless a `__` directive picks another strategy; scalars and
 * values of different types are replaced by the new value. Pure: inputs are never changed, untouched subtrees are
 * shared with them. Its in-place handlers let `mergeAll` grow an accumulator it owns, with the same results.
 */
export function stackMerger(): MergerPlugin<"stack", StackOption> {
  return {
    name: "stack",
    kinds: ["dict", "list", "string", "number", "boolean", "null", "other"],
    description:
      "Salt PillarStack: merge-last (default), merge-first, remove or overwrite, chosen by `__` directives",
    options: {
      merge_last: "default strategy: mappings merge recursively, lists append the new items (Salt's default)",
      merge_first:
        "default strategy: like merge_last but the existing values win and new list items come first",
      remove: "default strategy: delete the keys (or equal list items) that the new value lists",
      overwrite: "default strategy: the new value replaces the old one",
    },
    create: (options, ctx) => createHandlers(strategyFromOptions(options), ctx),
  };
}

function createHandlers(fallback: StackStrategy, ctx: MergerContext) {
  // Above zero while an old value is being merged *into* a new one (merge-first swaps them, like Salt). There the
  // default is always merge-last, whatever default the spec chose, so the old side wins at every depth.
  let swapped = 0;

  const replace = (incoming: unknown) =>
    typeof incoming === "object" && incoming !== null ? cleanShared(incoming) : incoming;

  // Merges one key's values the way Salt does: same container type recurses, anything else takes the new value.
  const child = (old: unknown, value: unknown, key: PathKey): unknown => {
    if (typeof value === "object" && value !== null && typeof old === "object" && old !== null) {
      if (Array.isArray(value)) {
        if (Array.isArray(old)) return ctx.merge(old, value, key);
      } else if (isMapping(value) && isMapping(old)) {
        return ctx.merge(old, value, key);
      }
      if (ctx.tracing) ctx.explain("replaced", key, "types differ");
      return cleanShared(value);
    }
    if (ctx.tracing && old !== value) ctx.explain("replaced", key);
    return typeof value === "object" && value !== null ? cleanShared(value) : value;
  };

  // merge-first: the cleaned new value takes the key, then the old value is merged into it.
  const swap = (old: unknown, value: unknown, key: PathKey): unknown => {
    const fresh = replace(value);
    swapped++;
    try {
      return child(fresh, old, key);
    } finally {
      swapped--;
    }
  };

  const dictStrategy = (incoming: Mapping): StackStrategy => {
    if (!hasItem(incoming, DIRECTIVE_KEY)) return swapped > 0 ? "merge-last" : fallback;
    const written = getItem(incoming, DIRECTIVE_KEY);
    if (!isStackStrategy(written)) {
      ctx.fail("UNKNOWN_STRATEGY", unknownStrategyMessage(written, "mapping"), { strategy: written });
    }
    return written;
  };

  const dict = (base: Mapping, incoming: unknown): unknown => {
    if (!isMapping(incoming)) return incoming === undefined ? base : replace(incoming);
    const strategy = dictStrategy(incoming);
    if (strategy === "overwrite") return overwrite(incoming);
    const keys = mappingKeys(incoming);
    if (strategy === "remove") return removeKeys(base, keys);
    let out: Mapping | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === DIRECTIVE_KEY) continue;
      const value = getItem(incoming, key);
      let next: unknown;
      if (hasItem(base, key)) {
        const old = getItem(base, key);
        next = strategy === "merge-first" ? swap(old, value, key) : child(old, value, key);
        if (next === old) continue;
      } else {
        next = typeof value === "object" && value !== null ? cleanShared(value) : value;
        if (ctx.tracing) ctx.explain("added", key);
      }
      if (out === undefined) out = copyForWrite(base);
      setItem(out, key, next);
    }
    return out ?? base;
  };

  // The same merge as `dict`, writing into `target`, a mapping the fold owns (see core's InPlaceHandlers).
  const dictInto = (target: Mapping, incoming: unknown): unknown => {
    if (!isMapping(incoming)) return incoming === undefined ? target : replace(incoming);
    const strategy = dictStrategy(incoming);
    if (strategy === "overwrite") return overwrite(incoming);
    const keys = mappingKeys(incoming);
    if (strategy === "remove") return removeKeysInto(target, keys);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === DIRECTIVE_KEY) continue;
      const value = getItem(incoming, key);
      let next: unknown;
      if (hasItem(target, key)) {
        const old = getItem(target, key);
        next = strategy === "merge-first" ? swap(old, value, key) : child(old, value, key);
        if (next === old) continue;
      } else {
        next = typeof value === "object" && value !== null ? cleanShared(value) : value;
        if (ctx.tracing) ctx.explain("added", key);
      }
      setItem(target, key, next);
    }
    return target;
  };

  const overwrite = (incoming: Mapping): unknown => {
    if (ctx.tracing) ctx.explain("replaced", undefined, "__: overwrite");
    return cleanShared(incoming);
  };

  const removeKeys = (base: Mapping, keys: readonly MappingKey[]): Mapping => {
    let out: Mapping | undefined;
    for (const key of keys) {
      if (key === DIRECTIVE_KEY || !hasItem(out ?? base, key)) continue;
      out ??= copyForWrite(base);
      deleteItem(out, key);
    }
    if (out === undefined) return base;
    // Traces name removed keys in the mapping's order.
    if (ctx.tracing) for (const key of mappingKeys(base)) if (!hasItem(out, key)) ctx.explain("removed", key);
    return out;
  };

  // `remove` on an owned mapping: deletes the keys (the others keep their order, as in the copy `removeKeys` makes).
  const removeKeysInto = (target: Mapping, keys: readonly MappingKey[]): Mapping => {
    // Traces name removed keys in the mapping's order, as the pure merge does; the snapshot costs a pass.
    const before = ctx.tracing ? mappingKeys(target) : undefined;
    for (const key of keys) if (key !== DIRECTIVE_KEY) deleteItem(target, key);
    if (before !== undefined)
      for (const key of before) if (!hasItem(target, key)) ctx.explain("removed", key);
    return target;
  };

  // The strategy of a list merge and where the new items start (after a `- __: strategy` directive item).
  let listStart = 0;
  const listStrategy = (incoming: readonly unknown[]): StackStrategy => {
    listStart = 0;
    if (incoming.length > 0 && isListDirective(incoming[0])) {
      const written = getItem(incoming[0], DIRECTIVE_KEY);
      if (!isStackStrategy(written)) {
        ctx.fail("UNKNOWN_STRATEGY", unknownStrategyMessage(written, "list"), { strategy: written });
      }
      listStart = 1;
      return written;
    }
    return swapped > 0 ? "merge-last" : fallback;
  };

  const list = (base: readonly unknown[], incoming: unknown): unknown => {
    if (!Array.isArray(incoming)) return incoming === undefined ? base : replace(incoming);
    const strategy = listStrategy(incoming);
    const start = listStart;
    switch (strategy) {
      case "overwrite":
        if (ctx.tracing) ctx.explain("replaced", undefined, "__: overwrite");
        return start === 0 ? incoming : incoming.slice(start);
      case "remove": {
        const has = pyMembership(incoming, start);
        const kept = base.filter((item) => !has(item));
        if (ctx.tracing && kept.length !== base.length) ctx.explain("removed", undefined, "equal items");
        return kept.length === base.length ? base : kept;
      }
      case "merge-first":
        if (incoming.length === start) return base;
        if (ctx.tracing) ctx.explain("prepended");
        return concat(incoming, start, base);
      default:
        if (incoming.length === start) return base;
        if (ctx.tracing) ctx.explain("appended");
        return concat(base, 0, incoming, start);
    }
  };

  // The same merge as `list`, changing `target`, a list the fold owns.
  const listInto = (target: unknown[], incoming: unknown): unknown => {
    if (!Array.isArray(incoming)) return incoming === undefined ? target : replace(incoming);
    const strategy = listStrategy(incoming);
    const start = listStart;
    const added = incoming.length - start;
    switch (strategy) {
      case "overwrite":
        if (ctx.tracing) ctx.explain("replaced", undefined, "__: overwrite");
        return start === 0 ? incoming : incoming.slice(start);
      case "remove": {
        const has = pyMembership(incoming, start);
        let kept = 0;
        for (let i = 0; i < target.length; i++) {
          const item = target[i];
          if (!has(item)) target[kept++] = item;
        }
        if (ctx.tracing && kept !== target.length) ctx.explain("removed", undefined, "equal items");
        target.length = kept;
        return target;
      }
      case "merge-first": {
        if (added === 0) return target;
        if (ctx.tracing) ctx.explain("prepended");
        // Grow by pushing (no holes), shift the old items right, then write the new ones in front.
        const old = target.length;
        for (let i = 0; i < added; i++) target.push(undefined);
        for (let i = old - 1; i >= 0; i--) target[i + added] = target[i];
        for (let i = 0; i < added; i++) target[i] = incoming[start + i];
        return target;
      }
      default:
        if (added === 0) return target;
        if (ctx.tracing) ctx.explain("appended");
        for (let i = start; i < incoming.length; i++) target.push(incoming[i]);
        return target;
    }
  };

  const scalar = (_base: unknown, incoming: unknown): unknown =>
    incoming === undefined ? _base : replace(incoming);

  return {
    dict,
    list,
    string: scalar,
    number: scalar,
    boolean: scalar,
    null: scalar,
    other: scalar,
    inPlace: { dict: dictInto, list: listInto },
  };
}

// Spread is V8's quickest copy of a small mapping, but on large ones it leaves the fast path (a 200-key mapping:
// 2× slower than a key loop in a fresh process, 30× once the process holds thousands of object shapes). Measured
// crossover: between 12 and 24 keys.
const SPREAD_MAX_KEYS = 16;

function copyForWrite(base: Mapping): Mapping {
  if (base instanceof PyDict) return base.copy();
  return Object.keys(base).length <= SPREAD_MAX_KEYS ? { ...base } : copyDict(base);
}

// `Array.prototype.concat` when the new items start at 0 (V8 copies both in one step, about 1.4× faster than an
// index loop on 10^4 items); a loop when a directive item must be skipped.
function concat(first: readonly unknown[], from: number, second: readonly unknown[], start = 0): unknown[] {
  if (from === 0 && start === 0) return first.concat(second);
  const out = new Array<unknown>(first.length - from + second.length - start);
  let n = 0;
  for (let i = from; i < first.length; i++) out[n++] = first[i];
  for (let i = start; i < second.length; i++) out[n++] = second[i];
  return out;
}
