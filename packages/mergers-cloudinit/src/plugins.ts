import type { MergerPlugin, Registry } from "@merge/core";
import { createRegistry } from "@merge/core";
import { dictMerger } from "./dict.js";
import { listMerger } from "./list.js";
import { strMerger } from "./str.js";

declare module "@merge/core" {
  interface MergerMap {
    list: true;
    dict: true;
    str: true;
  }
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

/** Fresh `list`, `dict` and `str` plugins, to register on a registry of your own. */
export function cloudInitPlugins(): MergerPlugin[] {
  return [listMerger(), dictMerger(), strMerger()];
}

/** A new registry holding the three cloud-init mergers, registered through the public API like any plugin. */
export function createCloudInitRegistry(): Registry {
  return createRegistry().use(...cloudInitPlugins());
}
