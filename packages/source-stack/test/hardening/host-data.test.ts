import { afterAll, describe, expect, it } from "vitest";
import { loadStack } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { makeTree } from "./tree.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/source-stack", import.meta.url);

const tree = makeTree();
afterAll(() => tree.remove());

describe("size and shape of host data", () => {
  it("refuses cyclic or 10^5-deep grains and pillar with a coded error", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    let cases = 0;
    for (const value of [cyclic, deep]) {
      for (const where of ["grains", "pillar"] as const) {
        const error = failure(() => loadStack({ config: tree.config, minionId: "web1", [where]: { value } }));
        expect(error.code).toMatch(/^(CYCLIC_INPUT|DEPTH_LIMIT)$/);
        cases++;
      }
    }
    tally("size", cases);
  });
});
