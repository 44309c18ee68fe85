import { describe, expect, it } from "vitest";
import { isMergeError } from "./errors.js";
import { checkTree, cloneTree } from "./tree.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isMergeError(error) ? error.code : "not a MergeError";
  }
  return undefined;
}

describe("checkTree", () => {
  it("accepts ordinary trees, including shared subtrees", () => {
    const shared = { x: [1, 2] };
    expect(codeOf(() => checkTree({ a: shared, b: shared, c: [shared, null, "s"] }))).toBeUndefined();
  });

  it("finds cycles through dicts and lists", () => {
    const a: Record<string, unknown> = {};
    a.list = [{ back: a }];
    expect(codeOf(() => checkTree(a))).toBe("CYCLIC_INPUT");
  });

  it("stops at the depth limit without recursing, even 10^5 levels deep", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(codeOf(() => checkTree(deep))).toBe("DEPTH_LIMIT");
    expect(codeOf(() => checkTree(deep, { maxDepth: 200_000 }))).toBeUndefined();
  });

  it("counts shared subtrees once per use, so alias bombs hit the node budget", () => {
    let bomb: unknown = ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"];
    for (let i = 0; i < 9; i++) bomb = new Array(10).fill(bomb);
    expect(codeOf(() => checkTree(bomb, { maxNodes: 100_000 }))).toBe("SIZE_LIMIT");
  });
});

describe("cloneTree", () => {
  it("copies mappings and lists, keeping hostile keys as data", () => {
    const source = JSON.parse('{"__proto__": {"x": 1}, "l": [{"a": 1}]}');
    const copy = cloneTree(source);
    expect(copy).toEqual(source);
    expect(copy).not.toBe(source);
    expect(copy.l[0]).not.toBe(source.l[0]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "l"]);
  });
});
