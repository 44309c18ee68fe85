import { type ChildProcess, spawn, type StdioOptions } from "node:child_process";
import { BIN } from "./helpers.js";

export interface Finished {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Running {
  readonly child: ChildProcess;
  /** Resolves once the CLI announces it is paused at `point` (MERGE_TEST_PAUSE); rejects if it ends first. */
  paused(point: string): Promise<void>;
  readonly finished: Promise<Finished>;
}

/**
 * Starts the built CLI as its own process. With `pause`, the CLI stops at that point of its work
 * (`merge-test: paused at POINT` on stderr) until it gets a signal, so a test sends signals at a known point, never
 * after a guessed delay: SIGUSR2 lets it go on; SIGINT, SIGTERM and SIGHUP do what they do at that point.
 */
export function startMerge(
  args: readonly string[],
  options: { cwd: string; pause?: string; stdio?: StdioOptions },
): Running {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.MERGE_TEST_PAUSE;
  // FORCE_COLOR (which test runners set) would win over NO_COLOR.
  delete env.FORCE_COLOR;
  if (options.pause !== undefined) env.MERGE_TEST_PAUSE = options.pause;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: options.stdio ?? ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const watchers = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const watch of watchers) watch();
  });
  const finished = new Promise<Finished>((resolve) =>
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr })),
  );
  return {
    child,
    finished,
    paused: (point) =>
      new Promise<void>((resolve, reject) => {
        const marker = `merge-test: paused at ${point}\n`;
        const watch = () => {
          if (!stderr.includes(marker)) return;
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
        watch();
        finished.then((end) =>
          reject(new Error(`merge ended (status ${end.status}) before pausing at ${point}: ${end.stderr}`)),
        );
      }),
  };
}

/** What the CLI printed on stderr besides the test hook's pause announcements. */
export function withoutPauses(stderr: string): string {
  return stderr.replace(/^merge-test: paused at [a-z-]+\n/gm, "");
}
