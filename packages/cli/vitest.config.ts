import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The binary tests run dist/bin.js as a user would, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
    // Generous: tests assert behaviour, and several spawn the CLI a few times on a machine other jobs share.
    testTimeout: 300_000,
  },
});
