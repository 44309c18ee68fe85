import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, PACKAGE_DIR, REPO } from "./helpers.js";

// Every ```console block of the README, docs/cli.md and docs/explain.md is run from the repository root with `merge`
// on the PATH; its output must be what the page shows. A last line of `...` (outside YAML) means "the output starts
// with these lines". scripts/refresh-docs.mjs rewrites the blocks from the binary.
function blocksOf(path: string) {
  const text = readFileSync(path, "utf8");
  return [...text.matchAll(/```console\n\$ (.+)\n([\s\S]*?)```/g)].map((match) => ({
    command: match[1]!,
    output: match[2]!,
  }));
}
const blocks = blocksOf(join(PACKAGE_DIR, "README.md"));
// In docs/, the blocks that run in a directory of the repository (`$ cd DIR && ...`); the others show files that are
// not in the repository.
const docBlocks = [
  ...blocksOf(join(REPO, "docs", "cli.md")),
  ...blocksOf(join(REPO, "docs", "explain.md")),
].filter((block) => block.command.startsWith("cd "));

const shim = mkdtempSync(join(tmpdir(), "merge-readme-"));
writeFileSync(join(shim, "merge"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(shim, "merge"), 0o755);

function check(command: string, output: string): void {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${shim}${delimiter}${process.env.PATH}`,
    NO_COLOR: "1",
  };
  // FORCE_COLOR (which test runners set) would win over NO_COLOR.
  delete env.FORCE_COLOR;
  const run = spawnSync("sh", ["-c", command], { cwd: REPO, encoding: "utf8", env });
  expect(run.status).toBe(0);
  const truncated = output.endsWith("\n...\n") && !output.includes("\n---\n");
  if (truncated) expect(run.stdout.startsWith(output.slice(0, -4))).toBe(true);
  else expect(run.stdout).toBe(output);
}

describe("README examples", () => {
  it("has examples to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks)("$command", ({ command, output }) => check(command, output));
});

describe("docs/cli.md and docs/explain.md examples", () => {
  it("has examples to check", () => {
    expect(docBlocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(docBlocks)("$command", ({ command, output }) => check(command, output));
});
