import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  open,
  openSync,
  renameSync,
  rmSync,
  type Stats,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname } from "node:path";
import { isMergeError } from "@merge/core";
import { createOutputGuard, type OutputGuard } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { findOutputTarget, type OutputTarget, outputError, targetChanged } from "./output-target.js";

/**
 * Writes `text` to `-o FILE` without ever replacing what is not a regular file:
 *
 * - a regular file (after following symbolic links, see `findOutputTarget`) is replaced atomically: a temporary
 *   file in the resolved file's own directory (so the rename never crosses file systems), with the old file's
 *   owner, group and mode, flushed to disk, then renamed over it. Readers see the old file or the new one, never a
 *   part. Nothing there, or a dangling link: the file is created the same way where the link points.
 * - a FIFO or a character device is written through: opened for writing without creating or truncating anything,
 *   checked to be the node that was looked at, then written.
 * - anything else is refused (`OUTPUT_NOT_FILE`).
 *
 * The temporary file is created, written and renamed with synchronous calls, so a signal handler (which runs only
 * between them) sees it either not yet renamed — and removes it — or replaced. The guard of `io` (from `main`) is
 * told about the temporary file and about the commit point.
 */
export async function writeOutputFile(file: string, text: string, io: CliIO): Promise<void> {
  const guard = io.outputGuard ?? createOutputGuard();
  const target = findOutputTarget(file, io.cwd);
  if (target.kind === "through") await writeThrough(file, target, text, guard);
  else await replaceAtomically(file, target, text, io.cwd, guard);
}

async function replaceAtomically(
  file: string,
  target: Exclude<OutputTarget, { kind: "through" }>,
  text: string,
  cwd: string,
  guard: OutputGuard,
): Promise<void> {
  const dir = dirname(target.path);
  // node:crypto is loaded here, not imported: loading it costs every command ~7 ms, and only a written file needs it.
  // require() rather than process.getBuiltinModule, which Node 22.0-22.2 lacks (the package runs on >=20.19).
  const { randomBytes } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  const temp = `${dir}/.${basename(target.path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  let created = false;
  try {
    // 0600 until the old file's owner and mode are copied: a secret is never readable by more people than before.
    const fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      target.kind === "replace" ? 0o600 : 0o644,
    );
    created = true;
    guard.addTemp(temp);
    try {
      if (target.kind === "replace") keepOwnerAndMode(fd, target.stats);
      writeAll(fd, Buffer.from(text, "utf8"));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    await guard.pause("temp-written");
    // Looked at again just before the rename: a target that turned into a link elsewhere, a FIFO or a directory
    // meanwhile is not replaced. (The moment between this look and the rename itself remains; see docs/security.md.)
    const now = findOutputTarget(file, cwd);
    if (now.kind === "through" || now.path !== target.path) throw targetChanged(file);
    guard.commit();
    await guard.pause("replacing");
    renameSync(temp, target.path);
    created = false;
    guard.deleteTemp(temp);
  } catch (error) {
    if (created) {
      try {
        rmSync(temp, { force: true });
      } catch {
        // Reported below is the failure that matters; a temp file we cannot remove is named nowhere.
      }
      guard.deleteTemp(temp);
    }
    throw isMergeError(error) ? error : outputError(file, error);
  }
  syncDirectory(dir);
}

/**
 * The replacement keeps the old file's owner and group where the user may set them (root: always; others: a group
 * they belong to), and its mode: all of it when the owner was kept, the permission bits otherwise (a set-user-id
 * bit on a file that changed owner would hand out the new owner's rights).
 */
function keepOwnerAndMode(fd: number, old: Stats): void {
  const mine = fstatSync(fd);
  let ownerKept = mine.uid === old.uid;
  if (mine.uid !== old.uid || mine.gid !== old.gid) {
    try {
      fchownSync(fd, old.uid, old.gid);
      ownerKept = true;
    } catch {
      try {
        fchownSync(fd, -1, old.gid);
      } catch {
        // Not a group of ours: the new file gets the user's group, as any file they create.
      }
    }
  }
  fchmodSync(fd, old.mode & (ownerKept ? 0o7777 : 0o777));
}

async function writeThrough(
  file: string,
  target: Extract<OutputTarget, { kind: "through" }>,
  text: string,
  guard: OutputGuard,
): Promise<void> {
  const fifo = target.type === "FIFO";
  // A FIFO's open() waits for a reader (as a shell's `> fifo` does), in a worker thread so signals still work.
  if (fifo) guard.addOpening(target.path);
  let fd: number;
  try {
    await guard.pause("before-open");
    const opening = new Promise<number>((resolve, reject) =>
      open(target.path, constants.O_WRONLY | constants.O_NOCTTY, (error, opened) =>
        error === null ? resolve(opened) : reject(error),
      ),
    );
    // Handled below once awaited; marked now so a failure during the pause is not an unhandled rejection.
    opening.catch(() => undefined);
    await guard.pause("opening");
    fd = await opening;
  } catch (error) {
    throw outputError(file, error);
  } finally {
    if (fifo) guard.deleteOpening(target.path);
  }
  let handedOver = false;
  try {
    // Opening follows links again: write only if it opened the very node that was looked at.
    const opened = fstatSync(fd);
    if (opened.dev !== target.stats.dev || opened.ino !== target.stats.ino) throw targetChanged(file);
    await guard.pause("opened");
    const bytes = Buffer.from(text, "utf8");
    if (fifo) {
      handedOver = true;
      await writeToPipe(fd, bytes);
    } else writeAll(fd, bytes);
  } catch (error) {
    throw isMergeError(error) ? error : outputError(file, error);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/**
 * Writes to a FIFO through a non-blocking pipe handle rather than a worker thread: a reader that stops reading
 * must not keep the process from ending on a signal. The handle owns (and closes) the descriptor.
 */
async function writeToPipe(fd: number, bytes: Buffer): Promise<void> {
  const { Socket } = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const pipe = new Socket({ fd, readable: false, writable: true });
    let failure: Error | undefined;
    pipe.on("error", (error) => {
      failure ??= error;
    });
    pipe.on("close", () => (failure === undefined ? resolve() : reject(failure)));
    pipe.end(bytes);
  });
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Makes the rename itself durable. Best effort: some file systems cannot sync a directory. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The file is already in place; only its durability across a power cut is in question.
  }
}
