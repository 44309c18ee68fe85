import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The oracle replay and property tests do real work; shared CI machines can be slow.
    testTimeout: 60_000,
  },
});
