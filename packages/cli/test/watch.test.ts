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
 * Resolves once `done()` holds, looked at whenever the process writes to `stream`; rejects if the process ends first.
 * No clock: it waits for the process, however long a busy machine makes it take.
 */
function when(
  run: Running,
  stream: "stdout" | "stderr",
  done: () => boolean,
  what: () => string,
): Promise<void> {
  const pipe = run.child[stream];
  return new Promise((resolve, reject) => {
    if (done()) return resolve();
    const look = () => {
      if (!done()) return;
      pipe?.off("data", look);
      resolve();
    };
    pipe?.on("data", look);
    run.finished.then(() => {
      pipe?.off("data", look);
      if (done()) resolve();
      else reject(new Error(`merge ended before ${what()}`));
    });
  });
}

/** Resolves once `text()` (standard error) has `count` occurrences of `marker`. */
function until(text: () => string, marker: string, count: number, run: Running): Promise<void> {
  return when(
    run,
    "stderr",
    () => text().split(marker).length - 1 >= count,
    () => `printing "${marker}" ${count} times: ${text()}`,
  );
}

/**
 * Resolves once standard output is `expected` (or, with `ending`, ends with it). Standard output and standard error
 * are two pipes: a result printed before "watching" may still be on its way when that line has arrived.
 */
function output(text: () => string, expected: string, run: Running, ending = false): Promise<void> {
  return when(
    run,
    "stdout",
    () => (ending ? text().endsWith(expected) : text() === expected),
    () => `printing ${JSON.stringify(expected)} (printed ${JSON.stringify(text())})`,
  );
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
    const out = () => stdout;
    try {
      await until(err, "merge: watching 3 files (Ctrl-C to stop)\n", 1, run);
      await output(out, "port: 22\nrole: web\n", run);

      // A file the stack config listed (not named on the command line) is watched.
      save(join(hosts, "web1.yml"), "role: db\n");
      await until(err, "merge: watching", 2, run);
      expect(stderr).toContain(`merge: ${join("hosts", "web1.yml")} changed, rendering again\n`);
      await output(out, "port: 22\nrole: web\nport: 22\nrole: db\n", run);

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
      await output(out, "port: 2222\nrole: db\n", run, true);
      expect(run.child.exitCode).toBe(null);
    } finally {
      run.child.kill("SIGTERM");
      await run.finished;
    }
  });
});
