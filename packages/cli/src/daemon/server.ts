// `merge daemon serve`: one warm process that runs the user's commands. A command (dist/daemon-client.cjs) sends its
// command line, working directory, environment, umask and terminal flags; the daemon runs it with `run()` exactly as
// the command would itself, one command at a time, and sends back what it printed and its exit status. What a run
// could take from the process rather than from `CliIO` (the working directory, the environment, the umask) is set
// to the command's before the run; what the daemon cannot give a run as the command's own process would (its
// descriptors, /dev/stdin, a terminal, Node options) makes it decline, and the command runs itself.
import { rmSync, statSync } from "node:fs";
import type { Server, Socket } from "node:net";
import { openBuildCache } from "../build-cache.js";
import { EXIT_DATA, exitStatusForSignal, type HandledSignal } from "../cli-error.js";
import { createOutputGuard, type OutputGuard } from "../interrupt.js";
import type { CliIO } from "../io.js";
import { run } from "../run.js";
import {
  type DaemonRequest,
  type DaemonStatus,
  FrameReader,
  frame,
  type RunRequest,
  TO_COMMAND,
  TO_DAEMON,
} from "./wire.js";
import { warmUp } from "./warm-up.js";

export interface ServeOptions {
  readonly socket: string;
  /** This daemon's build (`buildIdentity`), and how to compute it again: a changed one means merge was reinstalled. */
  readonly build: string;
  readonly currentBuild: () => string | undefined;
  readonly idleSeconds: number;
  /** Starts another daemon in the background with the environment given (see `shutdown`). */
  readonly startSuccessor: (env: NodeJS.ProcessEnv) => void;
}

/** Output the daemon queues for a command before a run waits for the command to take it. */
const OUTPUT_QUEUED = 64 * 1024 * 1024;
/** The size of the writes output is gathered into (see `ActiveRun.send`). */
const FLUSH_BYTES = 64 * 1024;
/** How long a connection may take to send its request. */
const REQUEST_MS = 10_000;
const SIGNALS: ReadonlySet<string> = new Set<HandledSignal>(["SIGINT", "SIGTERM", "SIGHUP"]);

