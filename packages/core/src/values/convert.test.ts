import { describe, expect, it } from "vitest";
import { isMergeError } from "../errors.js";
import { toExact, toPlain } from "./convert.js";
import { PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

describe("toPlain", () => {
  it("turns PyDicts into objects and PyFloats into numbers", () => {
    const exact = new PyDict<unknown>([
      ["version", new PyFloat(9)],
      [8080, [new PyDict([[true, null]])]],
    ]);
    expect(toPlain(exact)).toEqual({ version: 9, "8080": [{ true: null }] });
  });

  it("returns containers without anything to convert unchanged, and keeps sharing", () => {
    const plain = { a: [1, { b: 2 }] };
    expect(toPlain(plain)).toBe(plain);
    const shared = new PyDict([["x", 1]]);
    const out = toPlain([shared, shared]) as unknown[];
    expect(out[0]).toBe(out[1]);
  });

  it("keeps __proto__ as data", () => {
    const out = toPlain(new PyDict([["__proto__", { admin: true }]])) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect((out as { admin?: boolean }).admin).toBeUndefined();
  });

  it("stops at the depth limit with a coded error", () => {
    let deep: unknown = new PyDict();
    for (let i = 0; i < 5000; i++) deep = [deep];
    let caught: unknown;
    try {
      toPlain(deep);
    } catch (error) {
      caught = error;
    }
    expect(isMergeError(caught) && caught.code).toBe("DEPTH_LIMIT");
  });

  it("survives a cycle", () => {
    const a: unknown[] = [];
    a.push(a);
    expect(toPlain(a)).toBe(a);
  });
});

describe("toExact", () => {
  it("turns objects into PyDicts in their key order", () => {
    const out = toExact({ b: { c: 1 }, a: [{ d: 2 }] }) as PyDict;
    expect(out).toBeInstanceOf(PyDict);
    expect(out.keyList()).toEqual(["b", "a"]);
    expect((out.get("a") as PyDict[])[0]).toBeInstanceOf(PyDict);
  });

  it("leaves exact values as they are", () => {
    const exact = new PyDict([["a", [1, new PyFloat(2)]]]);
    expect(toExact(exact)).toBe(exact);
  });
});
