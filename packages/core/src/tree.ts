import { DEFAULT_MAX_DEPTH } from "./engine.js";
import { MergeError } from "./errors.js";
import { type Dict, isPlainObject, setKey } from "./kinds.js";
import type { PathKey } from "./path.js";
import { PyDict } from "./values/pydict.js";

/** Default node budget of `checkTree`: mappings, lists and scalars counted together. */
export const DEFAULT_MAX_NODES = 10_000_000;

export interface TreeLimits {
  /** Deepest nesting allowed. Default 1000, the engine's limit. */
  readonly maxDepth?: number;
  /** Most nodes (mappings, lists, scalars) allowed. Default 10^7. */
  readonly maxNodes?: number;
}

/**
 * Walks a tree without recursion (so any depth is safe) and throws `CYCLIC_INPUT`, `DEPTH_LIMIT` or `SIZE_LIMIT`
 * for input the engine must not be given. Shared subtrees (YAML aliases) count once per use, which is what makes
 * an alias bomb visible before anything traverses it.
 */
export function checkTree(value: unknown, limits: TreeLimits = {}): void {
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxNodes = limits.maxNodes ?? DEFAULT_MAX_NODES;
  // Each frame: the container, its keys (for dicts), the next index, and the key that led to it.
  const containers: unknown[] = [];
  const keyLists: (PathKey[] | undefined)[] = [];
  const positions: number[] = [];
  const keys: PathKey[] = [];
  const onChain = new Set<unknown>();
  let nodes = 0;

  const enter = (child: unknown, key: PathKey | undefined) => {
    nodes++;
    if (nodes > maxNodes) {
      throw new MergeError("SIZE_LIMIT", `the input has more than ${maxNodes} nodes`, {
        path: pathOf(keys, key),
        details: { maxNodes },
      });
    }
    if (typeof child !== "object" || child === null) return;
    const isList = Array.isArray(child);
    const isDict = child instanceof PyDict;
    if (!isList && !isDict && !isPlainObject(child)) return;
    if (onChain.has(child)) {
      throw new MergeError("CYCLIC_INPUT", "the input refers to itself (a cycle)", {
        path: pathOf(keys, key),
      });
    }
    if (containers.length >= maxDepth) {
      throw new MergeError("DEPTH_LIMIT", `the input nests deeper than the limit of ${maxDepth} levels`, {
        path: pathOf(keys, key).slice(0, 40),
        details: { maxDepth },
      });
    }
    onChain.add(child);
    containers.push(child);
    keyLists.push(isList ? undefined : isDict ? child.keyList() : Object.keys(child));
    positions.push(0);
    if (key !== undefined) keys.push(key);
  };

  enter(value, undefined);
  while (containers.length > 0) {
    const top = containers.length - 1;
    const container = containers[top]!;
    const list = keyLists[top];
    const position = positions[top]!;
    const size = list === undefined ? (container as unknown[]).length : list.length;
    if (position >= size) {
      onChain.delete(container);
      containers.pop();
      keyLists.pop();
      positions.pop();
      if (containers.length > 0) keys.pop();
      continue;
    }
    positions[top] = position + 1;
    if (list === undefined) enter((container as unknown[])[position], position);
    else if (container instanceof PyDict) enter(container.get(list[position]), list[position]!);
    else enter((container as Dict)[list[position] as string], list[position]!);
  }
}

function pathOf(keys: readonly PathKey[], key: PathKey | undefined): PathKey[] {
  return key === undefined ? keys.slice() : [...keys, key];
}

/**
 * A deep copy of the mappings and lists of a tree (scalars and other objects are shared). Hostile keys such as
 * `__proto__` are copied as data. Run `checkTree` first on untrusted input: this function recurses.
 */
export function cloneTree<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneTree) as T;
  if (value instanceof PyDict) {
    const out = new PyDict();
    for (const [key, child] of value) out.set(key, cloneTree(child));
    return out as T;
  }
  if (isPlainObject(value)) {
    const out: Dict = {};
    for (const key of Object.keys(value)) setKey(out, key, cloneTree(value[key]));
    return out as T;
  }
  return value;
}
