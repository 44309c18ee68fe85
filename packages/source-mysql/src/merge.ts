import { checkTree, copyDict, type Dict, hasOwn, isPlainObject, setKey } from "@merge/core";

/**
 * Merges the result of a later `- mysql:` entry into the earlier ones the way Salt folds ext_pillar results with
 * its default `smart` strategy (`salt.utils.dictupdate.update`): mappings merge key by key, anything else (lists
 * included, since `pillar_merge_lists` is off by default) is replaced. Returns a new mapping; inputs are untouched.
 *
 * Both inputs are checked first, so the merge never overflows the stack: a cycle is `CYCLIC_INPUT`, nesting past
 * 1000 levels `DEPTH_LIMIT`, more than 10^7 nodes (counting shared subtrees once per use) `SIZE_LIMIT`.
 */
export function mergeExtPillar(base: Readonly<Dict>, incoming: Readonly<Dict>): Dict {
  checkTree(base);
  checkTree(incoming);
  return mergeChecked(base, incoming);
}

function mergeChecked(base: Readonly<Dict>, incoming: Readonly<Dict>): Dict {
  const out = copyDict(base as Dict);
  for (const key of Object.keys(incoming)) {
    const next = incoming[key];
    const current = hasOwn(out, key) ? out[key] : undefined;
    if (isPlainObject(current) && isPlainObject(next)) setKey(out, key, mergeChecked(current, next));
    else setKey(out, key, next);
  }
  return out;
}
