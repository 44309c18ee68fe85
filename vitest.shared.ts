// The test settings every package's vitest.config.ts starts from.
//
// Tests assert behaviour, never speed. A test that does a lot of work (an oracle replay, a 10^6-element hardening
// case, a spawned CLI) takes whatever the machine gives it: on a 2-core machine with another CPU-heavy job beside
// the suite that can be many times the idle figure. So no test or hook is cut short by a clock that a busy machine
// can reach; the limits below only stop a run that hangs for good. Individual tests carry no timeouts of their own.
import { configDefaults, defineConfig, mergeConfig, type UserConfig } from "vitest/config";

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
 * The stress tier: the hardening suites (hostile input at full size) and `*.stress.test.ts` files (oracles that ask a
 * real program thousands of questions). `pnpm test` leaves them out so the everyday run stays short;
 * `pnpm test:stress` runs only them and `pnpm test:all` (what CI runs) runs everything.
 */
export const STRESS_TESTS = [
  "test/hardening/**/*.test.ts",
  "src/**/*.stress.test.ts",
  "test/**/*.stress.test.ts",
];

/** Which tier `MERGE_TEST_TIER` asks for: `fast` (the default), `stress` or `all`. */
export function testTier(
  env: Readonly<Record<string, string | undefined>> = process.env,
): "fast" | "stress" | "all" {
  const tier = env.MERGE_TEST_TIER ?? "fast";
  if (tier === "fast" || tier === "stress" || tier === "all") return tier;
  throw new Error(`MERGE_TEST_TIER must be fast, stress or all, not ${JSON.stringify(tier)}`);
}

/**
 * A package's vitest config: the shared settings, then the package's own. An `include` of its own replaces the
 * shared one (mergeConfig would append to it). The tier (testTier) then narrows what runs.
 */
export function packageTestConfig(own: UserConfig = {}): UserConfig {
  const merged = mergeConfig(sharedTestConfig, own);
  if (own.test?.include) merged.test = { ...merged.test, include: own.test.include };
  const tier = testTier();
  if (tier === "fast")
    merged.test = {
      ...merged.test,
      exclude: [...(merged.test?.exclude ?? configDefaults.exclude), ...STRESS_TESTS],
    };
  // A package with no stress tests has nothing to run in that tier, which is not a failure.
  if (tier === "stress") merged.test = { ...merged.test, include: STRESS_TESTS, passWithNoTests: true };
  return merged;
}
