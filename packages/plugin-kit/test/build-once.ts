import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Compiles the kit before the tests so the runner test imports `dist/` built from these sources. */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
