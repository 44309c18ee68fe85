import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { FIXTURES, merge } from "../helpers.js";
import { startMerge } from "../spawn.js";

reportCounts("@merge/cli", import.meta.url);

const dir = mkdtempSync(join(tmpdir(), "merge-cli-traces-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SHAPES = join(FIXTURES, "plugins", "shapes.mjs");
writeFileSync(join(dir, "a.yml"), "a: 1\n");

/**
 * What every failure must look like: exactly one line on stderr, ending in a code, with no JavaScript stack frame,
 * no error class name of the engine's internals and no raw control character.
 */
function expectOneCodedLine(stderr: string, code: string): void {
  expect(stderr.split("\n")).toHaveLength(2);
  expect(stderr).toMatch(new RegExp(`^(error|internal error): .*\\[${code}\\]\\n$`));
  expect(stderr).not.toMatch(/\n\s+at |node:internal|file:\/\//);
  expect(stderr).not.toMatch(/RangeError|Maximum call stack/);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is that none reach the terminal
  expect(stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
}

/** Runs the CLI with standard output going to /dev/full (`merge ... > /dev/full`). */
async function toFullDevice(args: string[]) {
  const full = openSync("/dev/full", "w");
  try {
    return await startMerge(args, { cwd: dir, stdio: ["ignore", full, "pipe"] }).finished;
  } finally {
    closeSync(full);
  }
}

describe("standard output that cannot be written", () => {
  it("reports ENOSPC on standard output as one OUTPUT_WRITE line with status 1, for every kind of output", async () => {
    const commands = [
      ["docs", "a.yml"],
      ["docs", "a.yml", "-f", "json"],
      ["docs", "--explain", "a.yml"],
      ["cloud-config", "a.yml"],
      ["mergers"],
      ["--version"],
      ["--help"],
      ["docs", "--help"],
    ];
    for (const args of commands) {
      const end = await toFullDevice(args);
      expect(end.status, args.join(" ")).toBe(1);
      expect(end.stderr).toBe(
        "error: standard output: cannot write the output: no space left on device (ENOSPC) [OUTPUT_WRITE]\n",
      );
    }
    tally("faults", commands.length);
  });

  it("still exits 1 when standard error cannot be written either", async () => {
    const full = openSync("/dev/full", "w");
    try {
      const end = await startMerge(["docs", "missing.yml"], { cwd: dir, stdio: ["ignore", "pipe", full] })
        .finished;
      expect(end.status).toBe(1);
      expect(end.stdout).toBe("");
    } finally {
      closeSync(full);
    }
    tally("faults", 1);
  });
});

describe("values too deep or cyclic to print", () => {
  const outputs = [[], ["-f", "json"], ["--explain"], ["--explain", "-f", "json"]];

  it("refuses a result nested past 500 levels as one DEPTH_LIMIT line, in YAML, JSON and --explain", () => {
    let cases = 0;
    for (const depth of [501, 3000, 100_000]) {
      // The deepest one in the default output only: past the check, depth costs nothing more.
      for (const output of depth === 100_000 ? outputs.slice(0, 1) : outputs) {
        const args = ["docs", "--plugin", SHAPES, "--spec", `deep(${depth})`, "a.yml", "a.yml", ...output];
        const run = merge(args, { cwd: dir });
        expect(run.status, args.join(" ")).toBe(1);
        expect(run.stdout).toBe("");
        expectOneCodedLine(run.stderr, "DEPTH_LIMIT");
        expect(run.stderr).toMatch(/^error: the result nests deeper than 500 levels/);
        cases++;
      }
    }
    tally("size", cases);
  });

  it("prints a result exactly 500 levels deep, which merge reads back to the same text", () => {
    for (const output of outputs) {
      const run = merge(["docs", "--plugin", SHAPES, "--spec", "deep(500)", "a.yml", "a.yml", ...output], {
        cwd: dir,
      });
      expect(run.status, `${output.join(" ")}: ${run.stderr}`).toBe(0);
      expect(run.stderr).toBe("");
      if (output.length === 0) {
        const again = merge(["docs", "-"], { cwd: dir, input: run.stdout });
        expect(again.status, again.stderr).toBe(0);
        expect(again.stdout === run.stdout, "read back the same").toBe(true);
      }
    }
    tally("size", outputs.length);
  });

  it("refuses a result that contains itself as one CYCLIC_INPUT line", () => {
    for (const output of outputs) {
      const run = merge(["docs", "--plugin", SHAPES, "--spec", "deep(cycle)", "a.yml", "a.yml", ...output], {
        cwd: dir,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expectOneCodedLine(run.stderr, "CYCLIC_INPUT");
    }
    tally("size", outputs.length);
  });
});

describe("failures that are no one's input", () => {
  it("reports a promise a plugin left rejected as one INTERNAL line, status 1", () => {
    // The binary: what happens to a promise nobody waited for is up to the process.
    const run = merge(["docs", "--plugin", SHAPES, "--spec", "deep(late)", "a.yml", "a.yml"], {
      cwd: dir,
      binary: true,
    });
    expect(run.status).toBe(1);
    expectOneCodedLine(run.stderr, "INTERNAL");
    expect(run.stderr).toMatch(/^internal error: Error: a promise nobody waited for .*a bug in merge/);
    // MERGE_DEBUG=1 asks for the stack trace, for a bug report.
    const debug = merge(["docs", "--plugin", SHAPES, "--spec", "deep(late)", "a.yml", "a.yml"], {
      cwd: dir,
      env: { MERGE_DEBUG: "1" },
      binary: true,
    });
    expect(debug.status).toBe(1);
    expect(debug.stderr).toMatch(/\[INTERNAL\]\nError: a promise nobody waited for\n\s+at /);
    tally("faults", 2);
  });

  it("reports a plugin module that throws a value without a text form as one PLUGIN_LOAD line", () => {
    const plugin = join(dir, "throws-null.mjs");
    writeFileSync(plugin, "throw Object.create(null);\n");
    const run = merge(["docs", "--plugin", plugin, "a.yml"], { cwd: dir });
    expect(run.status).toBe(1);
    expectOneCodedLine(run.stderr, "PLUGIN_LOAD");
    tally("faults", 1);
  });

  it("reports a plugin package whose package.json is broken as one PLUGIN_LOAD line", () => {
    const project = join(dir, "project");
    mkdirSync(join(project, "node_modules", "broken-plugin"), { recursive: true });
    writeFileSync(join(project, "node_modules", "broken-plugin", "package.json"), "{ not json");
    writeFileSync(join(project, "a.yml"), "a: 1\n");
    const run = merge(["docs", "--plugin", "broken-plugin", "a.yml"], { cwd: project });
    expect(run.status).toBe(1);
    expectOneCodedLine(run.stderr, "PLUGIN_(LOAD|NOT_FOUND)");
    tally("faults", 1);
  });

  it("reports standard input that is a directory as one FILE_READ line", async () => {
    const stdin = openSync(dir, "r");
    try {
      const end = await startMerge(["docs", "-"], { cwd: dir, stdio: [stdin, "pipe", "pipe"] }).finished;
      expect(end.status).toBe(1);
      expectOneCodedLine(end.stderr, "FILE_READ");
      expect(end.stderr).toMatch(/^error: standard input: /);
    } finally {
      closeSync(stdin);
    }
    tally("faults", 1);
  });

  it("shows line breaks and escape sequences in names and messages as escapes, keeping one line", () => {
    const names = ["bad\nname.yml", "bad\u001b[31mred.yml", "bad\u2028sep.yml", "bad\u0085nel.yml"];
    for (const name of names) {
      const run = merge(["docs", name], { cwd: dir });
      expect(run.status).toBe(1);
      expectOneCodedLine(run.stderr, "FILE_NOT_FOUND");
    }
    expect(merge(["docs", names[0]!], { cwd: dir }).stderr).toBe(
      "error: bad\\nname.yml: no such file [FILE_NOT_FOUND]\n",
    );
    tally("faults", names.length);
  });
});
