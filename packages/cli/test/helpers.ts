import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The built CLI; `MERGE_CLI_BIN` runs the binary suites against another build (an older release, say). */
export const BIN = process.env.MERGE_CLI_BIN ?? join(PACKAGE_DIR, "dist", "bin.js");
export const FIXTURES = join(PACKAGE_DIR, "test", "fixtures");
export const REPO = join(PACKAGE_DIR, "..", "..");

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `merge` binary the way a user's shell would. */
export function merge(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: Record<string, string | undefined> } = {},
): CliRun {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
  };
  Object.assign(env, options.env);
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? FIXTURES,
    input: options.input ?? "",
    encoding: "utf8",
    env: env as NodeJS.ProcessEnv,
    // Only against a hang, as long as the suite's own hang limit (vitest.shared.ts): a run on a 2-core machine
    // under load has taken over 20 s, and no behaviour here depends on how long it takes.
    timeout: 30 * 60_000,
    // spawnSync's default (1 MiB) would SIGTERM a command printing more, mid-write or just after.
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
