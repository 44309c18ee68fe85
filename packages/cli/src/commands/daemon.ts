import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { MergeError } from "@merge/core";
import { buildIdentity, daemonDirectory, daemonSocket } from "../daemon/location.js";
import { OTHERS_ANY, ownDirectory } from "../own-directory.js";
import { serve } from "../daemon/server.js";
import { type DaemonStatus, FrameReader, frame, TO_COMMAND, TO_DAEMON } from "../daemon/wire.js";
import type { CliIO } from "../io.js";
import { installedFiles } from "../run.js";
import { didYouMean } from "../suggest.js";
import { UsageError } from "../usage.js";
import type { CommandInput } from "./table.js";

/** Default of `--idle-timeout`: a working day's pause (lunch) does not stop it, a night does. */
export const DEFAULT_IDLE_SECONDS = 2 * 60 * 60;
/** How long `start` waits for the new daemon to answer. */
const START_MS = 10_000;

const ACTIONS = ["start", "stop", "status", "serve"] as const;
type Action = (typeof ACTIONS)[number];

/**
 * `merge daemon start|stop|status`: a warm process of the user's own that runs their merge commands (see
 * docs/cli.md, "merge daemon"). `serve` is what `start` runs in the background.
 */
export async function execute({ positionals, values, io }: CommandInput): Promise<number> {
  const action = positionals[0]!;
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(
      `unknown action "${action}": start, stop or status${didYouMean(action, ["start", "stop", "status"])}`,
      "daemon",
    );
  }
  const idleSeconds = idleTimeout(values["idle-timeout"]);
  const directory = checkedDirectory(io, action === "start" || action === "serve");
  const socket = daemonSocket(directory);
  switch (action as Action) {
    case "status": {
      const status = await ask(socket, "status");
      if (values.format === "json") {
        await io.writeOut(`${JSON.stringify(status ?? { running: false })}\n`);
      } else {
        await io.writeOut(status === undefined ? "merge daemon: not running\n" : describe(status));
      }
      return status === undefined ? 1 : 0;
    }
    case "stop": {
      const status = await ask(socket, "stop");
      await io.writeOut(
        status === undefined
          ? "merge daemon: not running\n"
          : `merge daemon: stopped (pid ${status.pid}, ${status.served} commands served)\n`,
      );
      return 0;
    }
    case "start": {
      const running = await ask(socket, "status");
      if (running !== undefined) {
        await io.writeOut(`merge daemon: already running\n${describe(running)}`);
        return 0;
      }
      const status = await start(io, idleSeconds, socket);
      await io.writeOut(`merge daemon: started\n${describe(status)}`);
      return 0;
    }
    case "serve": {
      const server = await listen(socket);
      const { bundle } = installedFiles();
      const build = buildIdentity(bundle);
      const currentBuild = () => {
        try {
          return buildIdentity(bundle);
        } catch {
          return undefined;
        }
      };
      const startSuccessor = (env: NodeJS.ProcessEnv) => void spawnDaemon(env, idleSeconds).unref();
      serve(server, { socket, build, currentBuild, idleSeconds, startSuccessor });
      // Never returns: the daemon ends with process.exit (stopped, idle, or its socket taken away).
      return new Promise<number>(() => undefined);
    }
  }
}

function idleTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_IDLE_SECONDS;
  const text = String(value);
  const match = /^(\d+)(s|m|h)?$/.exec(text);
  const seconds = match === null ? Number.NaN : Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] ?? "s"]!;
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 366 * 24 * 3600) {
    throw new UsageError(
      `--idle-timeout takes a duration such as 90s, 30m or 8h (at least 1s), not "${text}"`,
      "daemon",
    );
  }
  return seconds;
}

/** The daemon's directory, made (mode 0700) when `create`; refused when it is not the user's own. */
function checkedDirectory(io: CliIO, create: boolean): string {
  if (typeof process.getuid !== "function") {
    throw new MergeError("DAEMON_DIRECTORY", "merge daemon needs a system with Unix users and sockets", {});
  }
  const uid = process.getuid();
  const directory = daemonDirectory(io.env, uid);
  if (create) {
    try {
      mkdirSync(directory, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new MergeError(
          "DAEMON_DIRECTORY",
          `cannot make the daemon's directory ${directory}: ${(error as Error).message}`,
          { source: { file: directory } },
        );
      }
    }
  }
  if ((create || existsSync(directory)) && !ownDirectory(directory, OTHERS_ANY)) {
    throw new MergeError(
      "DAEMON_DIRECTORY",
      `the daemon's directory ${directory} is not yours alone (it must be a directory of your own that no one else ` +
        "may enter); remove it or set XDG_RUNTIME_DIR",
      { source: { file: directory } },
    );
  }
  return directory;
}

