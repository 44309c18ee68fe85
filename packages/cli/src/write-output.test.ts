import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createOutputGuard, type OutputGuard } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { DEV_NULL, withSystemDevice } from "../test/devices.js";
import { writeOutputFile } from "./write-output.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "merge-output-"));
}

function ioFor(cwd: string, outputGuard?: OutputGuard): CliIO {
  return {
    cwd,
    env: {},
    readStdin: async () => new Uint8Array(),
    writeOut: async () => undefined,
    writeErr: () => undefined,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    outputGuard,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isMergeError(error) ? error.code : `not coded: ${String(error)}`;
  }
  return undefined;
}

const isRoot = process.geteuid?.() === 0;

describe("writeOutputFile on regular files", () => {
  it("replaces the file and leaves nothing else in the directory", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "out.yml"), "old\n");
    await writeOutputFile("out.yml", "new\n", ioFor(dir));
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["out.yml"]);
  });

  it("creates a missing file", async () => {
    const dir = tempDir();
    await writeOutputFile(join(dir, "new.yml"), "a: 1\n", ioFor("/"));
    expect(readFileSync(join(dir, "new.yml"), "utf8")).toBe("a: 1\n");
    expect(readdirSync(dir)).toEqual(["new.yml"]);
  });

  it("keeps the permission bits of the file it replaces", async () => {
    const dir = tempDir();
    const file = join(dir, "secret.yml");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o600);
    await writeOutputFile(file, "new\n", ioFor(dir));
    expect(statSync(file).mode & 0o7777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("new\n");
  });

  it.skipIf(!isRoot)("keeps the owner, the group and the set-group-id bit when run as root", async () => {
    const dir = tempDir();
    const file = join(dir, "owned.yml");
    writeFileSync(file, "old\n");
    chownSync(file, 65534, 65534);
    chmodSync(file, 0o2640);
    await writeOutputFile(file, "new\n", ioFor(dir));
    const info = statSync(file);
    expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([65534, 65534, 0o2640]);
  });
});

describe("writeOutputFile and symbolic links", () => {
  it("replaces the file a chain of links points to, keeping every link", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    mkdirSync(join(dir, "links"));
    writeFileSync(join(dir, "real", "conf.yml"), "old\n");
    chmodSync(join(dir, "real", "conf.yml"), 0o640);
    // Relative texts, one with `..`: resolved from the directory each link is in.
    symlinkSync("../real/conf.yml", join(dir, "links", "second"));
    symlinkSync("links/second", join(dir, "first"));
    await writeOutputFile("first", "new\n", ioFor(dir));
    expect(readFileSync(join(dir, "real", "conf.yml"), "utf8")).toBe("new\n");
    expect(statSync(join(dir, "real", "conf.yml")).mode & 0o777).toBe(0o640);
    expect(readlinkSync(join(dir, "first"))).toBe("links/second");
    expect(readlinkSync(join(dir, "links", "second"))).toBe("../real/conf.yml");
    expect(readdirSync(join(dir, "real"))).toEqual(["conf.yml"]);
    expect(readdirSync(join(dir, "links"))).toEqual(["second"]);
  });

  it("writes the temporary file in the directory of the file the link points to", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "conf.yml"), "old\n");
    symlinkSync("real/conf.yml", join(dir, "link.yml"));
    let announced = "";
    const guard = createOutputGuard({
      pauseAt: "temp-written",
      announce: (text) => {
        announced = text;
      },
    });
    // Everything up to the pause runs synchronously: once the call returns, the temporary file is complete.
    const writing = writeOutputFile("link.yml", "new\n", ioFor(dir, guard));
    expect(announced).toBe("merge-test: paused at temp-written\n");
    expect(readdirSync(join(dir, "real")).filter((name) => name.endsWith(".tmp"))).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(["link.yml", "real"]);
    guard.resume();
    await writing;
    expect(readFileSync(join(dir, "real", "conf.yml"), "utf8")).toBe("new\n");
    expect(readdirSync(join(dir, "real"))).toEqual(["conf.yml"]);
  });

  it("creates the file a dangling link points to when its directory exists, and keeps the link", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "real"));
    symlinkSync("real/new.yml", join(dir, "link.yml"));
    await writeOutputFile("link.yml", "new\n", ioFor(dir));
    expect(lstatSync(join(dir, "link.yml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real", "new.yml"), "utf8")).toBe("new\n");
  });

  it("refuses a dangling link into a directory that does not exist, creating nothing", async () => {
    const dir = tempDir();
    symlinkSync("missing/new.yml", join(dir, "link.yml"));
    expect(await codeOf(writeOutputFile("link.yml", "new\n", ioFor(dir)))).toBe("OUTPUT_WRITE");
    expect(readdirSync(dir)).toEqual(["link.yml"]);
  });

  it("refuses a loop of links", async () => {
    const dir = tempDir();
    symlinkSync("b", join(dir, "a"));
    symlinkSync("a", join(dir, "b"));
    expect(await codeOf(writeOutputFile("a", "new\n", ioFor(dir)))).toBe("OUTPUT_WRITE");
    expect(readdirSync(dir).sort()).toEqual(["a", "b"]);
  });

  it.skipIf(!isRoot)(
    "does not follow another user's link in a shared sticky directory (fs.protected_symlinks)",
    async () => {
      const shared = tempDir();
      chmodSync(shared, 0o1777);
      const victim = join(tempDir(), "victim.yml");
      writeFileSync(victim, "keep\n");
      const link = join(shared, "out.yml");
      symlinkSync(victim, link);
      const { lchownSync } = await import("node:fs");
      lchownSync(link, 65534, 65534);
      expect(await codeOf(writeOutputFile(link, "evil\n", ioFor(shared)))).toBe("OUTPUT_SYMLINK");
      expect(readFileSync(victim, "utf8")).toBe("keep\n");
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      // The same link owned by the user running merge is followed.
      lchownSync(link, 0, 0);
      await writeOutputFile(link, "mine\n", ioFor(shared));
      expect(readFileSync(victim, "utf8")).toBe("mine\n");
      rmSync(shared, { recursive: true, force: true });
    },
  );
});

