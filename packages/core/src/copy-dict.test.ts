import { describe, expect, it } from "vitest";
import { copyDict } from "./kinds.js";

describe("copyDict", () => {
  it("makes a shallow plain copy that shares the values", () => {
    const nested = { deep: true };
    const source = { a: 1, nested };
    const copy = copyDict(source);
    expect(copy).toEqual(source);
    expect(copy).not.toBe(source);
    expect(copy.nested).toBe(nested);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it("keeps a __proto__ key as data and never changes a prototype", () => {
    const source = JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}') as Record<string, unknown>;
    const copy = copyDict(source);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: 1 });
  });

  it("copies null-prototype mappings into plain ones", () => {
    const source = Object.assign(Object.create(null) as Record<string, unknown>, { k: "v" });
    const copy = copyDict(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ k: "v" });
  });
});
