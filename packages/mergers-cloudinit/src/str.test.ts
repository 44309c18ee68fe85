import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createCloudInitRegistry } from "./plugins.js";

const registry = createCloudInitRegistry();
const merge = (spec: string, base: unknown, incoming: unknown) =>
  registry.resolve(spec).merge(base, incoming);

describe("str merger", () => {
  it("returns the new value whatever its type without append", () => {
    expect(merge("str()", "x", "y")).toBe("y");
    expect(merge("str()", "x", { k: 1 })).toEqual({ k: 1 });
    expect(merge("str()", "x", null)).toBeNull();
  });
  it("concatenates old + new with append", () => {
    expect(merge("str(append)", "ab", "cd")).toBe("abcd");
  });
  it("accepts cloud-init's common recurse options, which change nothing for strings", () => {
    expect(merge("str(recurse_str,recurse_list)", "x", "y")).toBe("y");
  });
  it("fails with MERGE_TYPE when appending a non-string", () => {
    let caught: unknown;
    try {
      merge("str(append)", "ab", 5);
    } catch (error) {
      caught = error;
    }
    expect(isMergeError(caught) && caught.code).toBe("MERGE_TYPE");
  });
});

describe("engine rules seen through the cloud-init mergers", () => {
  it("keeps old numbers, booleans and nulls: no merger handles them", () => {
    expect(merge("list()+dict()+str()", 5, "x")).toBe(5);
    expect(merge("list()+dict()+str()", true, [1])).toBe(true);
    expect(merge("list()+dict()+str()", null, { a: 1 })).toBeNull();
  });
  it("uses the first merger that covers a type", () => {
    expect(merge("list(append)+list(prepend)", [1], [2])).toEqual([1, 2]);
  });
  it("accepts m_list as list", () => {
    expect(merge("m_list(append)", [1], [2])).toEqual([1, 2]);
  });
  // The literal specs below are compile-time errors too (typed specs); the tests check what a spec read from a
  // file meets at run time.
  it("reports unknown options in strict mode and ignores them in lenient mode", () => {
    // @ts-expect-error: "apend" is not an option of list
    expect(() => registry.resolve("list(apend)")).toThrow(
      expect.objectContaining({ code: "UNKNOWN_OPTION" }),
    );
    // @ts-expect-error: "apend" is not an option of list
    expect(registry.resolve("list(apend)", { lenient: true }).merge([1], [2])).toEqual([2]);
  });
  it("rejects an unknown merger name and a malformed segment", () => {
    // @ts-expect-error: there is no merger "lists"
    expect(() => registry.resolve("lists()")).toThrow(expect.objectContaining({ code: "UNKNOWN_MERGER" }));
    // @ts-expect-error: the parenthesis is not closed
    expect(() => registry.resolve("list(append")).toThrow(expect.objectContaining({ code: "SPEC_SYNTAX" }));
  });
});
