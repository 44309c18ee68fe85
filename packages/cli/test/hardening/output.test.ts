import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  createReadStream,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  open,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  type Stats,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { DEV_FULL, DEV_NULL, FOREIGN_BUILD, withSystemDevice } from "../devices.js";
import { merge } from "../helpers.js";
import { startMerge, withoutPauses } from "../spawn.js";

reportCounts("@merge/cli", import.meta.url);

const root = mkdtempSync(join(tmpdir(), "merge-cli-output-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let serial = 0;

/** A fresh directory with the input `in.yml` (`a: 1`), whose output is `a: 1\n`. */
function workspace(): string {
  const dir = join(root, `case-${++serial}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "in.yml"), "a: 1\n");
  return dir;
}

const OUTPUT = "a: 1\n";
const isRoot = process.geteuid?.() === 0;

function mkfifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

/** Whether this process may make device nodes (root with CAP_MKNOD); the device cases need it. */
function canMknod(): boolean {
  const probe = join(root, "mknod-probe");
  try {
    execFileSync("mknod", [probe, "c", "1", "3"], { stdio: "ignore" });
    rmSync(probe);
    return true;
  } catch {
    return false;
  }
}
const mknodWorks = canMknod();

/** Reads a FIFO to its end, as a separate reader would (its open waits for the writer), resolving with what it got. */
function readFifo(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    createReadStream(path, { encoding: "utf8" })
      .on("data", (chunk) => {
        text += chunk;
      })
      .on("end", () => resolve(text))
      .on("error", reject);
  });
}

/** Identity and kind of a node, to show it is the same node afterwards. */
function nodeOf(path: string): string {
  const info: Stats = lstatSync(path);
  const kind = info.isFIFO()
    ? "fifo"
    : info.isSocket()
      ? "socket"
      : info.isCharacterDevice()
        ? "char"
        : info.isBlockDevice()
          ? "block"
          : info.isDirectory()
            ? "dir"
            : info.isSymbolicLink()
              ? "link"
              : "file";
  return `${kind} ${info.dev}:${info.ino} rdev ${info.rdev} mode ${(info.mode & 0o7777).toString(8)}`;
}

function temporaryFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith(".tmp")));
}

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(path, () => resolve(server));
  });
}

describe("-o follows symbolic links and replaces the file they lead to", () => {
  it("replaces the file at the end of a chain of links, keeping every link, its mode and its owner", () => {
    const dir = workspace();
    mkdirSync(join(dir, "etc"));
    mkdirSync(join(dir, "links"));
    const real = join(dir, "etc", "app.yml");
    writeFileSync(real, "old: 1\n");
    chmodSync(real, 0o640);
    if (isRoot) chownSync(real, 65534, 65534);
    symlinkSync("../etc/app.yml", join(dir, "links", "app.yml"));
    symlinkSync(join(dir, "links", "app.yml"), join(dir, "out.yml"));
    const run = merge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(readFileSync(real, "utf8")).toBe(OUTPUT);
    expect(lstatSync(real).isFile()).toBe(true);
    expect(statSync(real).mode & 0o7777).toBe(0o640);
    if (isRoot) expect([statSync(real).uid, statSync(real).gid]).toEqual([65534, 65534]);
    expect(readlinkSync(join(dir, "out.yml"))).toBe(join(dir, "links", "app.yml"));
    expect(readlinkSync(join(dir, "links", "app.yml"))).toBe("../etc/app.yml");
    expect(temporaryFiles(dir, join(dir, "etc"), join(dir, "links"))).toEqual([]);
    tally("faults", 1);
  });

  it("creates the file a dangling link points to when its directory exists, and refuses otherwise", () => {
    const dir = workspace();
    mkdirSync(join(dir, "etc"));
    symlinkSync("etc/new.yml", join(dir, "out.yml"));
    const run = merge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(lstatSync(join(dir, "out.yml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "etc", "new.yml"), "utf8")).toBe(OUTPUT);

    symlinkSync("nowhere/new.yml", join(dir, "lost.yml"));
    const lost = merge(["docs", "in.yml", "-o", "lost.yml"], { cwd: dir });
    expect(lost.status).toBe(1);
    expect(lost.stderr).toBe(
      "error: lost.yml: cannot write the output: its directory does not exist [OUTPUT_WRITE]\n",
    );
    expect(readlinkSync(join(dir, "lost.yml"))).toBe("nowhere/new.yml");
    expect(readdirSync(dir).sort()).toEqual(["etc", "in.yml", "lost.yml", "out.yml"]);
    tally("faults", 2);
  });

  it("refuses a loop of links with OUTPUT_WRITE", () => {
    const dir = workspace();
    symlinkSync("b.yml", join(dir, "a.yml"));
    symlinkSync("a.yml", join(dir, "b.yml"));
    const run = merge(["docs", "in.yml", "-o", "a.yml"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: a\.yml: .*too many levels of symbolic links.*\[OUTPUT_WRITE\]\n$/);
    expect(readlinkSync(join(dir, "a.yml"))).toBe("b.yml");
    tally("faults", 1);
  });

  it.skipIf(!isRoot)("does not follow another user's link in a sticky world-writable directory", () => {
    const dir = workspace();
    const shared = join(dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const victim = join(dir, "victim.yml");
    writeFileSync(victim, "keep: 1\n");
    symlinkSync(victim, join(shared, "out.yml"));
    lchownSync(join(shared, "out.yml"), 65534, 65534);
    const run = merge(["docs", "in.yml", "-o", join(shared, "out.yml")], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/symbolic link owned by another user \(uid 65534\).*\[OUTPUT_SYMLINK\]\n$/);
    expect(readFileSync(victim, "utf8")).toBe("keep: 1\n");
    expect(readdirSync(shared)).toEqual(["out.yml"]);
    tally("faults", 1);
  });
});

describe("-o never replaces what is not a regular file", () => {
  it("writes through a FIFO to its reader and leaves the FIFO in place", async () => {
    const dir = workspace();
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    symlinkSync("pipe", join(dir, "via-link"));
    const before = nodeOf(fifo);
    for (const name of ["pipe", "via-link"]) {
      const running = startMerge(["docs", "in.yml", "-o", name], { cwd: dir });
      const [received, end] = await Promise.all([readFifo(fifo), running.finished]);
      expect(end.status).toBe(0);
      expect(end.stderr).toBe("");
      expect(received).toBe(OUTPUT);
      expect(nodeOf(fifo)).toBe(before);
    }
    expect(readdirSync(dir).sort()).toEqual(["in.yml", "pipe", "via-link"]);
    tally("faults", 2);
  });

  it("reports a FIFO reader that leaves before reading everything as OUTPUT_WRITE, exit 1", async () => {
    const dir = workspace();
    // More than a pipe holds (64 KiB), so the writer needs a reader that reads.
    writeFileSync(
      join(dir, "big.yml"),
      Array.from({ length: 20_000 }, (_, i) => `key${i}: ${"x".repeat(40)}`).join("\n"),
    );
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    const running = startMerge(["docs", "big.yml", "-o", "pipe"], { cwd: dir });
    // Open the read end (which lets the writer's open return) and close it without reading.
    await new Promise<void>((resolve, reject) =>
      open(fifo, "r", (error, fd) => {
        if (error) return reject(error);
        closeSync(fd);
        resolve();
      }),
    );
    const end = await running.finished;
    expect(end.status).toBe(1);
    expect(end.stderr).toBe(
      "error: pipe: cannot write the output: the reader went away before everything was written (EPIPE) [OUTPUT_WRITE]\n",
    );
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    tally("faults", 1);
  });

  // The machine's own devices are written to only by this package's build: another build (MERGE_CLI_BIN, say the
  // release before this fix) would replace them for every program running beside the tests.
  it.skipIf(FOREIGN_BUILD)(
    "writes through /dev/null, and through a link to it, leaving the device as it was",
    () =>
      withSystemDevice("/dev/null", DEV_NULL, () => {
        const dir = workspace();
        const before = nodeOf("/dev/null");
        symlinkSync("/dev/null", join(dir, "discard"));
        for (const target of ["/dev/null", "discard"]) {
          const run = merge(["docs", "in.yml", "-o", target], { cwd: dir });
          expect(run.status).toBe(0);
          expect(run.stderr).toBe("");
          expect(nodeOf("/dev/null")).toBe(before);
        }
        expect(readFileSync("/dev/null", "utf8")).toBe("");
        tally("faults", 2);
      }),
  );

  it.skipIf(FOREIGN_BUILD)(
    "reports a full device (/dev/full) as OUTPUT_WRITE, exit 1, leaving it as it was",
    () =>
      withSystemDevice("/dev/full", DEV_FULL, () => {
        const dir = workspace();
        const before = nodeOf("/dev/full");
        const run = merge(["docs", "in.yml", "-o", "/dev/full"], { cwd: dir });
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(
          "error: /dev/full: cannot write the output: no space left on device (ENOSPC) [OUTPUT_WRITE]\n",
        );
        expect(nodeOf("/dev/full")).toBe(before);
        tally("faults", 1);
      }),
  );

  it.skipIf(!mknodWorks)("writes through a character device node and refuses a block device node", () => {
    const dir = workspace();
    // A second node for the null device, and one for a loop device minor that does not exist: never opened.
    execFileSync("mknod", [join(dir, "null-copy"), "c", "1", "3"]);
    execFileSync("mknod", [join(dir, "disk"), "b", "7", "250"]);
    const nullBefore = nodeOf(join(dir, "null-copy"));
    const diskBefore = nodeOf(join(dir, "disk"));
    const through = merge(["docs", "in.yml", "-o", "null-copy"], { cwd: dir });
    expect(through.status).toBe(0);
    expect(nodeOf(join(dir, "null-copy"))).toBe(nullBefore);
    const refused = merge(["docs", "in.yml", "-o", "disk"], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      "error: disk: cannot write the output: it is a block device, which -o never replaces [OUTPUT_NOT_FILE]\n",
    );
    expect(nodeOf(join(dir, "disk"))).toBe(diskBefore);
    expect(temporaryFiles(dir)).toEqual([]);
    tally("faults", 2);
  });

  it("refuses a socket, a directory and links to them with OUTPUT_NOT_FILE, leaving each as it was", async () => {
    const dir = workspace();
    const server = await listen(join(dir, "socket"));
    try {
      mkdirSync(join(dir, "folder"));
      writeFileSync(join(dir, "folder", "keep.txt"), "keep");
      symlinkSync("socket", join(dir, "to-socket"));
      symlinkSync("folder", join(dir, "to-folder"));
      const cases: [string, string][] = [
        ["socket", "a socket"],
        ["to-socket", "a socket"],
        ["folder", "a directory"],
        ["to-folder", "a directory"],
      ];
      const before = cases.map(([name]) => nodeOf(join(dir, name)));
      for (const [name, what] of cases) {
        const run = startMerge(["docs", "in.yml", "-o", name], { cwd: dir });
        const end = await run.finished;
        expect(end.status).toBe(1);
        expect(end.stderr).toBe(
          `error: ${name}: cannot write the output: it is ${what}, which -o never replaces [OUTPUT_NOT_FILE]\n`,
        );
      }
      expect(cases.map(([name]) => nodeOf(join(dir, name)))).toEqual(before);
      expect(readdirSync(join(dir, "folder"))).toEqual(["keep.txt"]);
      expect(temporaryFiles(dir, join(dir, "folder"))).toEqual([]);
      tally("faults", cases.length);
    } finally {
      server.close();
    }
  });
});

describe("signals while -o writes: no temp file left, the status says if the file was replaced", () => {
  const SIGNALS = [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const;

  for (const [signal, status] of SIGNALS) {
    it(`${signal} once the temporary file is written: status ${status}, the linked file untouched`, async () => {
      const dir = workspace();
      mkdirSync(join(dir, "etc"));
      const real = join(dir, "etc", "app.yml");
      writeFileSync(real, "old: 1\n");
      chmodSync(real, 0o600);
      symlinkSync("etc/app.yml", join(dir, "out.yml"));
      const running = startMerge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir, pause: "temp-written" });
      await running.paused("temp-written");
      // The temporary file sits beside the file the link leads to, with the old file's mode.
      const temps = temporaryFiles(join(dir, "etc"));
      expect(temps).toHaveLength(1);
      expect(statSync(join(dir, "etc", temps[0]!)).mode & 0o777).toBe(0o600);
      expect(temporaryFiles(dir)).toEqual([]);
      running.child.kill(signal);
      const end = await running.finished;
      expect(end.status).toBe(status);
      expect(end.stdout).toBe("");
      expect(withoutPauses(end.stderr)).toBe("");
      expect(readFileSync(real, "utf8")).toBe("old: 1\n");
      expect(readlinkSync(join(dir, "out.yml"))).toBe("etc/app.yml");
      expect(temporaryFiles(dir, join(dir, "etc"))).toEqual([]);
      tally("faults", 1);
    });

    it(`${signal} before any output: status ${status}, nothing created`, async () => {
      const dir = workspace();
      const running = startMerge(["docs", "in.yml", "-o", "new.yml"], { cwd: dir, pause: "start" });
      await running.paused("start");
      running.child.kill(signal);
      const end = await running.finished;
      expect(end.status).toBe(status);
      expect(readdirSync(dir)).toEqual(["in.yml"]);
      tally("faults", 1);
    });

    it(`${signal} while a FIFO waits for a reader: status ${status} at once, the FIFO in place`, async () => {
      const dir = workspace();
      mkfifo(join(dir, "pipe"));
      const before = nodeOf(join(dir, "pipe"));
      const running = startMerge(["docs", "in.yml", "-o", "pipe"], { cwd: dir, pause: "opening" });
      await running.paused("opening");
      running.child.kill(signal);
      const end = await running.finished;
      expect(end.status).toBe(status);
      expect(withoutPauses(end.stderr)).toBe("");
      expect(nodeOf(join(dir, "pipe"))).toBe(before);
      tally("faults", 1);
    });
  }

  it("a signal once the rename is due lets it finish: status 0, the file replaced", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "out.yml"), "old: 1\n");
    const running = startMerge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir, pause: "replacing" });
    await running.paused("replacing");
    running.child.kill("SIGTERM");
    const end = await running.finished;
    expect(end.status).toBe(0);
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe(OUTPUT);
    expect(temporaryFiles(dir)).toEqual([]);
    tally("faults", 1);
  });

  it("a signal after a FIFO is opened ends the run before anything is written to it", async () => {
    const dir = workspace();
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    const running = startMerge(["docs", "in.yml", "-o", "pipe"], { cwd: dir, pause: "opened" });
    const received = readFifo(fifo);
    await running.paused("opened");
    running.child.kill("SIGTERM");
    const end = await running.finished;
    expect(end.status).toBe(143);
    expect(await received).toBe("");
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    tally("faults", 1);
  });
});

describe("-o when the target changes while merge writes", () => {
  it("does not rename over a file that became a FIFO", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "out.yml"), "old: 1\n");
    const running = startMerge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir, pause: "temp-written" });
    await running.paused("temp-written");
    rmSync(join(dir, "out.yml"));
    mkfifo(join(dir, "out.yml"));
    running.child.kill("SIGUSR2");
    const end = await running.finished;
    expect(end.status).toBe(1);
    expect(withoutPauses(end.stderr)).toMatch(
      /^error: out\.yml: .*changed while merge was writing.*\[OUTPUT_WRITE\]\n$/,
    );
    expect(lstatSync(join(dir, "out.yml")).isFIFO()).toBe(true);
    expect(temporaryFiles(dir)).toEqual([]);
    tally("faults", 1);
  });

  it("writes nothing into a regular file that took a FIFO's place before it was opened", async () => {
    const dir = workspace();
    mkfifo(join(dir, "pipe"));
    const running = startMerge(["docs", "in.yml", "-o", "pipe"], { cwd: dir, pause: "before-open" });
    await running.paused("before-open");
    rmSync(join(dir, "pipe"));
    writeFileSync(join(dir, "pipe"), "someone else's data\n");
    running.child.kill("SIGUSR2");
    const end = await running.finished;
    expect(end.status).toBe(1);
    expect(withoutPauses(end.stderr)).toMatch(/\[OUTPUT_WRITE\]\n$/);
    expect(readFileSync(join(dir, "pipe"), "utf8")).toBe("someone else's data\n");
    tally("faults", 1);
  });

  it("does not follow a link that was pointed elsewhere meanwhile", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "mine.yml"), "old: 1\n");
    writeFileSync(join(dir, "theirs.yml"), "theirs: 1\n");
    symlinkSync("mine.yml", join(dir, "out.yml"));
    const running = startMerge(["docs", "in.yml", "-o", "out.yml"], { cwd: dir, pause: "temp-written" });
    await running.paused("temp-written");
    rmSync(join(dir, "out.yml"));
    symlinkSync("theirs.yml", join(dir, "out.yml"));
    running.child.kill("SIGUSR2");
    const end = await running.finished;
    expect(end.status).toBe(1);
    expect(readFileSync(join(dir, "mine.yml"), "utf8")).toBe("old: 1\n");
    expect(readFileSync(join(dir, "theirs.yml"), "utf8")).toBe("theirs: 1\n");
    expect(temporaryFiles(dir)).toEqual([]);
    tally("faults", 1);
  });
});
