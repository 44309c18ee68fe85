import { describe, expect, it } from "vitest";
import { createYamlLoader } from "./loader.js";

describe("createYamlLoader", () => {
  it("returns the same value for the same text and parses a new text", () => {
    const loader = createYamlLoader({ flavor: "salt" });
    const a = loader.load("a: 0123\nb: [1, 2]");
    expect(a).toEqual({ a: 123, b: [1, 2] });
    expect(loader.load("a: 0123\nb: [1, 2]")).toBe(a);
    expect(loader.load("a: 2")).toEqual({ a: 2 });
    expect(loader.size).toBe(2);
  });

  it("freezes cached values so one caller cannot change what the next reads", () => {
    const loader = createYamlLoader();
    const v = loader.load("a: {b: [1]}") as { a: { b: number[] } };
    expect(Object.isFrozen(v)).toBe(true);
    expect(Object.isFrozen(v.a.b)).toBe(true);
    expect(() => {
      v.a.b.push(2);
    }).toThrow(TypeError);
    const open = createYamlLoader({ freeze: false }).load("a: 1");
    expect(Object.isFrozen(open)).toBe(false);
  });

  it("drops the least recently used text beyond cacheSize", () => {
    const loader = createYamlLoader({ cacheSize: 2 });
    const one = loader.load("1");
    loader.load("2");
    loader.load("1");
    loader.load("3");
    expect(loader.size).toBe(2);
    expect(loader.load("1")).toBe(one);
  });

  it("does not cache errors, so each call names its own file", () => {
    const loader = createYamlLoader({ flavor: "salt" });
    expect(() => loader.load("a: 1\na: 2", { filename: "x.sls" })).toThrow(
      expect.objectContaining({ source: expect.objectContaining({ file: "x.sls" }) }),
    );
    expect(() => loader.load("a: 1\na: 2", { filename: "y.sls" })).toThrow(
      expect.objectContaining({ source: expect.objectContaining({ file: "y.sls" }) }),
    );
  });

  it("caches positions too", () => {
    const loader = createYamlLoader();
    const p = loader.loadWithPositions("a:\n  b: 1\n");
    expect(p.positionOf(["a", "b"])).toEqual({ line: 2, column: 3 });
    expect(loader.loadWithPositions("a:\n  b: 1\n")).toBe(p);
  });
});