/** Listens on `server` (already bound to the socket) until stopped, idle too long, or its socket is taken away. */
export function serve(server: Server, options: ServeOptions): void {
  const started = new Date();
  // The daemon's own Node-level environment: a command whose differs (NODE_OPTIONS, NODE_EXTRA_CA_CERTS, …) would
  // not run as it does in a process of its own.
  const nodeEnv = nodeLevelEnv(process.env);
  // Runs replace process.env with their command's: a successor is started with the daemon's own.
  const ownEnv = { ...process.env };
  const ownUmask = process.umask();
  const ownGroups = new Set(process.getgroups?.() ?? []);
  const socketInode = statSync(options.socket).ino;
  let served = 0;
  let active: ActiveRun | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping = false;

  // Warm up on a tree of its own until the first command comes (see warm-up.ts); a command waits for the warm-up
  // run under way, never runs beside it.
  let warming = true;
  const warm = warmUp(Object.freeze({ ...ownEnv }), () => active !== undefined || stopping);
  const warmedUp = warm.done.finally(() => {
    warming = false;
  });

  const status = (): DaemonStatus => ({
    pid: process.pid,
    build: options.build,
    socket: options.socket,
    started: started.toISOString(),
    served,
    busy: active !== undefined,
    warming,
    idleSeconds: options.idleSeconds,
  });

  /**
   * Stops listening, removes the socket (if it is still this daemon's) and exits once `last` is sent. A daemon that
   * ends because a command it ran was stopped midway (the run cannot be left behind in a process that goes on)
   * first starts its successor, so the user's next command still finds one.
   */
  const shutdown = (last?: { connection: Socket; data: Buffer }, successor = false) => {
    if (stopping) return;
    stopping = true;
    warm.removeTree();
    server.close();
    try {
      if (statSync(options.socket).ino === socketInode) rmSync(options.socket);
    } catch {
      // Already gone.
    }
    if (successor) options.startSuccessor(ownEnv);
    if (last === undefined || last.connection.destroyed) process.exit(0);
    last.connection.end(last.data, () => process.exit(0));
    // A command that stopped reading must not keep the daemon alive.
    setTimeout(() => process.exit(0), 1000).unref();
  };

  const idle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (active === undefined) shutdown();
    }, options.idleSeconds * 1000);
  };
  idle();
  // A socket removed or replaced (a cleaner of the temporary directory, another daemon) leaves this one unreachable.
  setInterval(() => {
    const stat = statSync(options.socket, { throwIfNoEntry: false });
    if (stat?.ino !== socketInode && active === undefined) shutdown();
  }, 60_000).unref();

  // A failure no run caught ends the daemon: its state is no longer known. The command running is told.
  const crash = (error: unknown) => {
    const current = active;
    if (current === undefined) return shutdown();
    void import("../report.js").then(({ failureReport }) => {
      current.send(TO_COMMAND.stderr, failureReport(error, current.request.env, current.request.stderrIsTTY));
      current.flush();
      shutdown({ connection: current.connection, data: exitFrame(EXIT_DATA) });
    });
  };
  // These replace the command's own handlers (main's), which would end the process without a word to the command
  // being served or leave the socket behind.
  process.removeAllListeners("uncaughtException").on("uncaughtException", crash);
  process.removeAllListeners("unhandledRejection").on("unhandledRejection", crash);
  // Stopped from outside (`kill`, a logout): the command being served ends as if its own process had been stopped
  // (its temporary files removed), and is told the daemon is gone.
  for (const signal of SIGNALS) {
    process.removeAllListeners(signal).on(signal, () => {
      const current = active;
      if (current === undefined || !current.going) return shutdown();
      current.abandoned = true;
      if (current.guard.interrupt(() => shutdown())) shutdown();
    });
  }

  server.on("connection", (connection) => {
    const reader = new FrameReader();
    const timer = setTimeout(() => connection.destroy(), REQUEST_MS);
    let handled = false;
    let mine: ActiveRun | undefined;
    connection.on("error", () => undefined);
    connection.on("data", (chunk: Buffer) => {
      let frames: ReturnType<FrameReader["push"]>;
      try {
        frames = reader.push(chunk);
      } catch {
        connection.destroy();
        return;
      }
      for (const { kind, body } of frames) {
        if (!handled) {
          handled = true;
          clearTimeout(timer);
          let request: DaemonRequest;
          try {
            if (kind !== TO_DAEMON.request) throw new Error("no request");
            request = JSON.parse(body.toString("utf8")) as DaemonRequest;
          } catch {
            connection.destroy();
            return;
          }
          if (request.type === "status") {
            connection.end(frame(TO_COMMAND.status, JSON.stringify(status())));
            return;
          }
          if (request.type === "stop") {
            shutdown({ connection, data: frame(TO_COMMAND.status, JSON.stringify(status())) });
            return;
          }
          const reason = stopping
            ? "the daemon is stopping"
            : active !== undefined
              ? "the daemon is running another command"
              : declineReason(request, options, nodeEnv, ownGroups);
          if (reason !== undefined) {
            connection.end(frame(TO_COMMAND.declined, JSON.stringify({ reason })));
            // A reinstalled merge: this daemon's code is no longer the installed one.
            if (request.build !== options.build && options.currentBuild() !== options.build) shutdown();
            continue;
          }
          mine = new ActiveRun(connection, request);
          active = mine;
          clearTimeout(idleTimer);
          connection.write(frame(TO_COMMAND.accepted, ""));
          continue;
        }
        if (mine === undefined) return;
        if (kind === TO_DAEMON.go && !mine.going) {
          mine.going = true;
          const current = mine;
          void warmedUp
            .then(() => current.start())
            .then((code) => {
              // Back to the daemon's own: no directory kept busy, no command's environment (its secrets) kept.
              restoreOwn(ownEnv, ownUmask);
              if (current.abandoned) return;
              served++;
              active = undefined;
              current.finished = true;
              current.flush();
              connection.end(exitFrame(code));
              idle();
            });
        } else if (kind === TO_DAEMON.stdin) mine.stdin(body, undefined);
        else if (kind === TO_DAEMON.stdinError) mine.stdin(undefined, parsedOr(body, {}));
        else if (kind === TO_DAEMON.signal) {
          const name = body.toString("utf8");
          if (SIGNALS.has(name)) mine.signal(name as HandledSignal, shutdown);
        }
      }
    });
    connection.on("close", () => {
      clearTimeout(timer);
      const current = mine;
      if (current === undefined || current.finished) return;
      if (!current.going) {
        // Accepted, but the command gave up waiting and ran itself.
        if (active === current) active = undefined;
        idle();
        return;
      }
      // The command went away mid-run (killed, or its reader closed the pipe): stop as it would have stopped.
      current.abandoned = true;
      if (current.guard.interrupt(() => shutdown(undefined, true))) shutdown(undefined, true);
    });
  });
}