/** Asks the daemon at `socket` for its status (or to stop); undefined when none answers. */
function ask(socket: string, type: "status" | "stop"): Promise<DaemonStatus | undefined> {
  return new Promise((resolve) => {
    const connection = connect(socket);
    const reader = new FrameReader();
    let answer: DaemonStatus | undefined;
    connection.on("error", () => resolve(undefined));
    connection.on("data", (chunk: Buffer) => {
      try {
        for (const { kind, body } of reader.push(chunk))
          if (kind === TO_COMMAND.status) answer = JSON.parse(body.toString("utf8")) as DaemonStatus;
      } catch {
        connection.destroy();
      }
    });
    // `stop`: the answer comes first, the connection closes as the daemon exits.
    connection.on("close", () => resolve(answer));
    connection.write(frame(TO_DAEMON.request, JSON.stringify({ type })));
  });
}

/** Binds the socket, taking over one a stopped daemon left behind. */
async function listen(socket: string): Promise<Server> {
  const bind = () =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen({ path: socket, readableAll: false, writableAll: false }, () => {
        server.off("error", reject);
        // Whatever the umask: only the user may connect (the directory already keeps everyone else out).
        chmodSync(socket, 0o600);
        resolve(server);
      });
    });
  try {
    return await bind();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw startError(socket, error);
    if ((await ask(socket, "status")) !== undefined) {
      throw new MergeError("DAEMON_START", `a daemon already listens on ${socket}`, {
        source: { file: socket },
      });
    }
    rmSync(socket, { force: true });
    try {
      return await bind();
    } catch (again) {
      throw startError(socket, again);
    }
  }
}

function startError(socket: string, error: unknown): MergeError {
  return new MergeError("DAEMON_START", `cannot listen on ${socket}: ${(error as Error).message}`, {
    source: { file: socket },
  });
}

/** `merge daemon serve` as a process of its own; `stderr` "pipe" to hear why it failed to start. */
function spawnDaemon(env: NodeJS.ProcessEnv, idleSeconds: number, stderr: "pipe" | "ignore" = "ignore") {
  const { bin } = installedFiles();
  return spawn(process.execPath, [bin, "daemon", "serve", "--idle-timeout", `${idleSeconds}s`], {
    // Its own session, away from the terminal's signals; in / so that it keeps no directory busy.
    detached: true,
    cwd: "/",
    env,
    stdio: ["ignore", "ignore", stderr],
  });
}

/** Starts `merge daemon serve` in the background and waits until it answers. */
async function start(io: CliIO, idleSeconds: number, socket: string): Promise<DaemonStatus> {
  const child = spawnDaemon({ ...io.env }, idleSeconds, "pipe");
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  let exited: number | null | undefined;
  child.on("exit", (code) => {
    exited = code;
  });
  const deadline = Date.now() + START_MS;
  for (;;) {
    const status = await ask(socket, "status");
    if (status !== undefined && status.pid === child.pid) {
      child.stderr?.destroy();
      child.unref();
      return status;
    }
    if (exited !== undefined || Date.now() > deadline) {
      if (exited === undefined) child.kill();
      const why =
        stderr
          .trim()
          .split("\n")
          .pop()
          ?.replace(/^error: /, "") ?? "";
      throw new MergeError(
        "DAEMON_START",
        `the daemon did not start${why === "" ? "" : `: ${why}`}`.replace(/ \[[A-Z_]+\]$/, ""),
        { source: { file: socket } },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function describe(status: DaemonStatus): string {
  return (
    `pid:          ${status.pid}\n` +
    `socket:       ${status.socket}\n` +
    `since:        ${status.started}\n` +
    `served:       ${status.served} command${status.served === 1 ? "" : "s"}${status.busy ? " (running one now)" : status.warming ? " (warming up)" : ""}\n` +
    `idle timeout: ${status.idleSeconds}s\n` +
    `build:        ${status.build}\n`
  );
}
