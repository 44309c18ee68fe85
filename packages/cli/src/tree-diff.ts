import {
  getItem,
  hasItem,
  isMapping,
  isPyFloat,
  mappingKeys,
  mappingSize,
  numberValue,
  type PathKey,
  PyFloat,
} from "@merge/core";

/** One difference between two results. Paths of removed and changed values are in the old result, added ones in the new. */
export interface TreeChange {
  readonly kind: "added" | "removed" | "changed";
  /** Where the value is in the old result (removed, changed) or the new one (added). */
  readonly path: readonly PathKey[];
  /** Where it is in the other result, for changes inside lists whose items moved. */
  readonly otherPath?: readonly PathKey[];
  readonly old?: unknown;
  readonly new?: unknown;
}

// Past this many cells (items × items) lists are compared index by index: the alignment is quadratic.
const ALIGN_LIMIT = 4_000_000;

/**
 * The structural differences from `a` to `b`, in document order: mappings key by key (order ignored, as Python's
 * `==` ignores it), lists aligned on their longest common run of equal items (so one item inserted is one addition,
 * not a change of every later index), a pair of unlike items at one place a change (looked into when both are
 * mappings or both lists). Values are equal only with the same type: `1` and `1.0`, `1` and `true`, `"1"` and `1`
 * differ, because they write differently.
 */
export function diffTrees(a: unknown, b: unknown): TreeChange[] {
  const out: TreeChange[] = [];
  walk(a, b, [], [], out);
  return out;
}

function walk(a: unknown, b: unknown, pathA: PathKey[], pathB: PathKey[], out: TreeChange[]): void {
  if (isMapping(a) && isMapping(b)) {
    for (const key of mappingKeys(a)) {
      if (hasItem(b, key)) {
        walk(getItem(a, key), getItem(b, key), [...pathA, key], [...pathB, key], out);
      } else {
        out.push({ kind: "removed", path: [...pathA, key], old: getItem(a, key) });
      }
    }
    for (const key of mappingKeys(b)) {
      if (!hasItem(a, key)) out.push({ kind: "added", path: [...pathB, key], new: getItem(b, key) });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    diffLists(a, b, pathA, pathB, out);
    return;
  }
  if (!sameTree(a, b)) out.push({ kind: "changed", path: pathA, otherPath: pathB, old: a, new: b });
}

type Op =
  | { readonly op: "same"; i: number; j: number }
  | { readonly op: "del"; i: number }
  | { readonly op: "ins"; j: number };

function diffLists(
  a: readonly unknown[],
  b: readonly unknown[],
  pathA: PathKey[],
  pathB: PathKey[],
  out: TreeChange[],
): void {
  const ops = a.length * b.length > ALIGN_LIMIT ? byIndex(a, b) : align(a, b);
  // A run of deletions followed by a run of insertions is, pair by pair, a change at that place.
  let k = 0;
  while (k < ops.length) {
    const op = ops[k]!;
    if (op.op === "same") {
      k++;
      continue;
    }
    const dels: number[] = [];
    const ins: number[] = [];
    while (k < ops.length && ops[k]!.op === "del") dels.push((ops[k++] as { i: number }).i);
    while (k < ops.length && ops[k]!.op === "ins") ins.push((ops[k++] as { j: number }).j);
    const pairs = Math.min(dels.length, ins.length);
    for (let p = 0; p < pairs; p++)
      walk(a[dels[p]!], b[ins[p]!], [...pathA, dels[p]!], [...pathB, ins[p]!], out);
    for (let p = pairs; p < dels.length; p++)
      out.push({ kind: "removed", path: [...pathA, dels[p]!], old: a[dels[p]!] });
    for (let p = pairs; p < ins.length; p++)
      out.push({ kind: "added", path: [...pathB, ins[p]!], new: b[ins[p]!] });
  }
}

function byIndex(a: readonly unknown[], b: readonly unknown[]): Op[] {
  const ops: Op[] = [];
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    if (sameTree(a[i], b[i])) ops.push({ op: "same", i, j: i });
    else ops.push({ op: "del", i }, { op: "ins", j: i });
  }
  for (let i = shared; i < a.length; i++) ops.push({ op: "del", i });
  for (let j = shared; j < b.length; j++) ops.push({ op: "ins", j });
  return ops;
}

/** Longest common subsequence of equal items, as edit operations in order. */
function align(a: readonly unknown[], b: readonly unknown[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lengths[i][j]: LCS of a[i..] and b[j..], in one array of (n + 1) × (m + 1).
  const lengths = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[at(i, j)] = sameTree(a[i], b[j])
        ? lengths[at(i + 1, j + 1)]! + 1
        : Math.max(lengths[at(i + 1, j)]!, lengths[at(i, j + 1)]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (sameTree(a[i], b[j])) ops.push({ op: "same", i: i++, j: j++ });
    else if (lengths[at(i + 1, j)]! >= lengths[at(i, j + 1)]!) ops.push({ op: "del", i: i++ });
    else ops.push({ op: "ins", j: j++ });
  }
  while (i < n) ops.push({ op: "del", i: i++ });
  while (j < m) ops.push({ op: "ins", j: j++ });
  return ops;
}

/** Equal and of the same type: what writes the same (mapping key order aside). */
export function sameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a === "number") return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b as number));
  if (a === null || b === null || typeof a !== "object") return false;
  if (a instanceof PyFloat || b instanceof PyFloat) {
    return a instanceof PyFloat && b instanceof PyFloat && Object.is(numberValue(a), numberValue(b));
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime() && String(a) === String(b);
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Set || b instanceof Set) {
    return a instanceof Set && b instanceof Set && sameTree([...a], [...b]);
  }
  if (isMapping(a) && isMapping(b)) {
    if (mappingSize(a) !== mappingSize(b)) return false;
    for (const key of mappingKeys(a)) {
      if (!hasItem(b, key) || !sameKey(key, mappingKeys(b))) return false;
      if (!sameTree(getItem(a, key), getItem(b, key))) return false;
    }
    return true;
  }
  return false;
}

/** The key found in `b` under Python's key equality is also of the same type (`1` is not `True` nor `1.0`). */
function sameKey(key: PathKey, keys: readonly PathKey[]): boolean {
  if (keys.includes(key)) return true;
  return keys.some(
    (other) =>
      typeof other === typeof key && isPyFloat(other) === isPyFloat(key) && String(other) === String(key),
  );
}
