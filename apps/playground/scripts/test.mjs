// `pnpm test` for the playground: the Playwright suite drives a real Chromium for minutes, so it belongs to the
// stress tier (vitest.shared.ts at the root): `pnpm test:stress` and `pnpm test:all` run it, plain `pnpm test` says
// so and passes. `pnpm --filter playground test:browser` runs it directly.
import { spawnSync } from "node:child_process";

const tier = process.env.MERGE_TEST_TIER ?? "fast";
if (tier !== "fast" && tier !== "stress" && tier !== "all") {
  console.error(`playground: MERGE_TEST_TIER must be fast, stress or all, not ${JSON.stringify(tier)}`);
  process.exit(2);
}
if (tier === "fast") {
  console.log("playground: the browser tests are in the stress tier (pnpm test:stress, pnpm test:all)");
  process.exit(0);
}
const run = spawnSync("pnpm", ["exec", "playwright", "test", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
