import { createRegistry, mergeAll } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createContenders } from "./contenders.js";
import { configTree, countNodes, foldDocuments, listPair, overlayTree } from "./data.js";
import { firstDifference } from "./equal.js";
import { localStackPlugin } from "./local-stack.js";
import { buildPeerCase, PEER_WORKLOADS, type PeerSizes, verify } from "./parts/peers.js";
import { loadStackPlugin } from "./stack-plugin.js";

const SMALL: PeerSizes = { treeNodes: 2000, foldDocs: 60, foldKeys: 100, listItems: 200 };

// Which peers reach the engine's semantics on each workload. lodash.merge merges lists by index and defu puts the
// new list items first, so they match only where no list is merged with another.
const MATCHING: Record<string, readonly string[]> = {
  small: ["hand-written loop", "@fastify/deepmerge", "deepmerge-ts"],
  trees: ["hand-written loop", "@fastify/deepmerge", "deepmerge", "deepmerge-ts"],
  fold: ["hand-written loop", "@fastify/deepmerge", "deepmerge", "deepmerge-ts"],
  lists: ["hand-written loop", "@fastify/deepmerge", "deepmerge", "deepmerge-ts"],
};

describe("contenders on small inputs", async () => {
  const choice = await loadStackPlugin();
  const contenders = createContenders(choice.plugin);

  for (const workload of PEER_WORKLOADS) {
    it(`${workload}: the matching peers give the engine's output and leave the inputs alone`, () => {
      const verdicts = verify(contenders, buildPeerCase(workload, SMALL));
      for (const name of MATCHING[workload]!) expect([name, verdicts.get(name)]).toEqual([name, undefined]);
      expect(verdicts.get("lodash.merge")).toBeDefined();
      expect(verdicts.get("defu")).toBeDefined();
    });
  }

  it("the bench stand-in agrees with the stack() plugin in use, pairwise and folded", () => {
    const real = createRegistry().use(choice.plugin);
    const local = createRegistry().use(localStackPlugin());
    const base = configTree(3000, 7);
    const incoming = overlayTree(base, 3000, 8);
    expect(
      firstDifference(
        real.resolve("stack()").merge(base, incoming),
        local.resolve("stack()").merge(base, incoming),
      ),
    ).toBe(undefined);
    const docs = foldDocuments(50, 20, 9);
    const folded = mergeAll(docs, { registry: local, spec: "stack()" });
    expect(firstDifference(mergeAll(docs, { registry: real, spec: "stack()" }), folded)).toBe(undefined);
    // The in-place fold and the pure fold agree too.
    expect(
      firstDifference(mergeAll(docs, { registry: local, spec: "stack()", onError: () => {} }), folded),
    ).toBe(undefined);
  });
});

describe("generated inputs", () => {
  it("are deterministic and about the size asked for", () => {
    expect(configTree(5000, 1)).toEqual(configTree(5000, 1));
    expect(countNodes(configTree(5000, 1))).toBe(5000);
    const overlay = overlayTree(configTree(5000, 1), 5000, 2);
    expect(countNodes(overlay)).toBeGreaterThan(4000);
    expect(foldDocuments(3, 10, 3)).toHaveLength(3);
    const [a, b] = listPair(10, 4);
    expect((a.records as unknown[]).length + (b.records as unknown[]).length).toBe(20);
  });
});
