import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Running, startMerge } from "./spawn.js";

let saves = 0;

/**
 * Saves a file as editors do, a new file renamed over the old one, so that the command never reads it half-written
 * (a truncated file is an empty document, which a stack skips with a warning).
 */
function save(path: string, text: string): void {
  const temp = `${path}.${++saves}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/**
 * Resolves once `text()` has `count` occurrences of `marker`, looked at whenever the process writes to standard error;
 * rejects if the process ends first. No clock: it waits for the process, however long a busy machine makes it take.
 */
function until(text: () => string, marker: string, count: number, run: Running): Promise<void> {
  const enough = () => text().split(marker).length - 1 >= count;
  return new Promise((resolve, reject) => {
    if (enough()) return resolve();
    const look = () => {
      if (!enough()) return;
      run.child.stderr?.off("data", look);
      resolve();
    };
    run.child.stderr?.on("data", look);
    run.finished.then(() => {
      run.child.stderr?.off("data", look);
      if (enough()) resolve();
      else reject(new Error(`merge ended before printing "${marker}" ${count} times: ${text()}`));
    });
  });
}

describe("--watch", () => {
  it("renders again when an input changes, reports a bad edit without exiting, and watches the stack's files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-watch-"));
    writeFileSync(join(dir, "stack.cfg"), "base.yml\nhosts/{{ minion_id }}.yml\n");
    writeFileSync(join(dir, "base.yml"), "port: 22\n");
    const hosts = join(dir, "hosts");
    mkdirSync(hosts);
    writeFileSync(join(hosts, "web1.yml"), "role: web\n");
    const run = startMerge(["stack", "stack.cfg", "--minion-id", "web1", "--watch"], { cwd: dir });
    let stdout = "";
    let stderr = "";
    run.child.stdout?.on("data", (chunk: string) => {
      stdout += chunk;
    });
    run.child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
    });
    const err = () => stderr;
    try {
      await until(err, "merge: watching 3 files (Ctrl-C to stop)\n", 1, run);
      expect(stdout).toBe("port: 22\nrole: web\n");

      // A file the stack config listed (not named on the command line) is watched.
      save(join(hosts, "web1.yml"), "role: db\n");
      await until(err, "merge: watching", 2, run);
      expect(stderr).toContain(`merge: ${join("hosts", "web1.yml")} changed, rendering again\n`);
      expect(stdout).toBe("port: 22\nrole: web\nport: 22\nrole: db\n");

      // A bad edit prints the error, never ends the run, and keeps watching what the last good run read.
      save(join(dir, "base.yml"), "port: [\n");
      await until(err, "merge: watching", 3, run);
      expect(stderr).toMatch(/error: base\.yml:1:\d+: .*\[YAML_PARSE\]\nmerge: watching 3 files/);

      // So does a broken stack config, with the file before it still broken.
      save(join(dir, "stack.cfg"), "base.yml\n{% for x in %}\n");
      await until(err, "merge: watching", 4, run);
      expect(stderr).toMatch(/error: .*stack\.cfg.*\]\nmerge: watching 3 files/);

      // Fixing both renders again.
      save(join(dir, "base.yml"), "port: 2222\n");
      await until(err, "merge: watching", 5, run);
      save(join(dir, "stack.cfg"), "base.yml\nhosts/{{ minion_id }}.yml\n");
      await until(err, "merge: watching", 6, run);
      expect(stdout.endsWith("port: 2222\nrole: db\n")).toBe(true);
      expect(run.child.exitCode).toBe(null);
    } finally {
      run.child.kill("SIGTERM");
      await run.finished;
    }
  });
});
