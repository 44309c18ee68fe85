import { EXIT_INTERRUPTED, EXIT_OK } from "./cli-error.js";
import { removePendingTempFiles } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { run } from "./run.js";

/** The process side of the CLI: real streams, EPIPE, SIGINT and the exit status. Only the bin calls it. */
export async function main(argv: readonly string[]): Promise<void> {
  // A reader that goes away (`merge ... | head`) is not an error worth a stack trace: stop quietly.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") {
      removePendingTempFiles();
      process.exit(EXIT_OK);
    }
    throw error;
  });
  // Ctrl-C: output is written once, at the end, so before that there is nothing to take back: drop temp files and
  // go. If the one write has already started, let it finish (a whole document, never a part) and then go.
  let writing = 0;
  let interrupted = false;
  process.on("SIGINT", () => {
    removePendingTempFiles();
    if (writing > 0) interrupted = true;
    else process.exit(EXIT_INTERRUPTED);
  });
  const io: CliIO = {
    cwd: process.cwd(),
    env: process.env,
    readStdin,
    writeOut: (text) =>
      new Promise((resolve) => {
        if (text === "") return resolve();
        writing++;
        process.stdout.write(text, () => {
          writing--;
          if (interrupted && writing === 0) process.exit(EXIT_INTERRUPTED);
          resolve();
        });
      }),
    writeErr: (text) => {
      process.stderr.write(text);
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
  };
  process.exitCode = await run(argv, io);
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
