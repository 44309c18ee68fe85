import type { MergerPlugin, Registry } from "@merge/core";
import { configTree, overlayTree } from "../data.js";
import { measure } from "../harness.js";
import { loadOptional } from "../optional.js";
import type { Row } from "../result.js";
import { userDataPair } from "../userdata.js";

interface CloudInitModule {
  cloudInitPlugins(): MergerPlugin[];
  createCloudInitRegistry(): Registry;
}

export const CLOUDINIT_WORKLOADS = ["userdata", "trees"] as const;

/** The deepest spec of issue 7: every recursion cloud-init offers, lists appended, strings appended. */
export const DEEPEST_SPEC = "dict(no_replace,recurse_list,recurse_str)+list(append)+str()";

/**
 * One spec per option of each cloud-init merger (the others at their defaults), the defaults themselves, and the
 * deepest spec. Built from the plugins' own option lists, so a new option is benchmarked without editing this file.
 */
export function cloudInitSpecs(plugins: readonly MergerPlugin[]): string[] {
  const names = plugins.map((p) => p.name);
  const specs = [names.map((n) => `${n}()`).join("+")];
  for (const plugin of plugins) {
    for (const option of Object.keys(plugin.options)) {
      specs.push(names.map((n) => (n === plugin.name ? `${n}(${option})` : `${n}()`)).join("+"));
    }
  }
  specs.push(DEEPEST_SPEC);
  return specs;
}

export async function runCloudInit(workload: string): Promise<{ rows: Row[]; notes: string[] }> {
  const loaded = await loadOptional<CloudInitModule>("@merge/mergers-cloudinit", [
    "cloudInitPlugins",
    "createCloudInitRegistry",
  ]);
  if (!loaded.ok)
    return { rows: [{ label: "cloud-init mergers", status: "unavailable", note: loaded.reason }], notes: [] };
  const registry = loaded.module.createCloudInitRegistry();
  const specs = cloudInitSpecs(loaded.module.cloudInitPlugins());
  let base: unknown;
  let incoming: unknown;
  let notes: string[];
  if (workload === "userdata") {
    [base, incoming] = userDataPair();
    notes = ["vendor data merged with user-data (a realistic cloud-config pair)"];
  } else {
    base = configTree(100_000, 21);
    incoming = overlayTree(base as Record<string, unknown>, 100_000, 22, false);
    // cloud-init's str(append) raises on a type change (Python's str + dict), so this overlay keeps every type.
    notes = ["two configuration trees of 100,000 nodes each; the overlay never changes a value's type"];
  }
  const rows: Row[] = [];
  for (const spec of specs) {
    let merge: (a: unknown, b: unknown) => unknown;
    try {
      const merger = registry.resolve(spec);
      merge = (a, b) => merger.merge(a, b);
      merge(base, incoming);
    } catch (error) {
      rows.push({
        label: spec,
        status: "error",
        note: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    const timing = await measure(
      spec,
      () => merge(base, incoming),
      workload === "userdata"
        ? { batch: 100, iterations: 20, time: 200, warmupTime: 100 }
        : { iterations: 7, warmupIterations: 2 },
    );
    rows.push({ label: spec, status: "ok", timing });
  }
  return { rows, notes };
}
