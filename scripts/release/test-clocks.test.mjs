// The lint step that keeps clocks out of tests (scripts/check-test-clocks.mjs), tested here with the other
// repository scripts.
import { describe, expect, it } from "vitest";
import { clocksIn, usesSharedConfig } from "../check-test-clocks.mjs";

describe("clocksIn", () => {
  it("finds a timeout argument, a timeout option and a config setting, with their lines", () => {
    const text = [
      'it("replays", () => {',
      "  run();",
      "}, 120_000);",
      'it("x", { timeout: 5000 }, () => {});',
      "vi.setConfig({ testTimeout: 1 });",
      'test("y", () => {}, 5000);',
    ].join("\n");
    expect(clocksIn(text)).toEqual([
      "3: a timeout argument",
      "4: a { timeout } option",
      "5: a testTimeout/hookTimeout setting",
      "6: a timeout argument",
    ]);
  });

  it("leaves data that merely mentions a timeout alone", () => {
    const text = 'const defaults = { timeout: "30s", retries: [1] };\nexpect(f({ a: 1 }, 2)).toBe(3);\n';
    expect(clocksIn(text)).toEqual([]);
  });
});

describe("usesSharedConfig", () => {
  it("accepts a config built on vitest.shared.ts and refuses one that is not", () => {
    expect(usesSharedConfig('import { packageTestConfig } from "../../vitest.shared.ts";\n')).toBe(true);
    expect(
      usesSharedConfig('import { defineConfig } from "vitest/config";\nexport default defineConfig({});\n'),
    ).toBe(false);
  });
});
