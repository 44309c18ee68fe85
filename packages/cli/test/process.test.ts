import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, FIXTURES, merge } from "./helpers.js";
import { startMerge, withoutPauses } from "./spawn.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "merge-cli-test-"));
}

describe("-o FILE", () => {
  it("writes the result to the file and nothing to standard output", () => {
    const dir = tempDir();
    const out = join(dir, "merged.yml");
    const run = merge(["docs", "docs/base.yml", "-o", out]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe(
      "name: web\nrun_cmd:\n- bash1\n- bash2\nmotd: Welcome\nlimits:\n  nofile: 1024\n",
    );
    expect(readdirSync(dir)).toEqual(["merged.yml"]);
  });

  it("replaces an existing file whole", () => {
    const dir = tempDir();
    const out = join(dir, "merged.json");
    writeFileSync(out, "old content that is much longer than the new one ".repeat(20));
    expect(merge(["docs", "-f", "json", "-o", out, "-"], { input: "a: 1\n" }).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe('{\n  "a": 1\n}\n');
  });

  it("leaves the old file intact and no temporary file behind when the merge fails", () => {
    const dir = tempDir();
    const out = join(dir, "merged.yml");
    writeFileSync(out, "previous: result\n");
    const run = merge(["docs", "docs/base.yml", "docs/bad.yml", "-o", out]);
    expect(run.status).toBe(1);
    expect(readFileSync(out, "utf8")).toBe("previous: result\n");
    expect(readdirSync(dir)).toEqual(["merged.yml"]);
  });

  it("reports a directory that does not exist with OUTPUT_WRITE", () => {
    const out = join(tempDir(), "no", "such", "dir", "out.yml");
    const run = merge(["docs", "docs/base.yml", "-o", out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `error: ${out}: cannot write the output: its directory does not exist [OUTPUT_WRITE]\n`,
    );
  });
});

describe("signals and pipes", () => {
  it("exits 130 on SIGINT while waiting for standard input, with no output and no file written", async () => {
    const dir = tempDir();
    const out = join(dir, "merged.yml");
    // Standard input stays open: the run waits on it. The test hook announces the signal handlers are in place
    // (and waits for SIGUSR2 to go on), so the SIGINT below reaches a process that is reading, not starting.
    const running = startMerge(["docs", "docs/base.yml", "-", "-o", out], {
      cwd: FIXTURES,
      pause: "start",
      stdio: ["pipe", "pipe", "pipe"],
    });
    running.child.stdin?.write("partial: ");
    await running.paused("start");
    // Let it go on to read standard input, and interrupt it: whether the SIGINT is handled at the pause or during
    // the read (the order two pending signals are handled in is the kernel's), the handlers are in place and the
    // outcome must be the same.
    running.child.kill("SIGUSR2");
    running.child.kill("SIGINT");
    const end = await running.finished;
    expect(end.status).toBe(130);
    expect(end.stdout).toBe("");
    expect(withoutPauses(end.stderr)).toBe("");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("stops quietly with status 0 when the reader closes the pipe (EPIPE)", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `key${i}: ${"x".repeat(40)}`).join("\n");
    const child = spawn(process.execPath, [BIN, "docs", "-"], {
      cwd: FIXTURES,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // Read one chunk, then hang up like `head -c 100` does.
    child.stdout.once("data", () => child.stdout.destroy());
    child.stdin.end(big);
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", (status) => resolve(status)),
    );
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
