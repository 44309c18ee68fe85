import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { diffTrees, sameTree } from "./tree-diff.js";

describe("diffTrees", () => {
  it("compares mappings key by key, order aside", () => {
    const a = new PyDict<unknown>([
      ["a", 1],
      ["b", 2],
    ]);
    const b = new PyDict<unknown>([
      ["b", 3],
      ["c", 4],
    ]);
    expect(diffTrees(a, b)).toEqual([
      { kind: "removed", path: ["a"], old: 1 },
      { kind: "changed", path: ["b"], otherPath: ["b"], old: 2, new: 3 },
      { kind: "added", path: ["c"], new: 4 },
    ]);
    const reordered = new PyDict<unknown>([
      ["b", 2],
      ["a", 1],
    ]);
    expect(diffTrees(a, reordered)).toEqual([]);
  });

  it("aligns lists, so one inserted item is one addition", () => {
    expect(diffTrees(["x", "y", "z"], ["x", "new", "y", "z"])).toEqual([
      { kind: "added", path: [1], new: "new" },
    ]);
  });

  it("tells 1, 1.0, true and '1' apart, as they write differently", () => {
    expect(sameTree(1, new PyFloat(1))).toBe(false);
    expect(sameTree(1, true)).toBe(false);
    expect(sameTree(1, "1")).toBe(false);
    expect(sameTree(new PyFloat(1), new PyFloat(1))).toBe(true);
    expect(sameTree(Number.NaN, Number.NaN)).toBe(true);
  });
});
