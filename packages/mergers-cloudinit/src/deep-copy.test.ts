import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { deepCopyExact } from "./deep-copy.js";

describe("deepCopyExact", () => {
  it("copies every container, keeps shared ones shared (YAML aliases) and keeps key types", () => {
    const shared = new PyDict([["x", 1]]);
    const source = new PyDict<unknown>([
      [8080, shared],
      ["b", [shared, new PyFloat(2)]],
    ]);
    const copy = deepCopyExact(source) as PyDict;
    expect(copy).not.toBe(source);
    expect(copy.keyList()).toEqual([8080, "b"]);
    const first = copy.get(8080);
    expect(first).not.toBe(shared);
    expect((copy.get("b") as unknown[])[0]).toBe(first);
    expect((copy.get("b") as unknown[])[1]).toEqual(new PyFloat(2));
  });
  it("turns plain objects into PyDicts and copies a cycle as a cycle", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const copy = deepCopyExact(cyclic) as PyDict;
    expect(copy).toBeInstanceOf(PyDict);
    expect(copy.get("self")).toBe(copy);
  });
  it("refuses nesting past the limit with DEPTH_LIMIT, at any depth without a stack overflow", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => deepCopyExact(deep)).toThrow(expect.objectContaining({ code: "DEPTH_LIMIT" }));
    expect(() => deepCopyExact(deep, 200_000)).not.toThrow();
  });
});
