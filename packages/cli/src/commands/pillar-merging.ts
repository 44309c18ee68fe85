import {
  checkTree,
  cloneTree,
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  mappingKeys,
  mappingSize,
  MergeError,
  PyDict,
  pyEquals,
  setItem,
} from "@merge/core";
import type { ExtPillarEntry, MasterConfig } from "./master-config.js";

/**
 * How a master configuration folds its external pillars together, read from the options Salt reads for it
 * (`pillar_source_merging_strategy`, `renderer`, `pillar_merge_lists`, `ext_pillar_first`, `exclude_ext_pillar`).
 * Real master files set these, and each one changes the compiled pillar, so `merge pillar` follows them.
 */
export interface PillarMerging {
  /** Salt's `salt.utils.dictupdate.merge(pillar, ext, strategy, renderer, pillar_merge_lists)`; inputs untouched. */
  readonly merge: (pillar: PyDict, ext: Mapping) => PyDict;
  /**
   * `ext_pillar_first`: the external pillars see an empty pillar, and the pillar compiled from `pillar_roots`
   * (`--pillar`) is merged over their result at the end instead of being their starting point.
   */
  readonly extPillarFirst: boolean;
  /** `exclude_ext_pillar`: entries of these types are not run. */
  readonly excluded: (entry: ExtPillarEntry) => boolean;
}

type Strategy = "recurse" | "list" | "overwrite" | "none" | "unknown";

/** Reads the merging options of a master configuration. `onWarning` hears what Salt only logs. */
export function pillarMerging(config: MasterConfig, onWarning: (message: string) => void): PillarMerging {
  const options = config.value;
  const at = (key: string): { file: string; line?: number; column?: number } => {
    const position = config.document.positionOf([key]);
    return { file: config.file, line: position?.line, column: position?.column };
  };
  const mergeLists = pyTruthy(options.pillar_merge_lists);
  const strategy = strategyOf(options.pillar_source_merging_strategy, options.renderer, at);
  if (strategy === "unknown") {
    // Salt logs this and merges recursively, without joining lists whatever pillar_merge_lists says.
    onWarning(
      `${config.file}: unknown pillar_source_merging_strategy ${JSON.stringify(
        options.pillar_source_merging_strategy,
      )}; merging recursively, as Salt falls back to`,
    );
  }
  const exclude = options.exclude_ext_pillar;
  const excludedTypes = Array.isArray(exclude) ? exclude.filter((x) => typeof x === "string") : [];
  return {
    merge: (pillar, ext) => {
      checkTree(pillar);
      checkTree(ext);
      return mergeWith(strategy, pillar, ext, mergeLists);
    },
    extPillarFirst: pyTruthy(options.ext_pillar_first),
    excluded: (entry) => excludedTypes.includes(entry.type),
  };
}

function strategyOf(
  option: unknown,
  renderer: unknown,
  at: (key: string) => { file: string; line?: number; column?: number },
): Strategy {
  // An unset (or empty) option is Salt's default, `smart`.
  const name = option === undefined || option === null || option === "" ? "smart" : option;
  let resolved = name;
  if (name === "smart") {
    const text = renderer === undefined || renderer === null ? "yaml" : renderer;
    if (typeof text !== "string") {
      throw new MergeError("MASTER_CONFIG", "renderer must be text, such as jinja|yaml", {
        source: at("renderer"),
      });
    }
    // `smart` is `aggregate` under the yamlex renderer, `recurse` otherwise.
    resolved = text.split("|").at(-1) === "yamlex" || text.startsWith("yamlex_") ? "aggregate" : "recurse";
  }
  if (resolved === "aggregate") {
    throw new MergeError(
      "MASTER_CONFIG",
      "pillar_source_merging_strategy aggregate (yamlex's merge) is not supported by merge pillar",
      { source: at(name === "smart" ? "renderer" : "pillar_source_merging_strategy") },
    );
  }
  if (resolved === "recurse" || resolved === "list" || resolved === "overwrite" || resolved === "none") {
    return resolved;
  }
  return "unknown";
}

function mergeWith(strategy: Strategy, pillar: PyDict, ext: Mapping, mergeLists: boolean): PyDict {
  switch (strategy) {
    case "list":
      return mergeList(pillar, ext);
    case "overwrite": {
      // merge_overwrite first replaces, in the pillar, every top-level key the result shares with it.
      const copy = cloneTree(pillar);
      for (const key of mappingKeys(ext)) if (hasItem(copy, key)) setItem(copy, key, getItem(ext, key));
      return update(copy, ext, mergeLists);
    }
    case "none":
    case "unknown":
      return update(cloneTree(pillar), ext, false);
    default:
      return update(cloneTree(pillar), ext, mergeLists);
  }
}

/** `merge_list`: only the pillar's keys stay; a key the result shares becomes `[pillar's value, result's value]`. */
function mergeList(pillar: PyDict, ext: Mapping): PyDict {
  const out = new PyDict();
  for (const [key, value] of pillar) out.set(key, hasItem(ext, key) ? [value, getItem(ext, key)] : value);
  return out;
}

/**
 * `salt.utils.dictupdate.update(dest, upd, merge_lists=...)`, changing `dest` (a copy) in place: mappings merge key
 * by key, two lists are joined when `mergeLists` (the result's items the pillar's list lacks, by Python equality),
 * anything else is replaced. When no key is shared at a level, the result's keys are simply assigned.
 */
function update(dest: PyDict, upd: Mapping, mergeLists: boolean): PyDict {
  const keys = mappingKeys(upd);
  const shared = keys.some((key) => hasItem(dest, key));
  for (const key of keys) {
    const value = getItem(upd, key);
    const current = shared ? getItem(dest, key) : undefined;
    if (current instanceof PyDict && isMapping(value)) setItem(dest, key, update(current, value, mergeLists));
    else if (isMapping(current) && isMapping(value)) {
      setItem(dest, key, update(toPyDict(current), value, mergeLists));
    } else if (mergeLists && Array.isArray(current) && Array.isArray(value)) {
      // Checked against the pillar's list only: the result's own repeats stay, as in Salt.
      const added = value.filter((item) => !current.some((have) => pyEquals(have, item)));
      setItem(dest, key, [...current, ...added]);
    } else setItem(dest, key, value);
  }
  return dest;
}

function toPyDict(mapping: Mapping): PyDict {
  const out = new PyDict();
  for (const key of mappingKeys(mapping)) out.set(key, getItem(mapping, key));
  return out;
}

/** Python's truth value of an option as read (`''`, `0`, `[]`, `{}` and null are false). */
function pyTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === "" || value === 0) return false;
  if (typeof value === "bigint") return value !== 0n;
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return mappingSize(value) > 0;
  return true;
}
