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
  type PathKey,
  PyDict,
  PyFloat,
  pyEquals,
  setItem,
  type TraceAction,
  type TraceSink,
} from "@merge/core";
import type { ExtPillarEntry, MasterConfig } from "./master-config.js";

/**
 * How a master configuration folds its external pillars together, read from the options Salt reads for it
 * (`pillar_source_merging_strategy`, `renderer`, `pillar_merge_lists`, `ext_pillar_first`, `exclude_ext_pillar`).
 * Real master files set these, and each one changes the compiled pillar, so `merge pillar` follows them.
 */
export interface PillarMerging {
  /**
   * Salt's `salt.utils.dictupdate.merge(pillar, ext, strategy, renderer, pillar_merge_lists)`; inputs untouched.
   * With `trace` (`--explain`), every place where `ext` changed what the pillar already held is recorded.
   */
  readonly merge: (pillar: PyDict, ext: Mapping, trace?: PillarMergeTrace) => PyDict;
  /**
   * `ext_pillar_first`: the external pillars see an empty pillar, and the pillar compiled from `pillar_roots`
   * (`--pillar`) is merged over their result at the end instead of being their starting point.
   */
  readonly extPillarFirst: boolean;
  /** `exclude_ext_pillar`: entries of these types are not run. */
  readonly excluded: (entry: ExtPillarEntry) => boolean;
}

/**
 * Where `merge` records its decisions for `--explain`. Salt's fold of external pillars is a merge step like any
 * other: when an entry replaces, joins or drops what an earlier one (or `--pillar`) put in the pillar, the story of
 * that key has to say so, and which strategy decided.
 */
export interface PillarMergeTrace {
  readonly sink: TraceSink;
  /**
   * The input (its index among the `--explain` inputs) whose value at this path of `ext` is being merged in: an
   * entry's result is built from several inputs (stack files, queries), and the decision belongs to the one that
   * wrote the value.
   */
  readonly documentOf: (path: readonly PathKey[]) => number | undefined;
}

type Strategy = "recurse" | "list" | "overwrite" | "none" | "unknown";

/** Records one decision of the pillar fold; a no-op without a trace. */
type Note = (action: TraceAction, path: readonly PathKey[], detail?: string) => void;

const silent: Note = () => {};

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
  // The strategy as the master file names it (`smart` unless set), the one a user looks up; an unknown name is
  // what Salt falls back to.
  const option = options.pillar_source_merging_strategy;
  const named =
    strategy === "unknown"
      ? "recurse"
      : option === undefined || option === null || option === ""
        ? "smart"
        : String(option);
  const label = `pillar(${named})`;
  const exclude = options.exclude_ext_pillar;
  const excludedTypes = Array.isArray(exclude) ? exclude.filter((x) => typeof x === "string") : [];
  return {
    merge: (pillar, ext, trace) => {
      checkTree(pillar);
      checkTree(ext);
      // Merging into an empty pillar decides nothing: the entry's values are taken as the entry made them.
      const note: Note =
        trace === undefined || mappingSize(pillar) === 0
          ? silent
          : (action, path, detail) =>
              trace.sink.record({
                path,
                action,
                merger: label,
                document: trace.documentOf(path),
                detail,
              });
      return mergeWith(
        strategy,
        pillar,
        ext,
        mergeLists && strategy !== "unknown" && strategy !== "none",
        note,
      );
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

function mergeWith(
  strategy: Strategy,
  pillar: PyDict,
  ext: Mapping,
  mergeLists: boolean,
  note: Note,
): PyDict {
  switch (strategy) {
    case "list":
      return mergeList(pillar, ext, note);
    case "overwrite": {
      // merge_overwrite first replaces, in the pillar, every top-level key the result shares with it.
      const copy = cloneTree(pillar);
      for (const key of mappingKeys(ext)) {
        if (!hasItem(copy, key)) continue;
        const value = getItem(ext, key);
        if (!sameScalar(getItem(copy, key), value)) {
          note("replaced", [key], "overwrite replaces a key both have whole");
        }
        setItem(copy, key, value);
      }
      // The shared keys now hold the result's own values: merging them again changes nothing, and records nothing.
      return update(copy, ext, mergeLists, note, []);
    }
    default:
      return update(cloneTree(pillar), ext, mergeLists, note, []);
  }
}

/** `merge_list`: only the pillar's keys stay; a key the result shares becomes `[pillar's value, result's value]`. */
function mergeList(pillar: PyDict, ext: Mapping, note: Note): PyDict {
  const out = new PyDict();
  for (const [key, value] of pillar) {
    if (hasItem(ext, key)) {
      note("merged", [key], "list pairs the pillar's value with the new one");
      out.set(key, [value, getItem(ext, key)]);
    } else out.set(key, value);
  }
  for (const key of mappingKeys(ext)) {
    if (!hasItem(pillar, key)) note("removed", [key], "list keeps only the keys the pillar had");
  }
  return out;
}

/**
 * `salt.utils.dictupdate.update(dest, upd, merge_lists=...)`, changing `dest` (a copy) in place: mappings merge key
 * by key, two lists are joined when `mergeLists` (the result's items the pillar's list lacks, by Python equality),
 * anything else is replaced. When no key is shared at a level, the result's keys are simply assigned. `at` is the
 * path of `dest` for `note`.
 */
function update(dest: PyDict, upd: Mapping, mergeLists: boolean, note: Note, at: readonly PathKey[]): PyDict {
  const keys = mappingKeys(upd);
  const shared = keys.some((key) => hasItem(dest, key));
  // A key added to a mapping the pillar held with something in it extends it: a step of the story.
  const extending = note !== silent && mappingSize(dest) > 0;
  for (const key of keys) {
    const value = getItem(upd, key);
    const current = shared ? getItem(dest, key) : undefined;
    // A value merged into itself (overwrite put the result's own value there) stays as it is: walking it would
    // write into the result, which is the caller's, for no change (Salt rebuilds its lists to equal ones).
    if (shared && current === value && typeof value === "object" && value !== null) continue;
    if (current instanceof PyDict && isMapping(value)) {
      setItem(dest, key, update(current, value, mergeLists, note, [...at, key]));
    } else if (isMapping(current) && isMapping(value)) {
      setItem(dest, key, update(toPyDict(current), value, mergeLists, note, [...at, key]));
    } else if (mergeLists && Array.isArray(current) && Array.isArray(value)) {
      // Checked against the pillar's list only: the result's own repeats stay, as in Salt.
      const added = value.filter((item) => !current.some((have) => pyEquals(have, item)));
      if (added.length > 0) note("appended", [...at, key], "pillar_merge_lists");
      setItem(dest, key, [...current, ...added]);
    } else {
      if (!shared || !hasItem(dest, key)) {
        if (extending) note("added", [...at, key]);
      } else if (!sameScalar(current, value)) {
        note("replaced", [...at, key], typeChange(current, value));
      }
      setItem(dest, key, value);
    }
  }
  return dest;
}

/** Why a value was replaced when it is not the plain case (a value over a value of its own kind). */
function typeChange(current: unknown, value: unknown): string | undefined {
  if (Array.isArray(current) && Array.isArray(value)) return "lists are replaced without pillar_merge_lists";
  return kindOf(current) === kindOf(value) ? undefined : "types differ";
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "list";
  return isMapping(value) ? "mapping" : "scalar";
}

/** The same value, so that writing it again changes nothing (a container only when it is the same object). */
function sameScalar(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof PyFloat && b instanceof PyFloat) return Object.is(a.value, b.value);
  return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
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
