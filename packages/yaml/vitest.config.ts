import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The tests run the sources: #yaml-library (package.json "imports") is the Node one, from source.
  resolve: { alias: { "#yaml-library": fileURLToPath(new URL("./src/yaml-library.ts", import.meta.url)) } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Tests assert behaviour, not speed: the fixture and oracle suites replay thousands of documents and must pass
    // on a busy 2-core machine too, so no test is cut short by vitest's 5 s default.
    testTimeout: 300_000,
  },
});
