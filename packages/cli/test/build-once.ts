import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Compiles the CLI before the tests so `dist/bin.js` is the code under test, whatever ran before. */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
