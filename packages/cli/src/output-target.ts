import { lstatSync, readlinkSync, type Stats, statSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { MergeError } from "@merge/core";

/**
 * What `-o FILE` names, and so how it is written:
 * - `create`: nothing is there (or a symbolic link whose target does not exist yet): a new regular file at `path`;
 * - `replace`: a regular file, at `path` after every symbolic link: replaced atomically by a rename;
 * - `through`: a FIFO or a character device (`/dev/null`, `/dev/stdout` on a pipe or terminal): opened and written
 *   to as it is, never replaced.
 * Anything else (a directory, a socket, a block device) is refused with `OUTPUT_NOT_FILE`.
 */
export type OutputTarget =
  | { readonly kind: "create"; readonly path: string }
  | { readonly kind: "replace"; readonly path: string; readonly stats: Stats }
  | {
      readonly kind: "through";
      readonly path: string;
      readonly stats: Stats;
      readonly type: "FIFO" | "character device";
    };

/** Linux's limit on symbolic links followed while resolving one path (MAXSYMLINKS). */
const MAX_LINKS = 40;

/**
 * Finds what `file` (relative to `cwd`) names for writing. Paths are handed to the kernel as written, never
 * normalised, so `..` after a symbolic link means what it means to `open()`.
 */
export function findOutputTarget(file: string, cwd: string): OutputTarget {
  const given = isAbsolute(file) ? file : `${cwd}/${file}`;
  const path = followLinks(given, file);
  let stats: Stats;
  try {
    stats = statSync(given);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw outputError(file, error);
    // Nothing there, or a dangling symbolic link: a new file where the last link points, if its directory exists.
    if (lstatOrUndefined(path) !== undefined) throw targetChanged(file);
    const dir = lstatOrUndefined(dirname(path), true);
    if (dir === undefined || !dir.isDirectory()) throw outputError(file, error);
    return { kind: "create", path };
  }
  if (stats.isFile()) {
    // The last link's target must be the file the kernel found (not so for /proc's links to a deleted file).
    const found = lstatOrUndefined(path);
    if (found === undefined || !found.isFile() || found.dev !== stats.dev || found.ino !== stats.ino) {
      throw new MergeError(
        "OUTPUT_WRITE",
        "cannot write the output: cannot find the file its symbolic links lead to",
        { source: { file } },
      );
    }
    return { kind: "replace", path, stats };
  }
  if (stats.isFIFO()) return { kind: "through", path: given, stats, type: "FIFO" };
  if (stats.isCharacterDevice()) return { kind: "through", path: given, stats, type: "character device" };
  const what = stats.isDirectory()
    ? "a directory"
    : stats.isSocket()
      ? "a socket"
      : stats.isBlockDevice()
        ? "a block device"
        : "not a regular file";
  throw new MergeError("OUTPUT_NOT_FILE", `cannot write the output: it is ${what}, which -o never replaces`, {
    source: { file },
  });
}

/**
 * Follows the symbolic links at the end of `start` (the directories on the way are the kernel's business) and
 * returns the path of whatever the last one points to, which may not exist. A link in a shared sticky directory
 * such as /tmp is followed only when it belongs to the user running merge or to the directory's owner — the rule
 * of Linux's `fs.protected_symlinks`, applied here because a rename over the resolved path would bypass it.
 */
function followLinks(start: string, file: string): string {
  let path = start;
  for (let hops = 0; ; hops++) {
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT") return path;
      throw outputError(file, error);
    }
    if (!info.isSymbolicLink()) return path;
    if (hops === MAX_LINKS) throw outputError(file, Object.assign(new Error("ELOOP"), { code: "ELOOP" }));
    checkLinkOwner(path, info, file);
    let text: string;
    try {
      text = readlinkSync(path);
    } catch (error) {
      throw outputError(file, error);
    }
    path = isAbsolute(text) ? text : `${dirname(path)}/${text}`;
  }
}

function checkLinkOwner(link: string, info: Stats, file: string): void {
  const euid = process.geteuid?.();
  if (euid === undefined || info.uid === euid) return;
  const dir = lstatOrUndefined(dirname(link), true);
  if (dir === undefined) return;
  const sharedSticky = (dir.mode & 0o1002) === 0o1002;
  if (sharedSticky && info.uid !== dir.uid) {
    throw new MergeError(
      "OUTPUT_SYMLINK",
      `cannot write the output: ${link} is a symbolic link owned by another user (uid ${info.uid}) in a shared sticky directory; merge does not follow it`,
      { source: { file }, details: { link, owner: info.uid } },
    );
  }
}

function lstatOrUndefined(path: string, follow = false): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return undefined;
  }
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What went wrong, in words, for the system errors writing can meet (the code follows in brackets). */
export function describeSystemError(error: unknown): string {
  const code = errorCode(error);
  const reasons: Record<string, string> = {
    ENOENT: "its directory does not exist",
    EISDIR: "it is a directory",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOSPC: "no space left on device",
    EDQUOT: "disk quota exceeded",
    EFBIG: "the file would be too large",
    EROFS: "read-only file system",
    EIO: "input/output error",
    EPIPE: "the reader went away before everything was written",
    ELOOP: "too many levels of symbolic links",
    ENOTDIR: "a part of its path is not a directory",
    ENAMETOOLONG: "the name is too long",
    ENXIO: "no such device",
    ETXTBSY: "the file is a running program",
  };
  const reason = code === undefined ? undefined : reasons[code];
  if (reason !== undefined) return code === "ENOENT" ? reason : `${reason} (${code})`;
  if (code !== undefined) return code;
  return error instanceof Error ? error.message : "unknown failure";
}

/** `OUTPUT_WRITE` for a system error met while writing `-o FILE`. */
export function outputError(file: string, error: unknown): MergeError {
  return new MergeError("OUTPUT_WRITE", `cannot write the output: ${describeSystemError(error)}`, {
    source: { file },
    cause: error,
  });
}

export function targetChanged(file: string): MergeError {
  return new MergeError(
    "OUTPUT_WRITE",
    "cannot write the output: it changed while merge was writing (another program is using it); nothing was replaced",
    { source: { file } },
  );
}
