import { deleteItem, hasItem, PyDict, type Registry, type TraceSink, toPlain } from "@merge/core";
import { mergeManyDicts } from "./mergemanydict.js";
import { formatCloudConfig } from "./output.js";
import type { CloudConfigResult } from "./parts.js";
import { loadPartYaml } from "./yaml.js";

export interface ModulesConfigOptions {
  /** The representation of `result.value` (`result.exact` is always the exact model). Default `plain`. */
  readonly values?: "plain" | "exact";
  readonly registry?: Registry;
  /** Report unknown merger options as `UNKNOWN_OPTION` errors instead of ignoring them as cloud-init does. */
  readonly strict?: boolean;
  readonly maxDepth?: number;
  /**
   * Receives the events of the last merge: `document` 0 is the user-data (`result.userData`), 1 the configuration
   * cloud-init read before it (`result.base`: the system configuration merged with the user-data once already,
   * without `system_info`).
   */
  readonly trace?: TraceSink;
}

export interface ModulesConfigResult {
  /** What the modules see, in the representation `values` asked for. */
  readonly value: unknown;
  readonly exact: PyDict;
  /** The user-data as the modules stage reads it back from `cloud-config.txt`. */
  readonly userData: PyDict;
  /** The configuration of cloud-init's `Init` stage (`init.cfg`): system configuration and user-data, `system_info` removed. */
  readonly base: PyDict;
}

/**
 * The configuration cloud-init's config and final modules are given, from the system configuration (a
 * `loadSystemConfig` result's `exact`) and the merged user-data (a `mergeCloudConfig` / `mergeUserData` result, or
 * null when there is none). cloud-init reads the user-data back from the `cloud-config.txt` it wrote, merges it over
 * the system configuration (`Init.cfg`, which drops `system_info`), and merges it over that once more for the modules
 * (`Modules.cfg`), each time with `mergemanydict`, so the user-data wins key by key with the default mergers and a
 * `merge_how` (or leftover `merge_type`) in it decides otherwise.
 *
 * Included: the system configuration and the user-data's cloud-config. Not included: cloud-init's built-in defaults,
 * `/run/cloud-init/cloud.cfg`, the kernel command line (`cc:` ... `end_cc`), the `CLOUD_CFG` file, the datasource's
 * own configuration and vendor-data, which only the running instance has.
 */
export function modulesConfig(
  system: unknown,
  userData: Pick<CloudConfigResult, "exact" | "merged"> | null,
  options: ModulesConfigOptions = {},
): ModulesConfigResult {
  const common = { registry: options.registry, strict: options.strict, maxDepth: options.maxDepth };
  // ConfigMerger reads cloud-config.txt with read_conf: what was written, loaded again (an empty file is {}).
  const written = userData === null ? "" : formatCloudConfig({ ...userData, value: userData.exact });
  const read = () => {
    const doc = loadPartYaml(written, "cloud-config.txt");
    return doc instanceof PyDict ? doc : new PyDict();
  };
  // fetch_base_config: mergemanydict over the layers it reads, of which only the system configuration is given.
  const fetched = mergeManyDicts([system], common).value;
  // Init.cfg: ConfigMerger(base_cfg=...) with the instance's cloud-config, then "restricted": no system_info.
  const init = mergeManyDicts([read(), fetched], common).value.copy();
  if (hasItem(init, "system_info")) deleteItem(init, "system_info");
  // Modules.cfg: ConfigMerger(base_cfg=init.cfg) reads cloud-config.txt again.
  const userDoc = read();
  const modules = mergeManyDicts([userDoc, init], { ...common, trace: options.trace }).value;
  return {
    value: options.values === "exact" ? modules : toPlain(modules),
    exact: modules,
    userData: userDoc,
    base: init,
  };
}
