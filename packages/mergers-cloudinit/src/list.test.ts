import { isMergeError, type MergeError, toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import { mergeManyDicts } from "./mergemanydict.js";
import { createCloudInitRegistry } from "./plugins.js";

const registry = createCloudInitRegistry();
const merge = (spec: string, base: unknown, incoming: unknown) =>
  registry.resolve(spec).merge(base, incoming);
const failure = (fn: () => unknown): MergeError => {
  try {
    fn();
  } catch (error) {
    if (isMergeError(error)) return error;
    throw error;
  }
  throw new Error("expected a MergeError");
};

describe("list merger: method precedence", () => {
  it("replaces by default", () => {
    expect(merge("list()", [1, 2, 3], [9])).toEqual([9, 2, 3]);
  });
  it("picks append over prepend whatever the order written", () => {
    expect(merge("list(prepend,append)", [1], [2])).toEqual([1, 2]);
    expect(merge("list(no_replace,prepend)", [1], [2])).toEqual([2, 1]);
    expect(merge("list(no_replace,replace)", [1], [2])).toEqual([2]);
  });
  it("reads extend (the seed's name) as append", () => {
    expect(merge("list(extend)", [1, 2], [3])).toEqual([1, 2, 3]);
  });
  it("does not know extend without the seed's reading, as cloud-init does not", () => {
    const cloudInit = createCloudInitRegistry({ seedExtend: false });
    expect(cloudInit.resolve("list(extend)", { lenient: true }).merge([1, 2], [3])).toEqual([3, 2]);
    expect(failure(() => cloudInit.resolve("list(extend)")).code).toBe("UNKNOWN_OPTION");
    // mergemanydict (cloud.cfg and its conf.d) reads specs as cloud-init does.
    const configs = [{ a: [1, 2] }, { merge_how: "list(extend)+dict(recurse_list)", a: [3] }];
    expect(toPlain(mergeManyDicts(configs).value)).toEqual({ a: [3, 2] });
  });
  it("matches a settings string by substring, as cloud-init does", () => {
    // "no_replace" contains "replace", which has precedence
    expect(registry.resolve([{ name: "list", settings: "no_replace" }]).merge([1], [2])).toEqual([2]);
    expect(registry.resolve([{ name: "list", settings: ["no_replace"] }]).merge([1], [2])).toEqual([1]);
  });
});

describe("list merger: replace", () => {
  it("works index by index over the shared length", () => {
    expect(merge("list(replace)", [1, 2, 3], [9])).toEqual([9, 2, 3]);
    expect(merge("list(replace)", [1], [7, 8, 9])).toEqual([7]);
    expect(merge("list(replace)", [], [1, 2])).toEqual([]);
  });
  it("returns a new value that is not a list as is", () => {
    expect(merge("list()", [1], "ab")).toBe("ab");
    expect(merge("list()", [1], null)).toBeNull();
    expect(merge("list()", [1], { a: 1 })).toEqual({ a: 1 });
  });
  it("merges a pair through the root merger when the recurse flag matches the new element", () => {
    expect(merge("list(recurse_list)", [1, [1, 2]], [[2], [3]])).toEqual([1, [3, 2]]);
    expect(merge("list(recurse_array)", [1, [1, 2]], [[2], [3]])).toEqual([1, [3, 2]]);
    // without the flag the element is replaced
    expect(merge("list()", [1, [1, 2]], [[2], [3]])).toEqual([[2], [3]]);
  });
  it("recurses into dicts and strings only with their flags", () => {
    expect(merge("list(recurse_dict)+dict()", [{ a: 1 }], [{ a: 2, b: 2 }])).toEqual([{ a: 1, b: 2 }]);
    expect(merge("list()+dict()", [{ a: 1 }], [{ a: 2, b: 2 }])).toEqual([{ a: 2, b: 2 }]);
    expect(merge("list(recurse_str)+str(append)", ["a"], ["b"])).toEqual(["ab"]);
    expect(merge("list()+str(append)", ["a"], ["b"])).toEqual(["b"]);
  });
  it("keeps an old scalar when recursion meets a type no merger handles", () => {
    expect(merge("list(recurse_dict)+dict()", [5], [{ a: 1 }])).toEqual([5]);
  });
});

describe("list merger: append and prepend", () => {
  it("appends and prepends lists", () => {
    expect(merge("list(append)", [1, 2], [3, 4])).toEqual([1, 2, 3, 4]);
    expect(merge("list(prepend)", [1, 2], [3, 4])).toEqual([3, 4, 1, 2]);
  });
  it("iterates a string's characters and a mapping's keys the way Python does", () => {
    expect(merge("list(append)", [1], "ab")).toEqual([1, "a", "b"]);
    expect(merge("list(prepend)", [1], "ab")).toEqual(["a", "b", 1]);
    expect(merge("list(append)", [1], { x: 1, y: 2 })).toEqual([1, "x", "y"]);
    expect(merge("list(append)", [], "😀é")).toEqual(["😀", "é"]);
  });
  it("fails with MERGE_TYPE on a number or null", () => {
    for (const value of [5, null, true]) {
      const error = failure(() => merge("list(append)", [1], value));
      expect(error.code).toBe("MERGE_TYPE");
      expect(error.plugin).toBe("list(append)");
    }
  });
  it("names the key path of the failing list", () => {
    // a new mapping is always merged recursively, so it reaches the list merger at a.b
    const error = failure(() => merge("dict()+list(no_replace)", { a: { b: [1] } }, { a: { b: { x: 1 } } }));
    expect(error.code).toBe("MERGE_TYPE");
    expect(error.path).toBe("a.b");
  });
});

describe("list merger: no_replace", () => {
  it("returns the old list", () => {
    expect(merge("list(no_replace)", [1, 2], [3, 4, 5])).toEqual([1, 2]);
    expect(merge("list(no_replace)", [1, 2], "abc")).toEqual([1, 2]);
    expect(merge("list(no_replace)", [], { a: 1 })).toEqual([]);
  });
  it("fails on a non-empty mapping, a number or null", () => {
    expect(failure(() => merge("list(no_replace)", [1], { a: 1 })).code).toBe("MERGE_TYPE");
    expect(failure(() => merge("list(no_replace)", [1], 5)).code).toBe("MERGE_TYPE");
    expect(failure(() => merge("list(no_replace)", [], null)).code).toBe("MERGE_TYPE");
  });
});
