import { describe, expect, it } from "vitest";
import { createCloudInitRegistry } from "./plugins.js";

const registry = createCloudInitRegistry();
const merge = (spec: string, base: unknown, incoming: unknown) =>
  registry.resolve(spec).merge(base, incoming);

describe("dict merger: no_replace (default)", () => {
  it("adds new keys, merges new mappings and keeps other old values", () => {
    expect(
      merge("dict()+list()+str()", { k: "old", d: { x: 1 } }, { k: "new", d: { x: 2, y: 2 }, n: 1 }),
    ).toEqual({ k: "old", d: { x: 1, y: 2 }, n: 1 });
  });
  it("merges lists and strings only with the recurse flags", () => {
    expect(merge("dict()+list(append)", { a: [1] }, { a: [2] })).toEqual({ a: [1] });
    expect(merge("dict(recurse_list)+list(append)", { a: [1] }, { a: [2] })).toEqual({ a: [1, 2] });
    expect(merge("dict(recurse_array)+list(append)", { a: [1] }, { a: [2] })).toEqual({ a: [1, 2] });
    expect(merge("dict()+str(append)", { a: "x" }, { a: "y" })).toEqual({ a: "x" });
    expect(merge("dict(recurse_str)+str(append)", { a: "x" }, { a: "y" })).toEqual({ a: "xy" });
  });
  it("lets the old value's type pick the merger", () => {
    // an old null stays null even against a new mapping
    expect(merge("dict()", { a: null }, { a: { b: 1 } })).toEqual({ a: null });
    // an old string meeting a new mapping goes to str, which returns the new value
    expect(merge("dict()+str()", { a: "s" }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
    // without a str merger the old string is kept
    expect(merge("dict()", { a: "s" }, { a: { b: 1 } })).toEqual({ a: "s" });
  });
  it("keeps old scalars against new scalars", () => {
    expect(merge("dict()", { a: 1, b: true }, { a: 2, b: false })).toEqual({ a: 1, b: true });
  });
  it("leaves the old mapping unchanged when the new value is not a mapping", () => {
    const base = { a: 1 };
    expect(merge("dict()", base, [1])).toBe(base);
    expect(merge("dict(replace)", base, "x")).toBe(base);
    expect(merge("dict()", base, null)).toBe(base);
  });
});

describe("dict merger: replace", () => {
  it("lets the new value win per key and merges nothing recursively", () => {
    expect(
      merge(
        "dict(replace,recurse_list,recurse_str)+list(append)+str(append)",
        { a: [1], s: "x", d: { x: 1 } },
        {
          a: [2],
          s: "y",
          d: { y: 1 },
        },
      ),
    ).toEqual({ a: [2], s: "y", d: { y: 1 } });
  });
  it("wins over no_replace whatever the order", () => {
    expect(merge("dict(no_replace,replace)", { a: 1 }, { a: 2 })).toEqual({ a: 2 });
  });
  it("reads overwrite (the seed's name) as replace", () => {
    expect(merge("dict(overwrite)", { a: 1 }, { a: 2 })).toEqual({ a: 2 });
  });
  it("matches a settings string by substring: no_replace contains replace", () => {
    expect(registry.resolve([{ name: "dict", settings: "no_replace" }]).merge({ a: 1 }, { a: 2 })).toEqual({
      a: 2,
    });
  });
});

describe("dict merger: allow_delete", () => {
  it("deletes an existing key given null and adds a null for a missing key", () => {
    expect(merge("dict(allow_delete)", { a: 1, b: 2 }, { a: null, z: null })).toEqual({ b: 2, z: null });
    expect(merge("dict(allow_delete,replace)", { a: 1, b: 2 }, { a: null, z: null })).toEqual({
      b: 2,
      z: null,
    });
  });
  it("keeps an existing key given null without the option", () => {
    expect(merge("dict()", { a: 1 }, { a: null })).toEqual({ a: 1 });
    expect(merge("dict(replace)", { a: 1 }, { a: null })).toEqual({ a: null });
  });
});

describe("dict merger: hostile keys", () => {
  it("keeps __proto__, constructor and prototype as data", () => {
    const incoming = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}');
    const out = merge("dict()", {}, incoming) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    const merged = merge("dict()", out, incoming) as Record<string, unknown>;
    expect(Object.hasOwn(merged, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("does not treat inherited names as existing keys", () => {
    expect(merge("dict()", {}, { toString: 1, constructor: 2 })).toEqual({ toString: 1, constructor: 2 });
  });
});
