import { copyDict, type Dict, hasOwn, isPlainObject, setKey } from "@merge/core";

/**
 * Merges the result of a later `- mysql:` entry into the earlier ones the way Salt folds ext_pillar results with
 * its default `smart` strategy (`salt.utils.dictupdate.update`): mappings merge key by key, anything else (lists
 * included, since `pillar_merge_lists` is off by default) is replaced. Returns a new mapping; inputs are untouched.
 */
export function mergeExtPillar(base: Readonly<Dict>, incoming: Readonly<Dict>): Dict {
  const out = copyDict(base as Dict);
  for (const key of Object.keys(incoming)) {
    const next = incoming[key];
    const current = hasOwn(out, key) ? out[key] : undefined;
    if (isPlainObject(current) && isPlainObject(next)) setKey(out, key, mergeExtPillar(current, next));
    else setKey(out, key, next);
  }
  return out;
}
