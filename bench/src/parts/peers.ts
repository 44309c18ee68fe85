import { type Contender, createContenders } from "../contenders.js";
import { configTree, foldDocuments, listPair, overlayTree, smallPairs } from "../data.js";
import { firstDifference } from "../equal.js";
import { type MeasureOptions, measure, summarize, type Timing } from "../harness.js";
import type { Row } from "../result.js";
import { localStackPlugin } from "../local-stack.js";
import { loadStackPlugin } from "../stack-plugin.js";

/** The workloads of part 1 and their sizes. */
export const PEER_WORKLOADS = ["small", "trees", "fold", "lists"] as const;
export type PeerWorkload = (typeof PEER_WORKLOADS)[number];

export interface PeerSizes {
  readonly treeNodes: number;
  readonly foldDocs: number;
  readonly foldKeys: number;
  readonly listItems: number;
}

export const FULL_SIZES: PeerSizes = { treeNodes: 100_000, foldDocs: 1000, foldKeys: 100, listItems: 10_000 };

/** A workload: its inputs and how a contender runs on them. */
export interface PeerCase {
  readonly title: string;
  /** The inputs, to check that no contender changes them. */
  readonly inputs: unknown;
  run(contender: Contender): unknown;
  readonly timing: MeasureOptions;
  /**
   * Rounds over all contenders, each starting with a different one; the result is the median of the round medians.
   * Interleaving spreads JIT warm-up, GC and machine-load drift over every contender instead of whoever runs last.
   */
  readonly rounds: number;
  /** What one timed call is (for the report's unit). */
  readonly unit: string;
}

export function buildPeerCase(workload: PeerWorkload, sizes: PeerSizes = FULL_SIZES): PeerCase {
  switch (workload) {
    case "small": {
      const pairs = smallPairs();
      return {
        title: "7 small merges (the shapes of @fastify/deepmerge's comparison benchmark)",
        inputs: pairs,
        run: (c) => pairs.map(([a, b]) => c.merge(a, b)),
        // One sample is 200 rounds of the 7 merges; times are reported per round of 7.
        timing: { batch: 200, iterations: 20, time: 150, warmupTime: 100 },
        rounds: 4,
        unit: "round of 7 merges",
      };
    }
    case "trees": {
      const base = configTree(sizes.treeNodes, 1);
      const incoming = overlayTree(base, sizes.treeNodes, 2);
      return {
        title: `two configuration trees of ${sizes.treeNodes.toLocaleString("en")} nodes each`,
        inputs: [base, incoming],
        run: (c) => c.merge(base, incoming),
        timing: { iterations: 9, warmupIterations: 3 },
        rounds: 1,
        unit: "merge",
      };
    }
    case "fold": {
      const docs = foldDocuments(sizes.foldDocs, sizes.foldKeys, 3);
      return {
        title: `fold of ${sizes.foldDocs.toLocaleString("en")} documents × ${sizes.foldKeys} keys from {}`,
        inputs: docs,
        run: (c) => c.fold(docs),
        timing: { iterations: 9, warmupIterations: 3 },
        rounds: 1,
        unit: "fold",
      };
    }
    case "lists": {
      const [a, b] = listPair(sizes.listItems, 4);
      return {
        title: `lists of ${sizes.listItems.toLocaleString("en")} items (mappings and strings) concatenated`,
        inputs: [a, b],
        run: (c) => c.merge(a, b),
        timing: { iterations: 15, time: 150, warmupIterations: 5 },
        rounds: 3,
        unit: "merge",
      };
    }
  }
}

/**
 * Checks every contender against the engine's output and that it left the inputs alone. Returns, per contender,
 * undefined when it matches or the reason it does not.
 */
export function verify(
  contenders: readonly Contender[],
  peerCase: PeerCase,
): Map<string, string | undefined> {
  const before = JSON.stringify(peerCase.inputs);
  const reference = contenders.find((c) => c.reference)!;
  const expected = peerCase.run(reference);
  const verdicts = new Map<string, string | undefined>();
  for (const contender of contenders) {
    let verdict: string | undefined;
    try {
      const output = peerCase.run(contender);
      verdict = firstDifference(expected, output);
      if (verdict === undefined && JSON.stringify(peerCase.inputs) !== before) verdict = "changed its inputs";
    } catch (error) {
      verdict = `threw ${error instanceof Error ? error.message : String(error)}`;
    }
    verdicts.set(contender.name, verdict);
  }
  if (JSON.stringify(peerCase.inputs) !== before) throw new Error("a contender changed the inputs");
  return verdicts;
}

/** The median of round medians (and of their spreads); samples add up. */
function combine(rounds: readonly Timing[]): Timing {
  if (rounds.length === 1) return rounds[0]!;
  const median = (values: number[]) => summarize(values).median;
  return {
    median: median(rounds.map((r) => r.median)),
    mad: median(rounds.map((r) => r.mad)),
    min: Math.min(...rounds.map((r) => r.min)),
    max: Math.max(...rounds.map((r) => r.max)),
    samples: rounds.reduce((sum, r) => sum + r.samples, 0),
  };
}

export async function runPeers(workload: PeerWorkload): Promise<{ rows: Row[]; notes: string[] }> {
  const choice = await loadStackPlugin();
  // When the real plugin is in use, the stand-in runs too: it shows what in-place handlers give the fold.
  const contenders = createContenders(choice.plugin, choice.local ? undefined : localStackPlugin());
  const peerCase = buildPeerCase(workload);
  const verdicts = verify(contenders, peerCase);
  const timings = new Map<string, Timing[]>();
  for (let round = 0; round < peerCase.rounds; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[(i + round) % contenders.length]!;
      const timing = await measure(contender.name, () => peerCase.run(contender), peerCase.timing);
      timings.set(contender.name, [...(timings.get(contender.name) ?? []), timing]);
    }
  }
  const rows: Row[] = [];
  for (const contender of contenders) {
    const note = verdicts.get(contender.name);
    const timing = combine(timings.get(contender.name)!);
    rows.push({
      label: contender.name,
      status: note === undefined ? "ok" : "differs",
      timing,
      ...(note === undefined ? {} : { note }),
    });
  }
  return { rows, notes: [peerCase.title, `unit: one ${peerCase.unit}`, `stack() plugin: ${choice.origin}`] };
}
