// Test helper: writes a small file tree into a fresh temporary directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Files by relative path; a value `{ link: target }` makes a symlink, a path ending in `/` a directory. */
export function makeTree(files: Record<string, string | { link: string }>): string {
  const root = mkdtempSync(join(tmpdir(), "merge-stack-"));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    if (path.endsWith("/")) {
      mkdirSync(full, { recursive: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    if (typeof content === "string") writeFileSync(full, content);
    else symlinkSync(content.link, full);
  }
  return root;
}
