import { fstatSync } from "node:fs";
import { EXIT_DATA, EXIT_OK, exitStatusForSignal, type HandledSignal } from "./cli-error.js";
import { createOutputGuard } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { run } from "./run.js";
import { standardStream, writeAllSync } from "./stdio.js";
import { openBuildCache } from "./build-cache.js";

const SIGNALS: readonly HandledSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * The process side of the CLI: real streams, EPIPE, signals and the exit status. Only the bin calls it.
 *
 * Signals: output is produced whole and written once, at the end. SIGINT, SIGTERM or SIGHUP before `-o`'s target is
 * replaced removes the temporary file and exits 128 + the signal's number (130, 143, 129), the target untouched;
 * once the rename is due, the command completes and exits 0 with the target replaced. A write to standard output
 * that has started is let finish first (a whole document, never a part).
 */
export async function main(argv: readonly string[]): Promise<void> {
  // Standard error that cannot be written to (closed, a full disk) leaves nowhere to report anything; the exit
  // status still tells.
  const stderr = standardStream(2, () => undefined);
  const guard = createOutputGuard({
    pauseAt: process.env.MERGE_TEST_PAUSE,
    announce: (text) => stderr.stream().write(text),
  });
  // Nothing may reach the user as a raw stack trace, whatever went wrong and wherever.
  let crashed = false;
  const crash = (error: unknown) => {
    // The first failure is the one to report; the process is already on its way out.
    if (crashed) return;
    crashed = true;
    guard.interrupt();
    import("./report.js")
      .then(({ failureReport }) => {
        stderr.stream().write(failureReport(error, process.env, stderr.isTTY()));
      })
      .finally(() => process.exit(EXIT_DATA));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  // A reader that goes away (`merge ... | head`) is not an error worth a message: stop quietly. Other failures are
  // reported by the write that met them (see writeOut).
  const quietExit = () => {
    guard.interrupt();
    process.exit(EXIT_OK);
  };
  const stdout = standardStream(1, (error) => {
    if (error.code === "EPIPE") quietExit();
  });

  let writing = 0;
  let exitAfterWrite: number | undefined;
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      const status = exitStatusForSignal(signal);
      const stop = () => {
        if (writing > 0) exitAfterWrite = status;
        else process.exit(status);
      };
      // Past the commit point the target is being replaced: the command finishes and reports that (a batch stops
      // once that file is in place, see OutputGuard.release).
      if (guard.interrupt(stop)) stop();
    });
  }
  // The test hook's "go on" (see OutputGuard.pause); without MERGE_TEST_PAUSE, SIGUSR2 keeps its default meaning.
  if (process.env.MERGE_TEST_PAUSE) process.on("SIGUSR2", () => guard.resume());
  await guard.pause("start");

  const io: CliIO = {
    cwd: process.cwd(),
    env: process.env,
    compiledTemplates: openBuildCache(process.env, "templates"),
    parsedDocuments: openBuildCache(process.env, "documents"),
    readStdin,
    writeOut: (text) =>
      new Promise((resolve, reject) => {
        if (text === "") return resolve();
        if (stdout.plain) {
          try {
            writeAllSync(1, text);
            return resolve();
          } catch (error) {
            return reportWriteError(error);
          }
        }
        writing++;
        stdout.stream().write(text, (error) => {
          writing--;
          if (exitAfterWrite !== undefined && writing === 0) process.exit(exitAfterWrite);
          if (error === null || error === undefined) return resolve();
          if ((error as NodeJS.ErrnoException).code === "EPIPE") return quietExit();
          reportWriteError(error);
        });
        function reportWriteError(error: unknown): void {
          import("./output-target.js").then(
            ({ outputError }) => reject(outputError("standard output", error as Error)),
            reject,
          );
        }
      }),
    writeErr: (text) => {
      if (!stderr.plain) {
        stderr.stream().write(text);
        return;
      }
      try {
        writeAllSync(2, text);
      } catch {
        // As above: nowhere left to report it.
      }
    },
    stdoutIsTTY: stdout.isTTY(),
    stderrIsTTY: stderr.isTTY(),
    outputGuard: guard,
  };
  const status = await run(argv, io);
  process.exitCode = status;
  // V8 compiles the functions a run made hot on background threads, and when the event loop empties Node waits for
  // every such job before it exits: about 10 ms of a one-host `merge stack`, for code that would never run. Once the
  // output is out there is nothing left to wait for, so the command ends here. It does so from the next turn of the
  // event loop, after Node has reported the promises left rejected (a plugin's, say: `crash` then ends the process
  // with its report). Output still queued (standard output or error on a pipe of a system where pipes are
  // asynchronous) is let drain the ordinary way instead.
  setImmediate(() => {
    if (crashed || writing > 0) return;
    if (stdout.queued() === 0 && stderr.queued() === 0) process.exit(status);
  });
}

async function readStdin(): Promise<Uint8Array> {
  // Node reads a directory given as standard input (`merge docs - < /etc`) as empty; a shell's `cat` refuses it.
  // (A BigInt stat: see stdio.ts; standard input is often a pipe, and modules may still be imported after it is read.)
  if (fstatSync(0, { bigint: true }).isDirectory()) {
    throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