describe("writeOutputFile when the target changes while it writes", () => {
  async function changeWhilePaused(setup: (dir: string) => void, change: (dir: string) => void) {
    const dir = tempDir();
    setup(dir);
    const guard = createOutputGuard({ pauseAt: "temp-written", announce: () => undefined });
    // Paused (synchronously, see above) with the temporary file complete and the target not yet looked at again.
    const writing = codeOf(writeOutputFile("out.yml", "new\n", ioFor(dir, guard)));
    change(dir);
    guard.resume();
    return { dir, code: await writing };
  }

  it("does not replace a file that became a directory", async () => {
    const { dir, code } = await changeWhilePaused(
      (d) => writeFileSync(join(d, "out.yml"), "old\n"),
      (d) => {
        rmSync(join(d, "out.yml"));
        mkdirSync(join(d, "out.yml"));
      },
    );
    expect(code).toBe("OUTPUT_NOT_FILE");
    expect(statSync(join(dir, "out.yml")).isDirectory()).toBe(true);
    expect(readdirSync(dir)).toEqual(["out.yml"]);
  });

  it("does not replace a file that became a link to another file", async () => {
    const { dir, code } = await changeWhilePaused(
      (d) => {
        writeFileSync(join(d, "out.yml"), "old\n");
        writeFileSync(join(d, "other.yml"), "other\n");
      },
      (d) => {
        rmSync(join(d, "out.yml"));
        symlinkSync("other.yml", join(d, "out.yml"));
      },
    );
    expect(code).toBe("OUTPUT_WRITE");
    expect(readFileSync(join(dir, "other.yml"), "utf8")).toBe("other\n");
    expect(lstatSync(join(dir, "out.yml")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["other.yml", "out.yml"]);
  });

  it("replaces a regular file that another program replaced by a regular file", async () => {
    const { dir, code } = await changeWhilePaused(
      (d) => writeFileSync(join(d, "out.yml"), "old\n"),
      (d) => {
        rmSync(join(d, "out.yml"));
        writeFileSync(join(d, "out.yml"), "theirs\n");
      },
    );
    expect(code).toBeUndefined();
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe("new\n");
  });
});

describe("writeOutputFile on what is not a regular file", () => {
  it("refuses a directory with OUTPUT_NOT_FILE, keeping it and removing nothing", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "taken", "keep.txt"), "x");
    expect(await codeOf(writeOutputFile("taken", "new\n", ioFor(dir)))).toBe("OUTPUT_NOT_FILE");
    expect(readdirSync(dir)).toEqual(["taken"]);
    expect(readdirSync(join(dir, "taken"))).toEqual(["keep.txt"]);
  });

  it("writes through /dev/null and leaves it a character device", () =>
    withSystemDevice("/dev/null", DEV_NULL, async () => {
      const before = statSync("/dev/null");
      await writeOutputFile("/dev/null", "a: 1\n", ioFor("/"));
      const after = lstatSync("/dev/null");
      expect(after.isCharacterDevice()).toBe(true);
      expect([after.rdev, after.ino]).toEqual([before.rdev, before.ino]);
    }));
});
