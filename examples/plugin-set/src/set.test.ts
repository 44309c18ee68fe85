import { createRegistry, mergeAll, type TraceEvent } from "@merge/core";
import { stackMerger } from "@merge/strategies-stack";
import { describe, expect, it } from "vitest";
import { setMerger, valueKey } from "./index.js";

const registry = () => createRegistry([setMerger(), stackMerger()]);

// A union of literal specs is checked like one literal: "set(lats)" here would not compile.
function merger(spec: "set()" | "set(last)" | "set(sorted)", trace?: (event: TraceEvent) => void) {
  return registry().resolve(spec, trace === undefined ? {} : { trace: { record: trace } });
}

describe("set()", () => {
  it("appends the new items that are not already there", () => {
    expect(merger("set()").merge(["curl", "git"], ["git", "rsync", "curl", "htop"])).toEqual([
      "curl",
      "git",
      "rsync",
      "htop",
    ]);
  });

  it("leaves no repeats at all, also those of the old list", () => {
    expect(merger("set()").merge(["a", "a", "b"], ["b", "c", "c"])).toEqual(["a", "b", "c"]);
  });

  it("keeps a repeated value at its newest position with last", () => {
    expect(merger("set(last)").merge(["curl", "git", "vim"], ["git", "rsync", "curl"])).toEqual([
      "vim",
      "git",
      "rsync",
      "curl",
    ]);
  });

  it("sorts null, booleans, numbers, strings by code point, then the rest as they came, with sorted", () => {
    const result = merger("set(sorted)").merge(["b", 2, { k: 1 }, true], ["a", null, 10, [1], "B", 2n, "é"]);
    expect(result).toEqual([null, true, 2, 10, "B", "a", "b", "é", { k: 1 }, [1]]);
  });

  it("compares values, not identities: mappings key by key in any order, lists item by item", () => {
    expect(
      merger("set()").merge(
        [{ a: 1, b: [1, 2] }],
        [
          { b: [1, 2], a: 1 },
          { a: 1, b: [2, 1] },
        ],
      ),
    ).toEqual([
      { a: 1, b: [1, 2] },
      { a: 1, b: [2, 1] },
    ]);
    expect(merger("set()").merge([1, "1", true, null], [1.0, "1", 1n, false, undefined])).toEqual([
      1,
      "1",
      true,
      null,
      false,
    ]);
  });

  it("keeps the old list for a null and takes a non-list new value as it is", () => {
    const base = ["a"];
    expect(merger("set()").merge(base, null)).toBe(base);
    expect(merger("set()").merge(base, "text")).toBe("text");
  });

  it("never changes its inputs, and builds the result from their items", () => {
    const base = [{ name: "a" }, "x"];
    const incoming = [{ name: "a" }, "y"];
    const snapshot = structuredClone([base, incoming]);
    const result = merger("set()").merge(base, incoming) as unknown[];
    expect([base, incoming]).toEqual(snapshot);
    expect(result[0]).toBe(base[0]);
    expect(result[2]).toBe(incoming[1]);
  });

  it("works under stack() in a fold of documents, as PillarStack users merge them", () => {
    const docs = [
      { packages: ["curl", "git"], ntp: { servers: ["a"] } },
      { packages: ["git", "rsync"], ntp: { servers: ["a", "b"] } },
      { packages: ["curl", "htop"] },
    ];
    expect(mergeAll(docs, { registry: registry(), spec: "set()+stack()" })).toEqual({
      packages: ["curl", "git", "rsync", "htop"],
      ntp: { servers: ["a", "b"] },
    });
  });

  it("records events at the positions items have in the result, after dropping repeats and sorting", () => {
    const events: TraceEvent[] = [];
    merger("set(sorted)", (event) => events.push(event)).merge(["b", "d", "d"], ["c", "a", "b"]);
    // Result: a, b, c, d.
    expect(events.map((event) => [event.path, event.action])).toEqual([
      [[0], "added"],
      [[2], "added"],
      [[1], "kept"],
      [[], "removed"],
    ]);
    expect(events[3]?.detail).toBe("1 old item(s) repeated in the old list");
  });
});

describe("valueKey", () => {
  it("is equal for equal values and different otherwise", () => {
    expect(valueKey({ a: [1, "x"], b: null })).toBe(valueKey({ b: undefined, a: [1.0, "x"] }));
    expect(valueKey(["a,b"])).not.toBe(valueKey(["a", "b"]));
    expect(valueKey({ "a:1": 2 })).not.toBe(valueKey({ a: "1:2" }));
    expect(valueKey(new Date(0))).toBe(valueKey(new Date(0)));
    const identities = new Map<object, number>();
    expect(valueKey(new Map(), identities)).not.toBe(valueKey(new Map(), identities));
  });
});

describe("set() in the exact model", () => {
  it("takes a whole float for its number and PyDicts for the mappings they are", async () => {
    const { PyDict, PyFloat } = await import("@merge/core");
    const result = merger("set()").merge(
      [1, new PyDict([["k", 1]])],
      [new PyFloat(1), new PyDict([["k", 1]]), { k: 1 }, new PyFloat(2)],
    ) as unknown[];
    expect(result.length).toBe(3);
    expect(String(result[2])).toBe("2.0");
  });
});
