import type { MergerPlugin } from "@merge/core";

/**
 * The mergers every command knows without `--plugin`: cloud-init's `list`, `dict` and `str`. Loaded only by the
 * commands that merge, registered through the public API like any third-party plugin.
 */
export async function builtinPlugins(): Promise<MergerPlugin[]> {
  const { cloudInitPlugins } = await import("@merge/mergers-cloudinit");
  return [...cloudInitPlugins()];
}
