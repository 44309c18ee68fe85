import { createContenders } from "../contenders.js";
import { configTree, countNodes, overlayTree } from "../data.js";
import { keep, measure } from "../harness.js";
import type { Row } from "../result.js";
import { loadStackPlugin } from "../stack-plugin.js";

export const SCALING_SIZES = ["1e3", "1e4", "1e5", "1e6"] as const;

function heapAfterGc(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * The trees merge at one size, in its own process: time (engine and the hand-written floor), the heap the result
 * keeps beyond its inputs (what the merge allocated and still holds), and how much the process's peak resident size
 * grew during one merge.
 */
export async function runScaling(size: string): Promise<{ rows: Row[]; notes: string[] }> {
  const nodes = Number(size);
  const choice = await loadStackPlugin();
  const [engine, floor] = createContenders(choice.plugin);
  const base = configTree(nodes, 11);
  const incoming = overlayTree(base, nodes, 12);
  const total = countNodes(base) + countNodes(incoming);

  // Memory first, before timing loops grow the heap. Small sizes keep several results (about 10^5 nodes' worth) so
  // the difference is well above the heap's noise; the figure is per result.
  const copies = Math.max(1, Math.round(100_000 / nodes));
  const results: unknown[] = [];
  const before = heapAfterGc();
  const rssBefore = process.resourceUsage().maxRSS;
  for (let i = 0; i < copies; i++) results.push(engine!.merge(base, incoming));
  const rssAfter = process.resourceUsage().maxRSS;
  const retained = (heapAfterGc() - before) / copies;
  keep(results);

  const iterations = nodes >= 1e6 ? 5 : 9;
  const rows: Row[] = [];
  for (const contender of [engine!, floor!]) {
    const timing = await measure(contender.name, () => contender.merge(base, incoming), {
      iterations,
      time: nodes <= 1e4 ? 300 : 0,
      warmupIterations: nodes >= 1e6 ? 1 : 3,
    });
    rows.push({
      label: contender.name,
      status: "ok",
      timing,
      extra:
        contender === engine
          ? {
              nodes: total,
              retainedBytes: retained,
              peakRssGrowthBytes: ((rssAfter - rssBefore) * 1024) / copies,
            }
          : { nodes: total },
    });
  }
  // The same inputs only read (every key and value visited once): a baseline that has the memory-hierarchy and
  // inline-cache effects of the size but no merge work, to tell those apart from the merge's own growth.
  const walk = await measure("walk", () => countNodes(base) + countNodes(incoming), {
    iterations,
    time: nodes <= 1e4 ? 300 : 0,
    warmupIterations: nodes >= 1e6 ? 1 : 3,
  });
  rows.push({ label: "read-only walk of both inputs", status: "ok", timing: walk, extra: { nodes: total } });
  return {
    rows,
    notes: [`${total.toLocaleString("en")} input nodes (both trees)`, `stack() plugin: ${choice.origin}`],
  };
}
