import type { MergerPlugin } from "@merge/core";

/** The mergers every command knows without `--plugin`. */
export async function builtinPlugins(): Promise<MergerPlugin[]> {
  return [];
}
