import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, FIXTURES, merge } from "./helpers.js";

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
      "name: web\nrun_cmd:\n  - bash1\n  - bash2\nmotd: Welcome\nlimits:\n  nofile: 1024\n",
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
  it("exits 130 on SIGINT with no output and no file written", async () => {
    const dir = tempDir();
    const out = join(dir, "merged.yml");
    // Waiting on standard input that never ends: the run is interrupted mid-way.
    const child = spawn(process.execPath, [BIN, "docs", "docs/base.yml", "-", "-o", out], {
      cwd: FIXTURES,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.write("partial: ");
    // Give the process time to start and block on standard input (a wait, not a timing assertion).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", (status) => resolve(status)),
    );
    expect(code).toBe(130);
    expect(stdout).toBe("");
    expect(stderr).toBe("");
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
