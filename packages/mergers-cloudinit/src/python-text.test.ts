import { describe, expect, it } from "vitest";
import { pythonInt, pythonLstrip } from "./python-text.js";

describe("pythonLstrip", () => {
  it("strips what Python's str.lstrip strips: U+001C..U+001F and NEL too, but not a BOM", () => {
    expect(pythonLstrip(" \t\n\x1c\x1f\x85\u3000x ")).toBe("x ");
    expect(pythonLstrip("\ufeffx")).toBe("\ufeffx");
    expect(pythonLstrip("x")).toBe("x");
  });
});

describe("pythonInt", () => {
  it("reads what Python's int() reads (facts from CPython 3.11)", () => {
    expect(pythonInt("007")).toBe(7);
    expect(pythonInt("0_1")).toBe(1);
    expect(pythonInt(" 12\n")).toBe(12);
    expect(pythonInt("0\u0663")).toBe(3);
    expect(pythonInt("\ud835\udfd0")).toBe(2); // MATHEMATICAL BOLD DIGIT TWO
    expect(pythonInt("-4")).toBe(-4);
  });
  it("refuses what Python's int() refuses", () => {
    for (const text of ["", " ", "0x1", "1e0", "1.0", "0_", "_1", "0__1", "1 2", "+", "\u0bef\u0bf0"]) {
      expect(pythonInt(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
