import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { oldGenerationGrowth } from "../../../test-kit/heap-growth.js";
import { createStackAccumulator } from "./accumulator.js";

// A host's merged stack is garbage as soon as its caller lets go of it. The accumulator must not hold it in a place
// the young-generation collector cannot free: a getter in a per-call object literal did (its hidden class lives in the
// old generation and holds the getter's closure), and a `--minions` batch then promoted every host's pillar.

/** One host's worth of merging: two 50-key documents, the second changing half of the first. */
function mergeOneHost(round: number): number {
  const accumulator = createStackAccumulator({ exact: true });
  for (const pass of [0, 1]) {
    const doc = new PyDict();
    for (let k = pass * 25; k < 50 + pass * 25; k++) {
      doc.set(`key${k}`, new PyDict([["value", `host ${round} pass ${pass} key ${k}`]]));
    }
    accumulator.merge(doc);
  }
  return (accumulator.value as PyDict).size;
}

describe("the accumulator and the young generation", () => {
  it("merges as before", () => {
    expect(mergeOneHost(0)).toBe(75);
  });

  it("leaves a finished stack to the young-generation collector", () => {
    // 2,000 stacks of 75 small mappings: about 20 MB would reach the old generation if they were held.
    const grown = oldGenerationGrowth(mergeOneHost, 2000);
    expect(grown).toBeLessThan(2_000_000);
  });

  it("keeps `value` on the class, not on each accumulator", () => {
    const one = createStackAccumulator();
    const two = createStackAccumulator();
    expect(Object.getOwnPropertyDescriptor(one, "value")).toBeUndefined();
    expect(Object.getPrototypeOf(one)).toBe(Object.getPrototypeOf(two));
    one.merge({ a: 1 });
    expect(one.value).toEqual({ a: 1 });
    expect(two.value).toEqual({});
  });
});
