import { type MergerPlugin, parseSpec } from "@merge/core";

const CLOUD_INIT_NAMES = new Set(["list", "dict", "str", "m_list", "m_dict", "m_str"]);

/**
 * The mergers every command knows without `--plugin`: cloud-init's `list`, `dict` and `str` and PillarStack's
 * `stack`, registered through the public API like any third-party plugin. Given the spec that will be resolved,
 * only the packages it needs are loaded (start-up time matters for a CLI); without one, all of them.
 */
export async function builtinPlugins(spec?: string): Promise<MergerPlugin[]> {
  const names = spec === undefined ? undefined : parseSpec(spec).map((entry) => entry.name);
  const wantCloudInit = names === undefined || names.some((name) => name !== "stack");
  const wantStack = names === undefined || names.some((name) => !CLOUD_INIT_NAMES.has(name));
  const plugins: MergerPlugin[] = [];
  if (wantCloudInit) {
    const { cloudInitPlugins } = await import("@merge/mergers-cloudinit");
    plugins.push(...cloudInitPlugins());
  }
  if (wantStack) {
    const { stackMerger } = await import("@merge/strategies-stack");
    plugins.push(stackMerger());
  }
  return plugins;
}
