import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The integration tests talk to a real server on a shared, sometimes busy machine: give them room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
