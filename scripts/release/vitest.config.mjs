import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["*.test.mjs"],
    // Some tests run git, changesets and small scripts as child processes: no tight limit on a busy machine.
    testTimeout: 120_000,
  },
});