/** One command the daemon runs. */
class ActiveRun {
  readonly guard: OutputGuard = createOutputGuard();
  going = false;
  finished = false;
  /** The command is gone or was stopped by a signal: the daemon ends once the run can be left. */
  abandoned = false;
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  private flushQueued = false;
  private waitingForStdin:
    | ((bytes: Buffer | undefined, error: NodeJS.ErrnoException | undefined) => void)
    | undefined;

  constructor(
    readonly connection: Socket,
    readonly request: RunRequest,
  ) {}

  /**
   * Sends output to the command. Frames are gathered into writes of about FLUSH_BYTES (a batch's hosts would
   * otherwise cost a system call each) and sent at the latest when the run next waits. Resolves at once until
   * OUTPUT_QUEUED bytes wait to be sent, then once they drained: the run goes on computing while the command writes
   * out what came before, and a command that stops reading still holds the run back, as a full pipe holds back the
   * command's own process.
   */
  send(kind: number, text: string): Promise<void> {
    const { connection } = this;
    if (connection.destroyed) return Promise.resolve();
    const data = frame(kind, text);
    this.gathered.push(data);
    this.gatheredBytes += data.length;
    if (this.gatheredBytes >= FLUSH_BYTES) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(() => this.flush());
    }
    if (connection.writableLength < OUTPUT_QUEUED) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        connection.off("drain", done);
        connection.off("close", done);
        resolve();
      };
      connection.on("drain", done);
      connection.on("close", done);
    });
  }

  /** Writes what `send` gathered (before the exit status, and whenever the run lets the event loop turn). */
  flush(): void {
    this.flushQueued = false;
    if (this.gathered.length === 0 || this.connection.destroyed) return;
    this.connection.write(this.gathered.length === 1 ? this.gathered[0]! : Buffer.concat(this.gathered));
    this.gathered = [];
    this.gatheredBytes = 0;
  }

  start(): Promise<number> {
    const { request } = this;
    // What a run may read from the process instead of CliIO: made the command's.
    replaceEnvironment(request.env);
    process.umask(request.umask);
    try {
      process.chdir(request.cwd);
    } catch {
      // Removed since it was checked: the run resolves everything against `io.cwd`, and reports that itself.
    }
    const env = Object.freeze({ ...request.env });
    const io: CliIO = {
      cwd: request.cwd,
      env,
      compiledTemplates: openBuildCache(env, "templates"),
      parsedDocuments: openBuildCache(env, "documents"),
      readStdin: () =>
        new Promise((resolve, reject) => {
          this.waitingForStdin = (bytes, error) => (bytes === undefined ? reject(error) : resolve(bytes));
          this.connection.write(frame(TO_COMMAND.needStdin, ""));
        }),
      writeOut: (text) => (text === "" ? Promise.resolve() : this.send(TO_COMMAND.stdout, text)),
      writeErr: (text) => void this.send(TO_COMMAND.stderr, text),
      stdoutIsTTY: request.stdoutIsTTY,
      stderrIsTTY: request.stderrIsTTY,
      outputGuard: this.guard,
    };
    return run(request.argv, io);
  }

  stdin(bytes: Buffer | undefined, error: { code?: string; message?: string } | undefined): void {
    const waiting = this.waitingForStdin;
    this.waitingForStdin = undefined;
    waiting?.(bytes, Object.assign(new Error(error?.message ?? "standard input"), { code: error?.code }));
  }

  /** A signal the command got: what `main` does with one, the daemon ending where the command's process would. */
  signal(
    name: HandledSignal,
    shutdown: (last: { connection: Socket; data: Buffer }, successor: boolean) => void,
  ): void {
    const stop = () => {
      this.abandoned = true;
      this.flush();
      shutdown({ connection: this.connection, data: exitFrame(exitStatusForSignal(name)) }, true);
    };
    if (this.guard.interrupt(stop)) stop();
  }
}

