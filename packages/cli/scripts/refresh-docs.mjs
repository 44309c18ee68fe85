#!/usr/bin/env node
// Rewrites the output of every ```console block (`$ command` then its output) of the Markdown files named on the
// command line by running the command from the repository root with the built `merge` first on the PATH, so the
// docs show real output. A block whose output ends in a `...` line (outside YAML) keeps as many lines as it showed.
// The tests (readme.test.ts, reference-doc.test.ts, plugin-examples.test.ts) then keep the blocks true.
// It also rewrites the ```text blocks that quote `merge --help` or `merge CMD --help`.
// Usage: node packages/cli/scripts/refresh-docs.mjs docs/cli.md docs/explain.md packages/cli/README.md
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..", "..");
const bin = join(here, "..", "dist", "bin.cjs");
const shim = mkdtempSync(join(tmpdir(), "merge-refresh-"));
writeFileSync(join(shim, "merge"), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
chmodSync(join(shim, "merge"), 0o755);

// No colour: FORCE_COLOR (set by some terminals and runners) would win over NO_COLOR.
const env = { ...process.env, PATH: `${shim}${delimiter}${process.env.PATH}`, NO_COLOR: "1" };
delete env.FORCE_COLOR;

for (const file of process.argv.slice(2)) {
  const path = resolve(file);
  const text = readFileSync(path, "utf8");
  // In docs/, only blocks that start in a directory of the repository (`$ cd DIR && ...`) are real runs; the others
  // show files that are not in the repository. The README's blocks all run from the root.
  const checked = (command) => !path.includes(`${sep}docs${sep}`) || command.startsWith("cd ");
  let out = text.replace(/```console\n\$ (.+)\n([\s\S]*?)```/g, (block, command, output) => {
    if (!checked(command)) return block;
    const run = spawnSync("sh", ["-c", command], {
      cwd: repo,
      encoding: "utf8",
      env,
    });
    let shown = run.stdout + (run.stderr === "" ? "" : "");
    const truncated = output.endsWith("\n...\n") && !output.includes("\n---\n");
    if (truncated) {
      const lines = output.split("\n").length - 2;
      shown = `${run.stdout.split("\n").slice(0, lines).join("\n")}\n...\n`;
    }
    return `\`\`\`console\n$ ${command}\n${shown}\`\`\``;
  });
  // The --help texts docs/cli.md quotes: a ```text block that starts as `merge --help` or `merge CMD --help` does.
  out = out.replace(/```text\n((?:merge \d|Usage: merge )[\s\S]*?)```/g, (block, body) => {
    const command = /^Usage: merge ([a-z-]+)/.exec(body)?.[1];
    const run = spawnSync(process.execPath, [bin, ...(command === undefined ? [] : [command]), "--help"], {
      cwd: repo,
      encoding: "utf8",
      env,
    });
    return run.status === 0 ? `\`\`\`text\n${run.stdout}\`\`\`` : block;
  });
  if (out !== text) {
    writeFileSync(path, out);
    process.stdout.write(`refreshed ${file}\n`);
  }
}
