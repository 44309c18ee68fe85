import { describe, expect, it } from "vitest";
import {
  copyMapping,
  deleteItem,
  emptyLike,
  getItem,
  hasItem,
  isMapping,
  mappingKeys,
  mappingSize,
  setItem,
} from "./mapping.js";
import { PyDict } from "./values/pydict.js";

describe("mapping helpers", () => {
  it("read and write plain objects and PyDicts alike", () => {
    for (const make of [() => ({}) as Record<string, unknown>, () => new PyDict()]) {
      const m = make();
      expect(isMapping(m)).toBe(true);
      setItem(m, "a", 1);
      setItem(m, "__proto__", { x: 1 });
      expect(getItem(m, "a")).toBe(1);
      expect(hasItem(m, "__proto__")).toBe(true);
      expect(getItem(m, "constructor")).toBeUndefined();
      expect(hasItem(m, "toString")).toBe(false);
      expect(mappingKeys(m)).toEqual(["a", "__proto__"]);
      expect(mappingSize(m)).toBe(2);
      const copy = copyMapping(m);
      expect(deleteItem(m, "a")).toBe(true);
      expect(deleteItem(m, "a")).toBe(false);
      expect(mappingKeys(copy)).toEqual(["a", "__proto__"]);
      expect(emptyLike(m) instanceof PyDict).toBe(m instanceof PyDict);
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    }
  });

  it("names non-string keys in a plain object as json.dumps does", () => {
    const plain: Record<string, unknown> = {};
    setItem(plain, 8080, "a");
    setItem(plain, true, "b");
    setItem(plain, null, "c");
    expect(plain).toEqual({ "8080": "a", true: "b", null: "c" });
    expect(getItem(plain, 8080)).toBe("a");
    expect(hasItem(plain, null)).toBe(true);
    expect(deleteItem(plain, true)).toBe(true);
  });

  it("keeps int keys apart in a PyDict", () => {
    const d = new PyDict();
    setItem(d, 1, "int");
    setItem(d, "1", "str");
    expect(mappingKeys(d)).toEqual([1, "1"]);
    expect(getItem(d, true)).toBe("int");
  });

  it("does not take lists, class instances or null as mappings", () => {
    for (const value of [[], new Map(), new Date(), null, "x", 1]) expect(isMapping(value)).toBe(false);
    expect(isMapping(Object.create(null))).toBe(true);
  });
});
