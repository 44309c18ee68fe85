import fastifyDeepmerge from "@fastify/deepmerge";
import { createRegistry, type MergerPlugin, mergeAll } from "@merge/core";
import deepmerge from "deepmerge";
import { deepmerge as deepmergeTs } from "deepmerge-ts";
import { defu } from "defu";
import lodashMerge from "lodash.merge";
import { floorFold, floorMerge } from "./floor.js";

/** One way of merging: two values, or a fold of documents from `{}`. */
export interface Contender {
  readonly name: string;
  /** How the library was called to get these semantics, and what differs by design. */
  readonly how: string;
  /** True for the engine itself (the reference output); false for peers and the floor. */
  readonly reference?: boolean;
  /** True for the hand-written floor (not a peer). */
  readonly floor?: boolean;
  /** True for another configuration of our own engine (shown for comparison, not a peer). */
  readonly variant?: boolean;
  merge(base: unknown, incoming: unknown): unknown;
  fold(docs: readonly unknown[]): unknown;
}

/** A deep copy by structure (lodash.merge mutates its target, so it is given a copy, and the copy is timed). */
function clone<T>(value: T): T {
  return structuredClone(value);
}

/**
 * The engine resolved with `stack()` (merge-last), plus the libraries on the same semantics. `variant` adds the
 * engine once more with another plugin (the bench's stand-in, which has in-place handlers) for comparison.
 */
export function createContenders(stackPlugin: MergerPlugin, variant?: MergerPlugin): Contender[] {
  const registry = createRegistry().use(stackPlugin).freeze();
  const merger = registry.resolve("stack()");
  const extra: Contender[] = [];
  if (variant !== undefined) {
    const variantRegistry = createRegistry().use(variant).freeze();
    const variantMerger = variantRegistry.resolve("stack()");
    extra.push({
      name: "@merge/core + in-place stand-in",
      how: "the engine with the bench's merge-last plugin, which provides in-place handlers (owned-accumulator folds)",
      variant: true,
      merge: (a, b) => variantMerger.merge(a, b),
      fold: (docs) => mergeAll(docs, { registry: variantRegistry, spec: "stack()" }),
    });
  }
  const fastify = fastifyDeepmerge();
  const fastifyAll = fastifyDeepmerge({ all: true });
  return [
    {
      name: "@merge/core stack()",
      how: 'registry.resolve("stack()").merge(a, b); folds through mergeAll(docs, { spec: "stack()" })',
      reference: true,
      merge: (a, b) => merger.merge(a, b),
      fold: (docs) => mergeAll(docs, { registry, spec: "stack()" }),
    },
    ...extra,
    {
      name: "hand-written loop",
      how: "single-purpose recursive merge sharing untouched subtrees; folds into an owned accumulator",
      floor: true,
      merge: floorMerge,
      fold: floorFold,
    },
    {
      name: "@fastify/deepmerge",
      how: "deepmerge() (arrays concatenated by default; returns fresh copies); folds with { all: true }",
      merge: (a, b) => fastify(a, b),
      fold: (docs) => fastifyAll(...docs),
    },
    {
      name: "deepmerge",
      how: "deepmerge(a, b) (clone: true, arrays concatenated); folds with deepmerge.all",
      merge: (a, b) => deepmerge(a as object, b as object),
      fold: (docs) => deepmerge.all([{}, ...(docs as object[])]),
    },
    {
      name: "deepmerge-ts",
      how: "deepmerge(a, b) (arrays concatenated, shares leaves); folds with deepmerge(...docs)",
      merge: (a, b) => deepmergeTs(a, b),
      fold: (docs) => deepmergeTs({}, ...(docs as object[])),
    },
    {
      name: "lodash.merge",
      how: "merge(structuredClone(a), b) since it mutates its target; merges arrays by index, not by concatenation",
      merge: (a, b) => lodashMerge(clone(a), b),
      fold: (docs) => lodashMerge({}, ...(docs as object[])),
    },
    {
      name: "defu",
      how: "defu(b, a) (the first argument has priority); concatenates arrays new-first and skips null values",
      merge: (a, b) => defu(b as Record<string, unknown>, a as Record<string, unknown>),
      fold: (docs) => defu({}, ...([...docs].reverse() as Record<string, unknown>[])),
    },
  ];
}
