import { describe, expect, it } from "vitest";
import { painter, useColor } from "./io.js";

describe("useColor", () => {
  it("colours a terminal only", () => {
    expect(useColor(true, {})).toBe(true);
    expect(useColor(false, {})).toBe(false);
  });

  it("never colours when NO_COLOR is set to something, even on a terminal", () => {
    expect(useColor(true, { NO_COLOR: "1" })).toBe(false);
    expect(useColor(true, { NO_COLOR: "" })).toBe(true);
    expect(useColor(true, { TERM: "dumb" })).toBe(false);
  });
});

describe("painter", () => {
  it("adds ANSI codes only when enabled", () => {
    expect(painter(true).red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(painter(false).red("x")).toBe("x");
  });
});
