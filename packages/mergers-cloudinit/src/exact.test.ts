// The mergers on the exact value model (PyDict mappings, PyFloat floats), as cloud-init's Python sees the values.
import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createCloudInitRegistry } from "./plugins.js";

const registry = createCloudInitRegistry();
const merge = (spec: string, base: unknown, incoming: unknown) =>
  registry.resolve(spec).merge(base, incoming);

describe("cloud-init mergers on PyDict values", () => {
  it("appends a mapping's keys in insertion order (cloud-init: list(append) of {'k': 1, '10': 2} gives ['k', '10'])", () => {
    const incoming = new PyDict([
      ["k", 1],
      ["10", 2],
    ]);
    expect(merge("list(append)", [], incoming)).toEqual(["k", "10"]);
    expect(merge("list(prepend)", ["x"], new PyDict([[0, "a"]]))).toEqual([0, "x"]);
  });

  it("keeps int and string keys apart and the result a PyDict", () => {
    const base = new PyDict<unknown>([
      [8080, "a"],
      ["8080", "b"],
    ]);
    const out = merge("dict(replace)+list()+str()", base, new PyDict([[8080, "c"]])) as PyDict;
    expect(out).toBeInstanceOf(PyDict);
    expect([...out.entries()]).toEqual([
      [8080, "c"],
      ["8080", "b"],
    ]);
    expect(base.get(8080)).toBe("a");
  });

  it("merges True into the key 1 (Python's key equality) and keeps the first spelling", () => {
    const out = merge("dict(replace)", new PyDict([[1, "int"]]), new PyDict([[true, "bool"]])) as PyDict;
    expect(out.keyList()).toEqual([1]);
    expect(out.get(1)).toBe("bool");
  });

  it("deletes with allow_delete and recurses into nested PyDicts", () => {
    const base = new PyDict<unknown>([
      ["a", new PyDict([["x", 1]])],
      ["b", 2],
    ]);
    const incoming = new PyDict<unknown>([
      ["a", new PyDict([["y", new PyFloat(2)]])],
      ["b", null],
    ]);
    const out = merge("dict(allow_delete)", base, incoming) as PyDict;
    expect(out.keyList()).toEqual(["a"]);
    const a = out.get("a") as PyDict;
    expect([...a.entries()]).toEqual([
      ["x", 1],
      ["y", new PyFloat(2)],
    ]);
  });

  it("no_replace against a mapping reads int keys 0..n-1, as Python indexes new[i]", () => {
    expect(merge("list(no_replace)", [1, 2], new PyDict([[0, "a"], [1, "b"]]))).toEqual([1, 2]);
    expect(() => merge("list(no_replace)", [1], new PyDict([["0", "a"]]))).toThrow(/no key 0/);
  });

  it("treats a whole float as a number for str(append)", () => {
    expect(() => merge("str(append)", "a", new PyFloat(1))).toThrow(/cannot append a number/);
    expect(merge("str()", "a", new PyFloat(1))).toEqual(new PyFloat(1));
  });
});