/** A frame's JSON, or `fallback` when it is not JSON (a peer that is not merge's command). */
function parsedOr<T>(body: Buffer, fallback: T): T {
  try {
    return JSON.parse(body.toString("utf8")) as T;
  } catch {
    return fallback;
  }
}

function exitFrame(status: number): Buffer {
  return frame(TO_COMMAND.exit, JSON.stringify({ status }));
}

/** Why the daemon cannot run `request` as the command's own process would, or undefined when it can. */
function declineReason(
  request: RunRequest,
  options: ServeOptions,
  nodeEnv: string,
  ownGroups: ReadonlySet<number>,
): string | undefined {
  if (request.build !== options.build) return "the daemon is another build of merge";
  if (request.uid !== process.getuid?.() || request.gid !== process.getgid?.())
    return "another user or group";
  if (request.groups.length !== ownGroups.size || request.groups.some((group) => !ownGroups.has(group)))
    return "other supplementary groups";
  if (request.execArgv.length > 0 || nodeLevelEnv(request.env) !== nodeEnv)
    return "other Node options, locale or time zone";
  if (request.env.MERGE_TEST_PAUSE !== undefined) return "the test hook is set";
  const own = needsOwnProcess(request.argv, request.cwd);
  if (own !== undefined) return own;
  try {
    if (!statSync(request.cwd).isDirectory()) return "no working directory";
  } catch {
    return "no working directory";
  }
  return undefined;
}

/**
 * Why a command line must run in the command's own process: it watches (runs until stopped), loads plugins (code
 * that would stay loaded), is `merge daemon` itself, or names a file only the command's process has (/dev/stdin,
 * /dev/fd/N from `<(…)`, /proc/self, a terminal). Conservative: a false alarm only costs the daemon's speed.
 */
export function needsOwnProcess(argv: readonly string[], cwd: string): string | undefined {
  if (argv[0] === "daemon") return "merge daemon runs in its own process";
  if (/^\/(dev|proc)(\/|$)/.test(cwd)) return "a working directory of the process's own";
  for (const arg of argv) {
    if (arg === "--watch" || /^-[^-]*w/.test(arg)) return "--watch runs in its own process";
    if (arg === "--plugin" || arg.startsWith("--plugin=")) return "--plugin runs in its own process";
    if (/(^|[=/])(dev|proc)(\/|$)/.test(arg)) return "a file of the process's own (/dev, /proc)";
  }
  return undefined;
}

/**
 * What of an environment a process takes in when it starts and does not read again: Node's and libuv's settings,
 * and the locale and time zone the JavaScript engine sets itself up with. As one comparable text.
 */
function nodeLevelEnv(env: Readonly<Record<string, string | undefined>>): string {
  return Object.keys(env)
    .filter((key) => /^(NODE_|UV_|LC_)|^(LANG|LANGUAGE|TZ)$/.test(key))
    .sort()
    .map((key) => `${key}=${env[key]}`)
    .join("\0");
}

function restoreOwn(env: NodeJS.ProcessEnv, umask: number): void {
  replaceEnvironment(env as Record<string, string>);
  process.umask(umask);
  try {
    process.chdir("/");
  } catch {
    // Nothing to keep busy then either.
  }
}

function replaceEnvironment(env: Readonly<Record<string, string>>): void {
  for (const key of Object.keys(process.env)) if (!Object.hasOwn(env, key)) delete process.env[key];
  Object.assign(process.env, env);
}
