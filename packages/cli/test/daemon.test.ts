import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needsOwnProcess } from "../src/daemon/server.js";
import { FrameReader, frame, TO_COMMAND, TO_DAEMON } from "../src/daemon/wire.js";
import { PACKAGE_DIR, REPO, STACK_EXAMPLE_ARGS } from "./helpers.js";

// `merge daemon` as users run it: the installed entry (bin/merge.cjs) starts, asks and stops a real daemon, and
// commands go through it over its socket. Each suite has a runtime directory of its own (XDG_RUNTIME_DIR), so no
// test meets another's daemon or a user's. Whether a command went through the daemon is read from the daemon's own
// count of the commands it served.
const ENTRY = join(PACKAGE_DIR, "bin", "merge.cjs");
const STACK_DIR = join(REPO, "examples", "stack");
const CLOUD_DIR = join(REPO, "examples", "cloud-config", "runcmd-doc");

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function daemonHome(): Record<string, string | undefined> {
  const runtime = mkdtempSync(join(tmpdir(), "merge-daemon-test-"));
  chmodSync(runtime, 0o700);
  return { XDG_RUNTIME_DIR: runtime };
}

function merge(
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; input?: string } = {},
): Run {
  const result = spawnSync(process.execPath, [ENTRY, ...args], {
    cwd: options.cwd ?? STACK_DIR,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, MERGE_NO_DAEMON: undefined, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Status {
  readonly pid: number;
  readonly served: number;
  readonly busy: boolean;
  readonly warming: boolean;
  readonly idleSeconds: number;
  readonly socket: string;
}

function status(env: Record<string, string | undefined>): Status | undefined {
  const run = merge(["daemon", "status", "--format", "json"], env);
  const parsed = JSON.parse(run.stdout) as Status & { running?: boolean };
  if (parsed.running === false) {
    expect(run.status).toBe(1);
    return undefined;
  }
  expect(run.status).toBe(0);
  return parsed;
}

/** Polls until `check` holds (a daemon starting or stopping in the background); no result depends on the time. */
async function eventually(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("merge daemon", () => {
  const env = daemonHome();
  beforeAll(() => {
    expect(status(env)).toBeUndefined();
    const started = merge(["daemon", "start", "--idle-timeout", "10m"], env);
    expect(started.stderr).toBe("");
    expect(started.status).toBe(0);
    expect(started.stdout).toMatch(/^merge daemon: started\npid: +\d+\nsocket: +.*daemon\.sock\n/);
  });
  afterAll(() => {
    merge(["daemon", "stop"], env);
  });

  it("runs commands with the same output, errors and status as without it", () => {
    const cases: { args: readonly string[]; cwd: string; input?: string }[] = [
      { args: STACK_EXAMPLE_ARGS, cwd: STACK_DIR },
      { args: [...STACK_EXAMPLE_ARGS, "--explain"], cwd: STACK_DIR },
      { args: ["cloud-config", "01-mappings.yaml", "02-mappings.yaml"], cwd: CLOUD_DIR },
      { args: ["docs", "-", "02-mappings.yaml"], cwd: CLOUD_DIR, input: "runcmd: [from-stdin]\n" },
      { args: ["docs", "missing.yaml"], cwd: CLOUD_DIR },
      { args: ["docs", "--fromat", "json", "01-mappings.yaml"], cwd: CLOUD_DIR },
      { args: ["--version"], cwd: CLOUD_DIR },
    ];
    for (const { args, cwd, input } of cases) {
      const before = status(env)!.served;
      const through = merge(args, env, { cwd, input });
      expect(status(env)!.served).toBe(before + 1);
      const alone = merge(args, { ...env, MERGE_NO_DAEMON: "1" }, { cwd, input });
      expect(status(env)!.served).toBe(before + 1);
      expect(through).toEqual(alone);
    }
    // The cases above do fail and succeed: the comparison is not of two empty runs.
    expect(merge(["docs", "missing.yaml"], env, { cwd: CLOUD_DIR })).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("[FILE_NOT_FOUND]"),
    });
    expect(merge(["--version"], env).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("gives the command its environment and umask", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-daemon-out-"));
    const before = status(env)!.served;
    const coloured = merge(["docs", "missing.yaml"], { ...env, NO_COLOR: undefined, FORCE_COLOR: "1" });
    expect(coloured.stderr).toContain("\u001b[31merror:");
    const output = join(dir, "out.yml");
    const written = spawnSync(
      "sh",
      ["-c", 'umask 077 && exec "$0" "$@"', process.execPath, ENTRY, ...STACK_EXAMPLE_ARGS, "-o", output],
      {
        cwd: STACK_DIR,
        env: { ...process.env, ...env, MERGE_NO_DAEMON: undefined },
      },
    );
    expect(written.status).toBe(0);
    expect(statSync(output).mode & 0o777).toBe(0o600);
    expect(readFileSync(output, "utf8")).toBe(merge(STACK_EXAMPLE_ARGS, { MERGE_NO_DAEMON: "1" }).stdout);
    expect(status(env)!.served).toBe(before + 2);
  });

  it("leaves to the command what only its own process can do", () => {
    const before = status(env)!.served;
    // /dev/stdin is the command's standard input (here a file), not the daemon's.
    const file = join(mkdtempSync(join(tmpdir(), "merge-daemon-stdin-")), "in.yml");
    writeFileSync(file, "a: 1\n");
    const descriptor = openSync(file, "r");
    const fromStdin = spawnSync(process.execPath, [ENTRY, "docs", "/dev/stdin"], {
      encoding: "utf8",
      env: { ...process.env, ...env, MERGE_NO_DAEMON: undefined },
      stdio: [descriptor, "pipe", "pipe"],
    });
    closeSync(descriptor);
    expect(fromStdin).toMatchObject({ status: 0, stdout: "a: 1\n", stderr: "" });
    // Other Node options: the daemon's process would not run as the command's does.
    expect(merge(["--version"], { ...env, NODE_OPTIONS: "--no-warnings" }).status).toBe(0);
    expect(merge(["daemon", "status"], env).status).toBe(0);
    expect(status(env)!.served).toBe(before);
  });

  it("declines a command of another build, and keeps serving its own", async () => {
    const { socket, pid } = status(env)!;
    const answer = await new Promise<{ kind: number; body: string }>((resolve, reject) => {
      const connection = connect(socket);
      const reader = new FrameReader();
      connection.on("error", reject);
      connection.on("data", (chunk: Buffer) => {
        const [first] = reader.push(chunk);
        if (first !== undefined) resolve({ kind: first.kind, body: first.body.toString("utf8") });
      });
      const request = {
        type: "run",
        build: "0.0.0-other",
        argv: ["--version"],
        cwd: STACK_DIR,
        env: {},
        umask: 0o022,
        uid: process.getuid!(),
        gid: process.getgid!(),
        groups: process.getgroups!(),
        execArgv: [],
        stdoutIsTTY: false,
        stderrIsTTY: false,
      };
      connection.write(frame(TO_DAEMON.request, JSON.stringify(request)));
    });
    expect(answer.kind).toBe(TO_COMMAND.declined);
    expect(JSON.parse(answer.body)).toEqual({ reason: "the daemon is another build of merge" });
    expect(status(env)!.pid).toBe(pid);
  });

  it("runs a second command itself while the daemon is busy", async () => {
    const before = status(env)!.served;
    // The first command waits for its standard input, held open here.
    const first = spawn(process.execPath, [ENTRY, "docs", "-"], {
      cwd: STACK_DIR,
      env: { ...process.env, ...env, NO_COLOR: "1", FORCE_COLOR: undefined },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let firstOut = "";
    first.stdout.setEncoding("utf8").on("data", (text: string) => {
      firstOut += text;
    });
    const firstDone = new Promise<number | null>((resolve) => first.on("close", resolve));
    await eventually(() => status(env)!.busy);
    const second = merge(STACK_EXAMPLE_ARGS, env);
    expect(second).toEqual(merge(STACK_EXAMPLE_ARGS, { MERGE_NO_DAEMON: "1" }));
    first.stdin.end("b: 2\n");
    expect(await firstDone).toBe(0);
    expect(firstOut).toBe("b: 2\n");
    expect(status(env)!.served).toBe(before + 1);
  });

  it("stops a command on a signal as its own process would, and a fresh daemon takes over", async () => {
    const { pid } = status(env)!;
    const command = spawn(process.execPath, [ENTRY, "docs", "-"], {
      cwd: STACK_DIR,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    // "exit", not "close": the standard input this test holds open stays open.
    const done = new Promise<number | null>((resolve) => command.on("exit", resolve));
    await eventually(() => status(env)?.busy === true);
    command.kill("SIGINT");
    expect(await done).toBe(130);
    command.stdin.destroy();
    await eventually(() => {
      const next = status(env);
      return next !== undefined && next.pid !== pid;
    });
    expect(status(env)!.served).toBe(0);
    expect(merge(["--version"], env).status).toBe(0);
    expect(status(env)!.served).toBe(1);
  });

  it("says when it is already running, and rejects a bad idle timeout", () => {
    expect(merge(["daemon", "start"], env).stdout).toMatch(/^merge daemon: already running\n/);
    const bad = merge(["daemon", "start", "--idle-timeout", "5x"], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--idle-timeout takes a duration such as 90s, 30m or 8h (at least 1s), not "5x"',
    );
    expect(merge(["daemon", "restart"], env).stderr).toContain(
      'unknown action "restart": start, stop or status (did you mean "start"?)',
    );
  });
});

describe("merge daemon's end", () => {
  it("stops on `stop`, removing its socket", () => {
    const env = daemonHome();
    expect(merge(["daemon", "stop"], env).stdout).toBe("merge daemon: not running\n");
    expect(merge(["daemon", "start"], env).status).toBe(0);
    const { socket, pid } = status(env)!;
    expect(existsSync(socket)).toBe(true);
    expect(merge(["daemon", "stop"], env).stdout).toBe(
      `merge daemon: stopped (pid ${pid}, 0 commands served)\n`,
    );
    expect(existsSync(socket)).toBe(false);
    expect(status(env)).toBeUndefined();
    // And commands run themselves again.
    expect(merge(["--version"], env).status).toBe(0);
  });

  it("warms up on a tree of its own, and leaves nothing of it behind", async () => {
    const env = daemonHome();
    const temporary = mkdtempSync(join(tmpdir(), "merge-daemon-tmp-"));
    expect(merge(["daemon", "start"], { ...env, TMPDIR: temporary }).status).toBe(0);
    await eventually(() => status(env)?.warming === false);
    expect(status(env)).toMatchObject({ served: 0, busy: false });
    expect(readdirSync(temporary)).toEqual([]);
    merge(["daemon", "stop"], env);
    // Stopped while it warms up: its tree goes with it.
    expect(merge(["daemon", "start"], { ...env, TMPDIR: temporary }).status).toBe(0);
    expect(merge(["daemon", "stop"], env).status).toBe(0);
    expect(readdirSync(temporary)).toEqual([]);
  });

  it("stops after its idle timeout", async () => {
    const env = daemonHome();
    expect(merge(["daemon", "start", "--idle-timeout", "1s"], env).status).toBe(0);
    expect(status(env)!.idleSeconds).toBe(1);
    await eventually(() => status(env) === undefined);
  });

  it("refuses a directory someone else may enter, and commands then run themselves", () => {
    const env = daemonHome();
    const directory = join(env.XDG_RUNTIME_DIR!, "merge");
    expect(merge(["daemon", "start"], env).status).toBe(0);
    const { pid } = status(env)!;
    chmodSync(directory, 0o755);
    const before = merge(["--version"], env);
    expect(before.status).toBe(0);
    const refused = merge(["daemon", "start"], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`the daemon's directory ${directory} is not yours alone`);
    expect(refused.stderr).toContain("[DAEMON_DIRECTORY]");
    chmodSync(directory, 0o700);
    // The command above did not go through it.
    expect(status(env)).toMatchObject({ pid, served: 0 });
    merge(["daemon", "stop"], env);
    rmSync(env.XDG_RUNTIME_DIR!, { recursive: true, force: true });
  });
});

describe("the daemon's frames", () => {
  it("are read back whole however the stream cuts them", () => {
    const bytes = Buffer.concat([
      frame(TO_COMMAND.stdout, "héllo"),
      frame(TO_COMMAND.stderr, ""),
      frame(TO_COMMAND.exit, '{"status":3}'),
    ]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const reader = new FrameReader();
      const frames = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      expect(frames.map(({ kind, body }) => [kind, body.toString("utf8")])).toEqual([
        [TO_COMMAND.stdout, "héllo"],
        [TO_COMMAND.stderr, ""],
        [TO_COMMAND.exit, '{"status":3}'],
      ]);
    }
  });

  it("refuse a frame longer than any command's", () => {
    const head = Buffer.from([TO_COMMAND.stdout, 0xff, 0xff, 0xff, 0xff]);
    expect(() => new FrameReader().push(head)).toThrow("a frame of 4294967295 bytes");
  });
});

describe("what the daemon leaves to the command", () => {
  it("is what only the command's own process has or does", () => {
    const own = (argv: readonly string[], cwd = "/srv/pillar") => needsOwnProcess(argv, cwd);
    expect(own(["stack", "stack.cfg", "--minion-id", "web1"])).toBeUndefined();
    expect(own(["docs", "-", "b.yml", "-o", "out/dev.yml"])).toBeUndefined();
    expect(own(["docs", "devices/a.yml", "process.yml"])).toBeUndefined();
    expect(own(["daemon", "status"])).toBe("merge daemon runs in its own process");
    expect(own(["docs", "a.yml", "--watch"])).toBe("--watch runs in its own process");
    expect(own(["docs", "a.yml", "-w"])).toBe("--watch runs in its own process");
    expect(own(["docs", "a.yml", "--plugin=./p.js"])).toBe("--plugin runs in its own process");
    expect(own(["docs", "/dev/fd/63"])).toBe("a file of the process's own (/dev, /proc)");
    expect(own(["docs", "a.yml", "--output=/dev/stdout"])).toBe("a file of the process's own (/dev, /proc)");
    expect(own(["docs", "../../proc/self/fd/0"])).toBe("a file of the process's own (/dev, /proc)");
    expect(own(["docs", "stdin"], "/dev")).toBe("a working directory of the process's own");
  });
});
