import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { merge, PACKAGE_DIR, REPO, STACK_EXAMPLE_ARGS } from "./helpers.js";

const DIST = join(PACKAGE_DIR, "dist");

/** The Node built-in modules a run of the built command loaded (`process.moduleLoadList`), recorded at its exit. */
function modulesLoaded(args: readonly string[], cwd: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "merge-modules-"));
  const list = join(dir, "modules.txt");
  const hook = join(dir, "record.mjs");
  // The hook takes node:fs as the bundle does: an `import` of it would itself load what is looked for here.
  writeFileSync(
    hook,
    'const { writeFileSync } = process.getBuiltinModule("node:fs");\n' +
      `process.on("exit", () => writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`,
  );
  const run = merge(args, {
    cwd,
    env: { NODE_OPTIONS: `--import ${pathToFileURL(hook).href}` },
    binary: true,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return readFileSync(list, "utf8").split("\n");
}

// What the bundle does for start-up (rolldown.config.ts): built-ins taken without an ES-module face, node:crypto
// only where a file is written, and ASCII-only chunks. Each of these costs a short command milliseconds when lost.
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

  it("writing a file with -o still works (node:crypto is loaded there, for the temporary name)", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-modules-out-"));
    writeFileSync(join(dir, "a.yml"), "a: 1\n");
    const run = merge(["docs", "a.yml", "-o", "out.yml"], { cwd: dir, binary: true });
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "out.yml"), "utf8")).toBe("a: 1\n");
  });

  it("every chunk is ASCII and takes Node's built-ins without a static import", () => {
    const files = ["bin.js", ...readdirSync(join(DIST, "chunks")).map((name) => join("chunks", name))];
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const code = readFileSync(join(DIST, file), "utf8");
      // In UTF-8, a text is as many bytes as characters only when every character is ASCII.
      expect({ file, nonAscii: Buffer.byteLength(code) !== code.length }).toEqual({ file, nonAscii: false });
      expect({ file, staticImport: /\bfrom\s*["'`]node:/.test(code) }).toEqual({ file, staticImport: false });
    }
  });
});
