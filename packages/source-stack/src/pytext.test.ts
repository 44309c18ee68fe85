import { describe, expect, it } from "vitest";
import { isBlank, splitLines } from "./pytext.js";

describe("Python text rules", () => {
  it("splits lines on every break str.splitlines() knows, without a trailing empty line", () => {
    expect(splitLines("a\nb\r\nc\rd\ve\ff\x1cg\u2028h\n")).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
    expect(splitLines("a\n\n")).toEqual(["a", ""]);
    expect(splitLines("")).toEqual([]);
  });

  it("counts as blank what str.strip() empties", () => {
    expect(isBlank(" \t\x1f\x85\u3000")).toBe(true);
    expect(isBlank(" # comment")).toBe(false);
    expect(isBlank("\ufeff")).toBe(false);
  });
});
