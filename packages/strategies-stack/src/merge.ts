import { createRegistry, type Merger } from "@merge/core";
import { stackMerger } from "./plugin.js";
import type { StackStrategy } from "./strategy.js";

export interface StackMergeOptions {
  /** Strategy for mappings and lists without a `__` directive. Default `merge-last`, as in Salt. */
  readonly strategy?: StackStrategy;
  /** Deepest nesting followed; deeper input is a `DEPTH_LIMIT` error. Default 1000. */
  readonly maxDepth?: number;
}

// One resolved merger per default strategy, built on first use from a private registry (nothing global is touched).
const mergers = new Map<string, Merger>();

function mergerFor(strategy: StackStrategy, maxDepth: number | undefined): Merger {
  const key = `${strategy}/${maxDepth ?? ""}`;
  let merger = mergers.get(key);
  if (merger === undefined) {
    const spec = `stack(${strategy.replace("-", "_")})`;
    merger = createRegistry([stackMerger()]).resolve(spec, maxDepth === undefined ? {} : { maxDepth });
    mergers.set(key, merger);
  }
  return merger;
}

/**
 * Merges `data` into `stack` the way Salt's PillarStack merges a YAML file into the data merged so far, and returns
 * the result. Neither input is changed; the result shares untouched subtrees with them.
 */
export function stackMerge(stack: unknown, data: unknown, options: StackMergeOptions = {}): unknown {
  return mergerFor(options.strategy ?? "merge-last", options.maxDepth).merge(stack, data);
}
