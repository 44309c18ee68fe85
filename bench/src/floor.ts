/**
 * The practical floor: a hand-written merge for exactly one semantics (mappings merged, lists concatenated, the
 * newer value wins otherwise) with no plugins, no dispatch table, no paths and no error handling. Nothing
 * general-purpose can beat it; the engine's target is to stay within 1.5× of it.
 */

type Dict = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

function isDict(value: unknown): value is Dict {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function put(out: Dict, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/** A pure merge: inputs untouched, untouched subtrees shared with them. */
export function floorMerge(base: unknown, incoming: unknown): unknown {
  if (Array.isArray(base)) return Array.isArray(incoming) ? base.concat(incoming) : incoming;
  if (!isDict(base) || !isDict(incoming)) return incoming;
  // Spread defines properties (a `__proto__` key stays data) and copies a fast-mode object in one step.
  const out: Dict = { ...base };
  for (const key of Object.keys(incoming)) {
    const value = incoming[key];
    put(out, key, hasOwn.call(base, key) ? floorMerge(base[key], value) : value);
  }
  return out;
}

/**
 * A fold into an accumulator it owns: containers it copied (or created) are changed in place on later documents;
 * anything still shared with an input is copied once before its first change. Inputs are never changed.
 */
export function floorFold(docs: readonly unknown[]): unknown {
  const owned = new Set<unknown>();
  let acc: unknown = {};
  owned.add(acc);
  const into = (target: Dict, incoming: Dict): void => {
    for (const key of Object.keys(incoming)) {
      const value = incoming[key];
      if (!hasOwn.call(target, key)) {
        put(target, key, value);
        continue;
      }
      let current = target[key];
      if (isDict(current) && isDict(value)) {
        if (!owned.has(current)) {
          current = { ...current };
          owned.add(current);
          put(target, key, current);
        }
        into(current as Dict, value);
      } else if (Array.isArray(current) && Array.isArray(value)) {
        if (owned.has(current)) {
          for (const item of value) current.push(item);
        } else {
          const joined = current.concat(value);
          owned.add(joined);
          put(target, key, joined);
        }
      } else {
        put(target, key, value);
      }
    }
  };
  for (const doc of docs) {
    if (isDict(acc) && isDict(doc)) into(acc, doc);
    else acc = floorMerge(acc, doc);
  }
  return acc;
}
