import { createRegistry, PyDict } from "@merge/core";
import { stackMerger } from "@merge/strategies-stack";
import { describe, expect, it } from "vitest";
import { oldGenerationGrowth } from "../../../test-kit/heap-growth.js";
import { createFoldFactory } from "./fold.js";

// Each host's fold is garbage once its result is written. Neither kind of fold may hold its stack where the
// young-generation collector cannot free it (a getter in a per-host object literal did: see accumulator-memory.test.ts
// of @merge/strategies-stack).

const FOLDS = {
  "the in-place accumulator (no spec)": createFoldFactory(undefined, undefined, undefined),
  "a registry's merger (stack(merge-first) through a registry)": createFoldFactory(
    "stack(merge-first)",
    createRegistry([stackMerger()]),
    undefined,
  ),
};

function foldOneHost(newFold: () => ReturnType<ReturnType<typeof createFoldFactory>>, round: number): number {
  const fold = newFold();
  for (const pass of [0, 1]) {
    const doc = new PyDict();
    for (let k = pass * 25; k < 50 + pass * 25; k++) {
      doc.set(`key${k}`, new PyDict([["value", `host ${round} pass ${pass} key ${k}`]]));
    }
    fold.merge(doc);
  }
  return (fold.value as PyDict).size;
}

describe("stack folds and the young generation", () => {
  for (const [name, newFold] of Object.entries(FOLDS)) {
    it(`${name}: leaves a finished stack to the young-generation collector`, () => {
      expect(foldOneHost(newFold, 0)).toBe(75);
      const grown = oldGenerationGrowth((round) => foldOneHost(newFold, round), 2000);
      expect(grown).toBeLessThan(2_000_000);
    });
  }
});
