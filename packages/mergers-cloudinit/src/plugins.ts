import type { MergerPlugin, Registry } from "@merge/core";
import { createRegistry } from "@merge/core";
import { type DictOption, dictMerger } from "./dict.js";
import { type ListMergerSettings, type ListOption, listMerger } from "./list.js";
import { type StrOption, strMerger } from "./str.js";

declare module "@merge/core" {
  interface MergerMap {
    list: ListOption;
    dict: DictOption;
    str: StrOption;
  }
}

/** The mergers of a cloud-init registry and their options, as the type system sees them (typed spec strings). */
export interface CloudInitMergers {
  list: ListOption;
  dict: DictOption;
  str: StrOption;
}

/** cloud-init's mergers when a part declares none (`DEF_MERGERS` of its cloud-config handler). */
export const CLOUD_CONFIG_DEFAULT_SPEC = "dict(replace)+list()+str()";

/**
 * The bottom of the merger stack in the seed's design (`stack` mode): its `list(extend)+dict()+str(append)`. In the
 * seed's mergers a `dict()` merged the values of a key both mappings have whatever their type; today's `dict` does
 * that for lists and strings only with `recurse_list` / `recurse_str`, so those flags say the same thing here, and
 * the seed's `run_cmd` example gives `bash1`..`bash4` as it promises. `extend` means `append`.
 */
export const STACK_DEFAULT_SPEC = "list(extend)+dict(recurse_list,recurse_str)+str(append)";

/** `DEF_MERGE_TYPE` of cloud-init's merger module: what `util.mergemanydict` uses. */
export const MERGERS_DEFAULT_SPEC = "list()+dict()+str()";

/**
 * Fresh `list`, `dict` and `str` plugins, to register on a registry of your own. `seedExtend` (default true) reads
 * `list(extend)` as the seed's `append`; give `false` for merges that must match cloud-init itself, which does not
 * know `extend` (see `ListMergerSettings`).
 */
export function cloudInitPlugins(
  settings: ListMergerSettings = {},
): [MergerPlugin<"list", ListOption>, MergerPlugin<"dict", DictOption>, MergerPlugin<"str", StrOption>] {
  return [listMerger(settings), dictMerger(), strMerger()];
}

/** A new registry holding the three cloud-init mergers, registered through the public API like any plugin. */
export function createCloudInitRegistry(settings: ListMergerSettings = {}): Registry<CloudInitMergers> {
  return createRegistry().use(...cloudInitPlugins(settings));
}
