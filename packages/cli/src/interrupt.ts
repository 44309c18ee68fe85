import { constants, openSync, rmSync } from "node:fs";

/**
 * What a signal (SIGINT, SIGTERM, SIGHUP) must undo or wait for while `-o` writes. One guard per run: the process
 * side (`main`) makes it and installs the signal handlers; `run` called in-process gets a private one that no
 * signal reaches.
 *
 * - Temporary files: removed when the process is stopped before they are renamed over the target.
 * - FIFOs being opened: `open()` of a FIFO for writing waits for a reader in a worker thread, and Node cannot exit
 *   while that thread waits; opening the FIFO's read end (non-blocking) lets the `open()` return so the process can.
 * - The commit point: from the moment the rename that replaces the target is due, a signal no longer stops the
 *   process; the command completes and its own status (0 once the target is replaced) says what happened.
 */
export interface OutputGuard {
  /** Remembers a temporary file to remove if the process is stopped before the file is renamed. */
  addTemp(path: string): void;
  /** Forgets a temporary file (renamed over the target, or removed). */
  deleteTemp(path: string): void;
  /** Remembers a FIFO whose `open()` for writing may be waiting for a reader. */
  addOpening(path: string): void;
  deleteOpening(path: string): void;
  /** The target is about to be replaced: signals from now on are left to the end of the command. */
  commit(): void;
  /**
   * The replaced file is in place and the command goes on to another (`--minions -o DIR` writes one per host):
   * signals stop it again. A signal that came while the file was being replaced stops it now (its `onRelease`).
   */
  release(): void;
  /**
   * A signal arrived. Before the commit point: removes the temporary files, releases waiting FIFO opens and returns
   * true (the caller exits). After it: returns false (the caller lets the command finish), keeping `onRelease` for
   * `release()`.
   */
  interrupt(onRelease?: () => void): boolean;
  /**
   * Test hook. When `point` is one of the points the guard was made with (`MERGE_TEST_PAUSE`, comma-separated),
   * announces `merge-test: paused at <point>` on standard error and waits until `resume()` (SIGUSR2 in `main`) or
   * a signal that does not end the process; otherwise returns at once. Points:
   * - `start`: the signal handlers are installed, the command has not started;
   * - `temp-written`: the temporary file is complete, the target not yet looked at again nor replaced;
   * - `replacing`: past the commit point, just before the rename;
   * - `before-open`: a FIFO or device is about to be opened; `opening`: its open() is under way (for a FIFO without
   *   a reader, waiting for one); `opened`: it is open, nothing written yet.
   */
  pause(point: string): Promise<void>;
  /** Ends every pause. */
  resume(): void;
}

export interface OutputGuardOptions {
  /** Comma-separated pause points (see `OutputGuard.pause`); none by default. */
  readonly pauseAt?: string | undefined;
  /** Where the pause announcement goes (standard error). */
  readonly announce?: (text: string) => void;
}

export function createOutputGuard(options: OutputGuardOptions = {}): OutputGuard {
  const temps = new Set<string>();
  const opening = new Set<string>();
  const points = new Set((options.pauseAt ?? "").split(",").filter((point) => point !== ""));
  const waiting: (() => void)[] = [];
  let committed = false;
  let deferred: (() => void) | undefined;

  const resume = () => {
    for (const wake of waiting.splice(0)) wake();
  };

  return {
    addTemp: (path) => void temps.add(path),
    deleteTemp: (path) => void temps.delete(path),
    addOpening: (path) => void opening.add(path),
    deleteOpening: (path) => void opening.delete(path),
    commit: () => {
      committed = true;
    },
    release: () => {
      committed = false;
      const stop = deferred;
      deferred = undefined;
      stop?.();
    },
    interrupt: (onRelease) => {
      if (committed) {
        deferred ??= onRelease;
        resume();
        return false;
      }
      for (const file of temps) {
        try {
          rmSync(file, { force: true });
        } catch {
          // Best effort while exiting: nothing is left to report it to.
        }
      }
      temps.clear();
      for (const fifo of opening) {
        try {
          // Never closed: the descriptor must outlive the writer's open(), and the process is about to exit.
          openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
        } catch {
          // Gone or replaced: then nothing waits on it either.
        }
      }
      opening.clear();
      // A paused writer stays paused: the caller exits now.
      return true;
    },
    resume,
    pause: (point) => {
      if (!points.has(point)) return Promise.resolve();
      options.announce?.(`merge-test: paused at ${point}\n`);
      return new Promise((resolve) => {
        // An empty event loop would end the process: a timer keeps it alive until a signal arrives.
        const alive = setInterval(() => undefined, 1 << 30);
        waiting.push(() => {
          clearInterval(alive);
          resolve();
        });
      });
    },
  };
}
