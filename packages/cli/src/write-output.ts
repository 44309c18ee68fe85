import { randomBytes } from "node:crypto";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { MergeError } from "@merge/core";
import { pendingTempFiles } from "./interrupt.js";

/**
 * Writes `text` to `file` atomically: a temporary file in the same directory (so `rename` never crosses file
 * systems), flushed to disk, then renamed over the target. Readers see the old file or the new one, never a part;
 * on any failure (or Ctrl-C) the old file is left as it was and the temporary file is removed. A replaced file keeps
 * its permission bits.
 */
export async function writeFileAtomic(file: string, text: string, cwd: string): Promise<void> {
  const target = resolve(cwd, file);
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  pendingTempFiles.add(temp);
  try {
    // A file that is replaced keeps its permissions (a pillar written 0600 must not become world-readable).
    const mode = await stat(target).then(
      (info) => (info.isFile() ? info.mode & 0o777 : undefined),
      () => undefined,
    );
    const handle = await open(temp, "wx", mode ?? 0o644);
    try {
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "its directory does not exist"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : error instanceof Error
              ? error.message
              : String(error);
    throw new MergeError("OUTPUT_WRITE", `cannot write the output: ${reason}`, {
      source: { file },
      cause: error,
    });
  } finally {
    pendingTempFiles.delete(temp);
  }
}
