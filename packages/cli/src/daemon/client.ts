// The command's side of `merge daemon`, built on its own as dist/daemon-client.cjs: bin/merge.cjs loads it first,
// and when the user's daemon runs, the command is sent there instead of loading the bundle. It must stay small and
// load nothing but Node built-ins: it is on the start-up path of every command.
import { fstatSync, statSync, writeSync } from "node:fs";
import type { Socket } from "node:net";
import { constants } from "node:os";
import { buildIdentity, daemonDirectory, daemonSocket } from "./location.js";
import { OTHERS_ANY, ownDirectory } from "../own-directory.js";
import { type DaemonRequest, FrameReader, frame, TO_COMMAND, TO_DAEMON } from "./wire.js";

/** How long a command waits for a daemon to take it or decline before it runs itself (a daemon busy computing). */
const ANSWER_MS = 2000;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * The socket of the user's daemon when one may be listening: the directory is the user's own and the socket is
 * there. A cheap check (two stats): without a daemon, a command pays nothing more.
 */
export function daemonSocketIfAny(env: NodeJS.ProcessEnv): string | undefined {
  if (typeof process.getuid !== "function") return undefined;
  const uid = process.getuid();
  const directory = daemonDirectory(env, uid);
  const socket = daemonSocket(directory);
  const stat = statSync(socket, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isSocket() || !ownDirectory(directory, OTHERS_ANY)) return undefined;
  return socket;
}

/**
 * Sends the command line to the daemon at `socket` and plays its output. Resolves when the daemon is not there or
 * declines: the caller then runs the command itself, as without a daemon. Once the daemon has taken the command, the
 * process ends with the command's status (and the promise never settles).
 */
export function runThroughDaemon(socket: string, argv: readonly string[], bundle: string): Promise<void> {
  // Loaded here, not at the top: Node's bootstrap has fs, os and path already, while net and tty cost a command
  // without a daemon about 3 ms. This file is only ever run as the CommonJS bundle, which has `require`.
  const { connect } = require("node:net") as typeof import("node:net");
  const { isatty } = require("node:tty") as typeof import("node:tty");
  let request: DaemonRequest;
  try {
    request = {
      type: "run",
      build: buildIdentity(bundle),
      argv,
      cwd: process.cwd(),
      env: stringEnv(process.env),
      // umask() without an argument reads it (the documentation-only deprecation is about the race of doing so).
      umask: process.umask(),
      uid: (process.getuid as () => number)(),
      gid: (process.getgid as () => number)(),
      groups: (process.getgroups as () => number[])(),
      execArgv: process.execArgv,
      stdoutIsTTY: isatty(1),
      stderrIsTTY: isatty(2),
    };
  } catch {
    // No working directory (removed under the shell), say: the command reports that better itself.
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const connection = connect(socket);
    const reader = new FrameReader();
    // The daemon said it will run the command and was told to go: it owns the command to its end.
    let going = false;
    const runHere = () => {
      connection.destroy();
      clearTimeout(answerTimer);
      resolve();
    };
    const answerTimer = setTimeout(() => {
      if (!going) runHere();
    }, ANSWER_MS);
    let signalled = false;
    const onSignal = (signal: (typeof SIGNALS)[number]) => {
      // A second signal, or one while the daemon is gone: stop now, as the command itself would.
      if (signalled || connection.destroyed) process.exit(128 + constants.signals[signal]);
      signalled = true;
      connection.write(frame(TO_DAEMON.signal, signal));
    };
    connection.on("error", () => {
      if (!going) runHere();
    });
    connection.on("data", (chunk: Buffer) => {
      let frames: ReturnType<FrameReader["push"]>;
      try {
        frames = reader.push(chunk);
      } catch {
        if (!going) return runHere();
        return lost();
      }
      for (const { kind, body } of frames) {
        switch (kind) {
          case TO_COMMAND.accepted:
            going = true;
            for (const signal of SIGNALS) process.on(signal, onSignal);
            connection.write(frame(TO_DAEMON.go, ""));
            break;
          case TO_COMMAND.declined:
            if (!going) return runHere();
            break;
          case TO_COMMAND.stdout:
            writeAll(1, body, true);
            break;
          case TO_COMMAND.stderr:
            writeAll(2, body, false);
            break;
          case TO_COMMAND.needStdin:
            void sendStdin(connection);
            break;
          case TO_COMMAND.exit:
            // Output was written synchronously; what may still run here is a read of standard input the command
            // no longer needs (stopped by a signal while waiting for it), which must not keep the process.
            process.exit((JSON.parse(body.toString("utf8")) as { status: number }).status);
        }
      }
    });
    connection.on("close", () => {
      if (!going) return runHere();
      lost();
    });
    const lost = () => {
      writeAll(2, Buffer.from("merge: the daemon ended before the command did [DAEMON_LOST]\n"), false);
      process.exit(1);
    };
    connection.write(frame(TO_DAEMON.request, JSON.stringify(request)));
  });
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) copy[key] = value;
  return copy;
}

/**
 * Writes all of `bytes` to standard output (1) or error (2), synchronously and in order. A reader of standard output
 * that went away (`merge … | head`) ends the command quietly with status 0, as it does without a daemon (the daemon
 * sees the connection close). Standard error that cannot be written to is ignored.
 */
function writeAll(fd: 1 | 2, bytes: Buffer, stopOnPipeError: boolean): void {
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A descriptor left non-blocking by whoever made it: wait a moment for the reader.
      if (code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        continue;
      }
      if (stopOnPipeError) process.exit(0);
      return;
    }
  }
}

async function sendStdin(connection: Socket): Promise<void> {
  try {
    // As the command does itself: a directory given as standard input is refused, not read as empty.
    if (fstatSync(0).isDirectory()) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    connection.write(frame(TO_DAEMON.stdin, Buffer.concat(chunks)));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    connection.write(frame(TO_DAEMON.stdinError, JSON.stringify({ code, message })));
  }
}
