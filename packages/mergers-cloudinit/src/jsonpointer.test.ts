import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import {
  END_OF_LIST,
  PointerError,
  parsePointer,
  sequenceLength,
  stepFor,
  toLast,
  walk,
} from "./jsonpointer.js";

describe("parsePointer", () => {
  it("splits and unescapes as jsonpointer 2.3 does (~1 before ~0)", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
    expect(parsePointer("/a~1b/m~0n/~01")).toEqual(["a/b", "m~n", "~1"]);
  });
  it("refuses a pointer without a leading slash, an invalid escape, or a non-string", () => {
    for (const bad of ["a", "/~2", "/a~", "/~", 5, null, ["/a"]]) {
      expect(() => parsePointer(bad), JSON.stringify(bad)).toThrow(PointerError);
    }
  });
});

describe("stepFor and walk", () => {
  it("reads sequence indexes with the library's pattern, then Python's int()", () => {
    const list = [1, 2, 3];
    expect(stepFor(list, "0")).toBe(0);
    expect(stepFor(list, "01")).toBe(1);
    expect(stepFor(list, "2\n")).toBe(2);
    expect(stepFor(list, "-")).toBe("-");
    for (const bad of ["+1", "-1", " 1", "1 ", "a", "length", "1e0", "0x1"]) {
      expect(() => stepFor(list, bad), JSON.stringify(bad)).toThrow(PointerError);
    }
  });
  it("finds only the string key of a mapping, and nothing inherited", () => {
    const dict = new PyDict<unknown>([
      [8080, "int"],
      ["a", 1],
    ]);
    expect(walk(dict, "a")).toBe(1);
    expect(() => walk(dict, "8080")).toThrow(PointerError);
    expect(() => walk(dict, "constructor")).toThrow(PointerError);
    expect(() => walk([1], "length")).toThrow(PointerError);
  });
  it("indexes strings by code point and gives the end of a list for -", () => {
    expect(walk("a😀b", "1")).toBe("😀");
    expect(sequenceLength("a😀b")).toBe(3);
    expect(walk([1], "-")).toBe(END_OF_LIST);
    expect(() => walk(5, "0")).toThrow(PointerError);
  });
  it("stops before the last step, reading it for its container", () => {
    const doc = new PyDict<unknown>([["l", [1, 2]]]);
    expect(toLast(doc, [])).toEqual([doc, null]);
    expect(toLast(doc, ["l", "01"])).toEqual([[1, 2], 1]);
  });
});
