import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Builds the CLI before the tests, as `pnpm build` does, so `dist/bin.cjs` (the bundle) and the unbundled modules
 * next to it are the code under test, whatever ran before.
 */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const require = createRequire(join(root, "package.json"));
  const tsc = require.resolve("typescript/bin/tsc");
  const rolldown = join(dirname(require.resolve("rolldown/package.json")), "bin", "cli.mjs");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, [rolldown, "-c", "rolldown.config.ts", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
}
