import { DEFAULT_MAX_DEPTH, isPlainObject, MergeError, PyDict } from "@merge/core";

/**
 * Python's `copy.deepcopy` on the exact model, as `jsonpatch` uses it: every mapping and list is new, a container
 * reached twice (a YAML alias) is copied once and stays shared, so the written result still has its `&id001`
 * anchors, and a cycle is copied as a cycle. Plain objects come out as `PyDict`s with the same keys in the same
 * order. Scalars, timestamps, byte strings and sets are immutable here and are kept as they are.
 *
 * Nesting deeper than `maxDepth` is `DEPTH_LIMIT` (Python would fail with a RecursionError well before 1000 levels),
 * never a stack overflow.
 */
export function deepCopyExact(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): unknown {
  if (!isContainer(value)) return value;
  const seen = new Map<object, unknown[] | PyDict>();
  // Each container is copied shallowly when first met, and its container children are replaced later from this
  // stack of (source, copy, depth) entries, so any depth costs no call stack.
  const work: unknown[] = [];
  const copyOf = (child: object, depth: number): unknown[] | PyDict => {
    const known = seen.get(child);
    if (known !== undefined) return known;
    if (depth >= maxDepth) {
      throw new MergeError("DEPTH_LIMIT", `the value nests deeper than the limit of ${maxDepth} levels`, {
        details: { maxDepth },
      });
    }
    const made = Array.isArray(child) ? child.slice() : child instanceof PyDict ? child.copy() : new PyDict();
    seen.set(child, made);
    work.push(child, made, depth);
    return made;
  };
  const root = copyOf(value, 0);
  while (work.length > 0) {
    const depth = (work.pop() as number) + 1;
    const target = work.pop() as unknown[] | PyDict;
    const source = work.pop() as object;
    if (Array.isArray(source)) {
      const list = target as unknown[];
      for (let i = 0; i < source.length; i++) {
        const child = source[i];
        if (isContainer(child)) list[i] = copyOf(child, depth);
      }
    } else if (source instanceof PyDict) {
      const dict = target as PyDict;
      const keys = source.keyList();
      for (let i = 0; i < keys.length; i++) {
        const child = source.get(keys[i]);
        if (isContainer(child)) dict.set(keys[i]!, copyOf(child, depth));
      }
    } else {
      const dict = target as PyDict;
      const object = source as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        const child = object[key];
        dict.set(key, isContainer(child) ? copyOf(child, depth) : child);
      }
    }
  }
  return root;
}

function isContainer(value: unknown): value is object {
  return (
    typeof value === "object" &&
    value !== null &&
    (Array.isArray(value) || value instanceof PyDict || isPlainObject(value))
  );
}
