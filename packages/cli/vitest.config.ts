import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The binary tests run dist/bin.js as a user would, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
    testTimeout: 20_000,
  },
});
