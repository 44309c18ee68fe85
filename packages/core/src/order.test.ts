import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./order.js";

describe("compareCodePoints", () => {
  it("sorts as Python sorts str: by code point, not by UTF-16 unit", () => {
    expect(["😀", "\uff5e", "a", "_", "Z", "10", "9", "B"].sort(compareCodePoints)).toEqual([
      "10",
      "9",
      "B",
      "Z",
      "_",
      "a",
      "\uff5e",
      "😀",
    ]);
    // JavaScript's own order puts the emoji (a surrogate pair) before U+FF5E.
    expect(["\uff5e", "😀"].sort()).toEqual(["😀", "\uff5e"]);
  });

  it("orders prefixes first and equal strings as equal", () => {
    expect(compareCodePoints("ab", "abc")).toBeLessThan(0);
    expect(compareCodePoints("abc", "ab")).toBeGreaterThan(0);
    expect(compareCodePoints("😀x", "😀x")).toBe(0);
    expect(compareCodePoints("\u{1F600}", "\u{1F601}")).toBeLessThan(0);
  });
});
