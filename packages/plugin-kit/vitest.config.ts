import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The runner test imports the kit by its package name, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
    // Each test runs hundreds of generated merges: sized by work, with a timeout no slow machine reaches.
    testTimeout: 600_000,
  },
});
