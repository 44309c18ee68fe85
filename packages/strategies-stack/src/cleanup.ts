import {
  DEFAULT_MAX_DEPTH,
  emptyLike,
  getItem,
  isMapping,
  type Mapping,
  type MappingKey,
  MergeError,
  mappingKeys,
  setItem,
} from "@merge/core";
import { DIRECTIVE_KEY, isListDirective } from "./strategy.js";

/*
 * Salt's cleanup of a value that enters the stack without being merged: it drops `__` from every mapping reached
 * through mappings, and the directive item opening a list reached that way. It does NOT look inside list items, so a
 * mapping inside a list keeps its `__` key.
 */

/**
 * The cleaned value, sharing everything that needs no change: the input itself when it holds no directive.
 * Never mutates its input.
 */
export function cleanShared(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.length > 0 && isListDirective(value[0]) ? value.slice(1) : value;
  if (!isMapping(value)) return value;
  if (depth >= DEFAULT_MAX_DEPTH) throw tooDeep(DEFAULT_MAX_DEPTH);
  const keys = mappingKeys(value);
  let out: Mapping | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === DIRECTIVE_KEY) {
      if (out === undefined) out = prefix(value, keys, i);
      continue;
    }
    const child = getItem(value, key);
    const cleaned = typeof child === "object" && child !== null ? cleanShared(child, depth + 1) : child;
    if (out === undefined && cleaned !== child) out = prefix(value, keys, i);
    if (out !== undefined) setItem(out, key, cleaned);
  }
  return out ?? value;
}

// A new mapping with the first `end` keys of `source` (none of them is the directive: it is handled on sight).
function prefix(source: Mapping, keys: readonly MappingKey[], end: number): Mapping {
  const out = emptyLike(source);
  for (let i = 0; i < end; i++) setItem(out, keys[i]!, getItem(source, keys[i]!));
  return out;
}

export function tooDeep(maxDepth: number): MergeError {
  return new MergeError(
    "DEPTH_LIMIT",
    `the input nests deeper than the limit of ${maxDepth} levels (or refers to itself)`,
    { details: { maxDepth } },
  );
}
