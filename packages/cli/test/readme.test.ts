import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, PACKAGE_DIR, REPO } from "./helpers.js";

// Every ```console block of the README is run from the repository root with `merge` on the PATH; its output must be
// what the README shows. A last line of `...` (outside YAML) means "the output starts with these lines".
const readme = readFileSync(join(PACKAGE_DIR, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```console\n\$ (.+)\n([\s\S]*?)```/g)].map((match) => ({
  command: match[1]!,
  output: match[2]!,
}));

const shim = mkdtempSync(join(tmpdir(), "merge-readme-"));
writeFileSync(join(shim, "merge"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(shim, "merge"), 0o755);

describe("README examples", () => {
  it("has examples to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks)("$command", ({ command, output }) => {
    const run = spawnSync("sh", ["-c", command], {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, PATH: `${shim}${delimiter}${process.env.PATH}`, NO_COLOR: "1" },
    });
    expect(run.status).toBe(0);
    const truncated = output.endsWith("\n...\n") && !output.includes("\n---\n");
    if (truncated) expect(run.stdout.startsWith(output.slice(0, -4))).toBe(true);
    else expect(run.stdout).toBe(output);
  });
});
