import {
  checkTree,
  copyMapping,
  type Dict,
  getItem,
  isMapping,
  type Mapping,
  mappingKeys,
  type PyDict,
  setItem,
} from "@merge/core";

/**
 * Merges the result of a later `- mysql:` entry into the earlier ones the way Salt folds ext_pillar results with
 * its default `smart` strategy (`salt.utils.dictupdate.update`): mappings merge key by key, anything else (lists
 * included, since `pillar_merge_lists` is off by default) is replaced. Returns a new mapping of the base's
 * representation (plain object or `PyDict`); inputs are untouched.
 *
 * Both inputs are checked first, so the merge never overflows the stack: a cycle is `CYCLIC_INPUT`, nesting past
 * 1000 levels `DEPTH_LIMIT`, more than 10^7 nodes (counting shared subtrees once per use) `SIZE_LIMIT`.
 */
export function mergeExtPillar(base: PyDict, incoming: Mapping): PyDict;
export function mergeExtPillar(base: Readonly<Dict>, incoming: Readonly<Mapping>): Dict;
export function mergeExtPillar(base: Readonly<Mapping>, incoming: Readonly<Mapping>): Mapping {
  checkTree(base);
  checkTree(incoming);
  return mergeChecked(base as Mapping, incoming as Mapping);
}

function mergeChecked(base: Mapping, incoming: Mapping): Mapping {
  const out = copyMapping(base);
  for (const key of mappingKeys(incoming)) {
    const next = getItem(incoming, key);
    const current = getItem(out, key);
    if (isMapping(current) && isMapping(next)) setItem(out, key, mergeChecked(current, next));
    else setItem(out, key, next);
  }
  return out;
}
