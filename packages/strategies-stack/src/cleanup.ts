import { DEFAULT_MAX_DEPTH, type Dict, isPlainObject, MergeError, setKey } from "@merge/core";
import { DIRECTIVE_KEY, isListDirective } from "./strategy.js";

/*
 * Salt's cleanup of a value that enters the stack without being merged: it drops `__` from every mapping reached
 * through mappings, and the directive item opening a list reached that way. It does NOT look inside list items, so a
 * mapping inside a list keeps its `__` key. Both functions below follow exactly that reach.
 */

/**
 * The cleaned value, sharing everything that needs no change: the input itself when it holds no directive.
 * Never mutates its input.
 */
export function cleanShared(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.length > 0 && isListDirective(value[0]) ? value.slice(1) : value;
  if (!isPlainObject(value)) return value;
  if (depth >= DEFAULT_MAX_DEPTH) throw tooDeep(DEFAULT_MAX_DEPTH);
  const keys = Object.keys(value);
  let out: Dict | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === DIRECTIVE_KEY) {
      if (out === undefined) out = prefix(value, keys, i);
      continue;
    }
    const child = value[key];
    const cleaned = typeof child === "object" && child !== null ? cleanShared(child, depth + 1) : child;
    if (out === undefined && cleaned !== child) out = prefix(value, keys, i);
    if (out !== undefined) setKey(out, key, cleaned);
  }
  return out ?? value;
}

// A new mapping with the first `end` keys of `source` (none of them is the directive: it is handled on sight).
function prefix(source: Dict, keys: readonly string[], end: number): Dict {
  const out: Dict = {};
  for (let i = 0; i < end; i++) setKey(out, keys[i]!, source[keys[i]!]);
  return out;
}

/**
 * A cleaned deep copy: every mapping and list in the result is new, so its owner may change it in place. `owned`
 * (when given) records each container created.
 */
export function cloneClean(value: unknown, maxDepth: number, owned?: WeakSet<object>, depth = 0): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const start = value.length > 0 && isListDirective(value[0]) ? 1 : 0;
    return cloneList(value, start, maxDepth, owned, depth);
  }
  if (!isPlainObject(value)) return value;
  if (depth >= maxDepth) throw tooDeep(maxDepth);
  const out: Dict = {};
  for (const key of Object.keys(value)) {
    if (key === DIRECTIVE_KEY) continue;
    setKey(out, key, cloneClean(value[key], maxDepth, owned, depth + 1));
  }
  owned?.add(out);
  return out;
}

/** A deep copy of list items from `start`, without any cleanup (Salt leaves list items as written). */
export function cloneList(
  list: readonly unknown[],
  start: number,
  maxDepth: number,
  owned: WeakSet<object> | undefined,
  depth: number,
): unknown[] {
  if (depth >= maxDepth) throw tooDeep(maxDepth);
  const out = new Array<unknown>(list.length - start);
  for (let i = start; i < list.length; i++) out[i - start] = cloneData(list[i], maxDepth, owned, depth + 1);
  owned?.add(out);
  return out;
}

/** A plain deep copy of mappings and lists (no cleanup); other values are shared. */
export function cloneData(
  value: unknown,
  maxDepth: number,
  owned: WeakSet<object> | undefined,
  depth: number,
): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return cloneList(value, 0, maxDepth, owned, depth);
  if (!isPlainObject(value)) return value;
  if (depth >= maxDepth) throw tooDeep(maxDepth);
  const out: Dict = {};
  for (const key of Object.keys(value)) setKey(out, key, cloneData(value[key], maxDepth, owned, depth + 1));
  owned?.add(out);
  return out;
}

export function tooDeep(maxDepth: number): MergeError {
  return new MergeError(
    "DEPTH_LIMIT",
    `the input nests deeper than the limit of ${maxDepth} levels (or refers to itself)`,
    { details: { maxDepth } },
  );
}
