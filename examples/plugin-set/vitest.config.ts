import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The conformance test runs thousands of generated merges: sized by work, not by a clock.
    testTimeout: 600_000,
  },
});
