// The test settings every package's vitest.config.ts starts from.
//
// Tests assert behaviour, never speed. A test that does a lot of work (an oracle replay, a 10^6-element hardening
// case, a spawned CLI) takes whatever the machine gives it: on a 2-core machine with another CPU-heavy job beside
// the suite that can be many times the idle figure. So no test or hook is cut short by a clock that a busy machine
// can reach; the limits below only stop a run that hangs for good. Individual tests carry no timeouts of their own.
import { defineConfig, mergeConfig, type UserConfig } from "vitest/config";

/** Half an hour: far beyond any test's work on a loaded machine, short enough that a hung run still ends. */
const HANG_LIMIT_MS = 30 * 60_000;

export const sharedTestConfig = defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: HANG_LIMIT_MS,
    hookTimeout: HANG_LIMIT_MS,
    teardownTimeout: HANG_LIMIT_MS,
  },
});

/**
 * A package's vitest config: the shared settings, then the package's own. An `include` of its own replaces the
 * shared one (mergeConfig would append to it).
 */
export function packageTestConfig(own: UserConfig = {}): UserConfig {
  const merged = mergeConfig(sharedTestConfig, own);
  if (own.test?.include) merged.test = { ...merged.test, include: own.test.include };
  return merged;
}
