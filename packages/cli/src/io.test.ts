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

  it("colours a pipe when FORCE_COLOR is set, as Node does (0 and false turn it off)", () => {
    expect(useColor(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(useColor(false, { FORCE_COLOR: "" })).toBe(true);
    expect(useColor(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(useColor(true, { FORCE_COLOR: "false" })).toBe(false);
    expect(useColor(false, { FORCE_COLOR: "3", NO_COLOR: "1" })).toBe(true);
  });

  it("lets --color and --no-color decide over the environment", () => {
    expect(useColor(false, { NO_COLOR: "1" }, true)).toBe(true);
    expect(useColor(true, { FORCE_COLOR: "1" }, false)).toBe(false);
  });
});

describe("painter", () => {
  it("adds ANSI codes only when enabled", () => {
    expect(painter(true).red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(painter(false).red("x")).toBe("x");
  });
});
