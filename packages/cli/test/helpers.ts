import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInProcess } from "./in-process.js";

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The built CLI; `MERGE_CLI_BIN` runs the binary suites against another build (an older release, say). */
export const BIN = process.env.MERGE_CLI_BIN ?? join(PACKAGE_DIR, "dist", "bin.cjs");
export const FIXTURES = join(PACKAGE_DIR, "test", "fixtures");
export const REPO = join(PACKAGE_DIR, "..", "..");
/** `merge stack` for the host of examples/stack (run in that directory). */
export const STACK_EXAMPLE_ARGS: readonly string[] = [
  "stack",
  "config.cfg",
  "--minion-id",
  "test-1-dev",
  "--grains",
  "grains.yml",
  "--pillar",
  "pillar.yml",
];

/**
 * `merge docs` of the two strings fixtures with the `upper()` merger of a plugin module (test/fixtures/plugins/),
 * run in FIXTURES; with factory.mjs it prints "service:\n  name: WORKER\n".
 */
export function upperPluginArgs(module = "./plugins/factory.mjs"): string[] {
  return [
    "docs",
    "--plugin",
    module,
    "--spec",
    "dict(recurse_str)+upper()",
    "docs/strings-a.yml",
    "docs/strings-b.yml",
  ];
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Whether `merge()` starts the built binary for every call. `pnpm test:all` (what CI runs) sets
 * `MERGE_CLI_TESTS=binary`, and so does pointing `MERGE_CLI_BIN` at another build; plain `pnpm test` runs the same
 * cases through `run()` in a worker thread (test/in-process.ts), which costs no process start per case.
 */
export const SPAWNS_BINARY =
  process.env.MERGE_CLI_TESTS === "binary" || process.env.MERGE_CLI_BIN !== undefined;

export interface MergeOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string | undefined>;
  /**
   * Always start the binary: for what only a process has (its exit on a crash, signals, a terminal, standard
   * streams that are files or devices).
   */
  binary?: boolean;
}

/**
 * Runs `merge` the way a user's shell would: the built binary (see SPAWNS_BINARY), or the same code in process
 * with the same working directory, environment, standard input, output and exit status.
 */
export function merge(args: readonly string[], options: MergeOptions = {}): CliRun {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
  };
  Object.assign(env, options.env);
  if (!SPAWNS_BINARY && options.binary !== true)
    return runInProcess(args, options.cwd ?? FIXTURES, options.input ?? "", env);
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

/** A loopback TCP port nothing listens on (bound, then released): a MySQL server that refuses connections. */
export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
