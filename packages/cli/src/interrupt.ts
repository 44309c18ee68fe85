import { rmSync } from "node:fs";

/**
 * Temporary files being written right now. On SIGINT they are removed before exiting, so an interrupted `-o` run
 * leaves neither a partial output nor a stray temp file, and the old file stays as it was.
 */
export const pendingTempFiles: Set<string> = new Set();

export function removePendingTempFiles(): void {
  for (const file of pendingTempFiles) {
    try {
      rmSync(file, { force: true });
    } catch {
      // Best effort while exiting: a file we cannot remove is reported by nothing and harms nothing.
    }
  }
  pendingTempFiles.clear();
}
