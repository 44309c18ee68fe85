import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  test: {
    // The binary tests run dist/bin.cjs as a user would, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
    // What those runs cache (compiled templates and parsed YAML, src/build-cache.ts) goes to a cache home of this
    // run's own, not to the user's; tests of the caches themselves give each run a home of its own.
    env: { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "merge-cli-tests-cache-")) },
  },
});
