// PillarStack's strategies on the exact value model (PyDict, PyFloat), as Salt's Python dicts behave.
import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { stackMergeAll } from "./accumulator.js";
import { stackMerge } from "./merge.js";

const d = (...entries: [unknown, unknown][]) => new PyDict(entries as [never, unknown][]);

describe("stack merging on PyDict values", () => {
  it("keeps int keys apart from string keys and keys in their first place", () => {
    const merged = stackMerge(d([10, "a"], ["9", "b"]), d(["B", "c"], [10, "z"], ["10", "s"])) as PyDict;
    expect(merged).toBeInstanceOf(PyDict);
    expect([...merged.entries()]).toEqual([
      [10, "z"],
      ["9", "b"],
      ["B", "c"],
      ["10", "s"],
    ]);
  });

  it("keeps whole floats as floats through merges", () => {
    const merged = stackMerge(d(["version", 9]), d(["version", new PyFloat(9)])) as PyDict;
    expect(String(merged.get("version"))).toBe("9.0");
  });

  it("removes keys by Python equality (True removes the key 1) and list items equal to 1.0", () => {
    const merged = stackMerge(
      d([1, "x"], ["a", [1, 2, "1"]]),
      d([true, null], ["a", [d(["__", "remove"]), new PyFloat(1)]], ["__", "remove"]),
    ) as PyDict;
    expect(merged.keyList()).toEqual([]);
    const kept = stackMerge(d(["a", [1, 2, "1"]]), d(["a", [d(["__", "remove"]), new PyFloat(1)]])) as PyDict;
    expect(kept.get("a")).toEqual([2, "1"]);
  });

  it("folds PyDict documents in place from an exact start", () => {
    const docs = [
      d(["a", d([1, "one"])]),
      d(["a", d([true, "uno"], [2, "two"], ["__", "merge-first"])]),
      d(["b", [1]]),
    ];
    const value = stackMergeAll(docs, { exact: true }) as PyDict;
    expect(value).toBeInstanceOf(PyDict);
    const a = value.get("a") as PyDict;
    // merge-first: the existing value of key 1 wins; the new key 2 is added after it (Salt's _merge_dict)
    expect([...a.entries()]).toEqual([
      [1, "one"],
      [2, "two"],
    ]);
    expect((docs[1]!.get("a") as PyDict).has("__")).toBe(true);
  });

  it("treats __proto__ as an ordinary key of a PyDict", () => {
    const merged = stackMerge(d(), d(["__proto__", d(["admin", true])])) as PyDict;
    expect(merged.has("__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
