import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { BIN, merge, PACKAGE_DIR, REPO, STACK_EXAMPLE_ARGS } from "./helpers.js";

const DIST = join(PACKAGE_DIR, "dist");

/**
 * A hook that records the Node built-in modules a run loaded (`process.moduleLoadList`) at its exit: `env` runs it,
 * `read()` gives the last run's list.
 */
function moduleRecorder(): { env: Record<string, string>; read: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), "merge-modules-"));
  const list = join(dir, "modules.txt");
  const hook = join(dir, "record.mjs");
  // The hook require()s node:fs as the bundle does: an `import` of it would itself load what is looked for here.
  writeFileSync(
    hook,
    'import { createRequire } from "node:module";\n' +
      'const { writeFileSync } = createRequire(import.meta.url)("node:fs");\n' +
      `process.on("exit", () => writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`,
  );
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(hook).href}` },
    read: () => readFileSync(list, "utf8").split("\n"),
  };
}

/** The Node built-in modules a run of the built command loaded, recorded at its exit. */
function modulesLoaded(args: readonly string[], cwd: string, cacheHome?: string): string[] {
  const { env, read } = moduleRecorder();
  // With a cache home: the installed entry, bin/merge.cjs, and its compile cache (test/compile-cache.test.ts).
  const run =
    cacheHome === undefined
      ? merge(args, { cwd, env, binary: true })
      : spawnSync(process.execPath, [join(PACKAGE_DIR, "bin", "merge.cjs"), ...args], {
          cwd,
          encoding: "utf8",
          env: { ...process.env, ...env, XDG_CACHE_HOME: cacheHome, MERGE_NO_COMPILE_CACHE: undefined },
        });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return read();
}

// What the bundle does for start-up (rolldown.config.ts): built-ins taken with require(), without an ES-module face,
// node:crypto only where a file is written, and ASCII-only chunks. Each of these costs a short command milliseconds when lost.
describe("what the built command loads", () => {
  it("merge cloud-config loads neither node:crypto nor Node's file streams", () => {
    const dir = join(REPO, "examples", "cloud-config", "runcmd-doc");
    const loaded = modulesLoaded(["cloud-config", "01-mappings.yaml", "02-mappings.yaml"], dir);
    expect(loaded).toContain("NativeModule fs"); // the record is real: the command did read its files
    expect(loaded).not.toContain("NativeModule crypto");
    expect(loaded).not.toContain("NativeModule internal/fs/streams");
  });

  it("merge stack loads neither node:crypto nor Node's file streams", () => {
    const dir = join(REPO, "examples", "stack");
    const loaded = modulesLoaded(STACK_EXAMPLE_ARGS, dir);
    expect(loaded).not.toContain("NativeModule crypto");
    expect(loaded).not.toContain("NativeModule internal/fs/streams");
  });

  it("merge stack through bin/merge.cjs loads neither, before its compile cache is written and after", () => {
    const dir = join(REPO, "examples", "stack");
    const cacheHome = mkdtempSync(join(tmpdir(), "merge-modules-cache-"));
    for (const round of ["fresh", "cached"]) {
      const loaded = modulesLoaded(STACK_EXAMPLE_ARGS, dir, cacheHome);
      expect({ round, crypto: loaded.includes("NativeModule crypto") }).toEqual({ round, crypto: false });
      expect({ round, streams: loaded.includes("NativeModule internal/fs/streams") }).toEqual({
        round,
        streams: false,
      });
    }
  });

  it("bin/merge.cjs looks for a `merge daemon` without loading networking when none runs", () => {
    // The look is two stats; node:net (and node:tty, which needs it) load only when a daemon's socket is there.
    const dir = mkdtempSync(join(tmpdir(), "merge-modules-daemon-"));
    const recorder = moduleRecorder();
    // Standard output and error are files: a pipe would load net for Node's stream of it.
    const out = openSync(join(dir, "out"), "w");
    const err = openSync(join(dir, "err"), "w");
    const run = spawnSync(process.execPath, [join(PACKAGE_DIR, "bin", "merge.cjs"), "--version"], {
      cwd: dir,
      stdio: ["ignore", out, err],
      env: { ...process.env, ...recorder.env, XDG_RUNTIME_DIR: dir, MERGE_NO_DAEMON: undefined },
    });
    closeSync(out);
    closeSync(err);
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "out"), "utf8")).toMatch(/^\d+\.\d+\.\d+\n$/);
    const loaded = recorder.read();
    expect(loaded).toContain("NativeModule fs");
    expect(loaded).not.toContain("NativeModule net");
  });

  it("writes standard output and error that are files without Node's streams for them, and all of it", () => {
    // Node's stream for a file (what process.stdout is then) loads its modules on first use; a write to the file
    // descriptor does what that stream would (src/stdio.ts). A warning goes to standard error in the same way.
    const dir = mkdtempSync(join(tmpdir(), "merge-stdio-"));
    const tree = join(REPO, "examples", "stack");
    const recorder = moduleRecorder();
    const expected = merge(STACK_EXAMPLE_ARGS, { cwd: tree, binary: true });
    const missing = merge([...STACK_EXAMPLE_ARGS, "nosuch.cfg"], { cwd: tree, binary: true });
    expect(missing.stderr).toContain("nosuch.cfg");
    for (const [name, args, want] of [
      ["result", STACK_EXAMPLE_ARGS, expected],
      ["warning", [...STACK_EXAMPLE_ARGS, "nosuch.cfg"], missing],
    ] as const) {
      const out = openSync(join(dir, `${name}.out`), "w");
      const err = openSync(join(dir, `${name}.err`), "w");
      const run = spawnSync(process.execPath, [BIN, ...args], {
        cwd: tree,
        stdio: ["ignore", out, err],
        env: { ...process.env, ...recorder.env },
      });
      closeSync(out);
      closeSync(err);
      expect({ name, status: run.status }).toEqual({ name, status: want.status });
      expect(readFileSync(join(dir, `${name}.out`), "utf8")).toBe(want.stdout);
      expect(readFileSync(join(dir, `${name}.err`), "utf8")).toBe(want.stderr);
      const loaded = recorder.read();
      expect(loaded).toContain("NativeModule fs");
      expect({ name, stream: loaded.includes("NativeModule internal/fs/sync_write_stream") }).toEqual({
        name,
        stream: false,
      });
    }
  });

  it("writing a file with -o still works (node:crypto is loaded there, for the temporary name)", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-modules-out-"));
    writeFileSync(join(dir, "a.yml"), "a: 1\n");
    const run = merge(["docs", "a.yml", "-o", "out.yml"], { cwd: dir, binary: true });
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe("a: 1\n");
  });

  it("every chunk is ASCII CommonJS whose import() calls go through the loader's require.import", () => {
    const files = ["bin.cjs", ...readdirSync(join(DIST, "chunks")).map((name) => join("chunks", name))];
    expect(files.length).toBeGreaterThan(5);
    let withImport = 0;
    for (const file of files) {
      const code = readFileSync(join(DIST, file), "utf8");
      // In UTF-8, a text is as many bytes as characters only when every character is ASCII.
      expect({ file, nonAscii: Buffer.byteLength(code) !== code.length }).toEqual({ file, nonAscii: false });
      // bin/compile-cache.cjs compiles each file as the body of CommonJS's function wrapper.
      const body = code.replace(/^#!/, "//");
      expect(
        () => new Script(`(function (exports, require, module, __filename, __dirname) {\n${body}\n})`),
      ).not.toThrow();
      // A script compiled from V8's cache on Node 20 has no working import(): the one left is the fallback for a
      // chunk Node loads itself, next to the use of the loader's.
      const imports = code.match(/\bimport\(/g) ?? [];
      expect({ file, imports: imports.length }).toEqual({ file, imports: Math.min(imports.length, 1) });
      if (imports.length > 0) {
        expect(code).toContain("require.import");
        withImport += 1;
      }
    }
    expect(withImport).toBeGreaterThan(0); // bin.cjs's import() of the unbundled modules for --plugin, at least
  });
});
