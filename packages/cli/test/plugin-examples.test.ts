import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, merge, REPO } from "./helpers.js";

// Every plugin example a user is shown — in `merge docs --help` (and so docs/cli.md), in docs/authoring-plugins.md
// and in the example plugins' READMEs — is run as shown and must give the output it promises.

const shim = mkdtempSync(join(tmpdir(), "merge-plugin-examples-"));
writeFileSync(join(shim, "merge"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(shim, "merge"), 0o755);

function shell(command: string, cwd: string) {
  return spawnSync("sh", ["-c", command], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATH: `${shim}${delimiter}${process.env.PATH}`, NO_COLOR: "1" },
  });
}

/** A demo's expected.yml without its comment lines (the command that produced it). */
function expected(example: string): string {
  return readFileSync(join(REPO, "examples", example, "demo", "expected.yml"), "utf8").replace(
    /^#.*\n/gm,
    "",
  );
}

describe("the --plugin example of `merge docs --help`", () => {
  it("merges the users lists of examples/plugin-keyed-list/demo by name, as demo/expected.yml shows", () => {
    const help = merge(["docs", "--help"]).stdout;
    const examples = help
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("merge docs") && line.includes("--plugin"));
    expect(examples.length).toBe(1);
    const run = shell(examples[0]!, join(REPO, "examples", "plugin-keyed-list", "demo"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(expected("plugin-keyed-list"));
    // The lists really were merged: deploy once, with both files' groups.
    expect(run.stdout.match(/name: deploy/g)?.length).toBe(1);
    expect(run.stdout).toContain("  groups:\n  - deploy\n  - www-data\n");
  });
});

describe("docs/authoring-plugins.md", () => {
  const doc = readFileSync(join(REPO, "docs", "authoring-plugins.md"), "utf8");
  const blocks = [...doc.matchAll(/```console\n\$ (.+)\n([\s\S]*?)```/g)].map((match) => ({
    command: match[1]!,
    output: match[2]!,
  }));

  it("has its command examples to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  it.each(blocks)("$command", ({ command, output }) => {
    const run = shell(command, REPO);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(output);
  });
});

describe("the example plugins' READMEs", () => {
  const examples = readdirSync(join(REPO, "examples")).filter((name) => name.startsWith("plugin-"));
  const commands = examples.flatMap((example) => {
    const readme = readFileSync(join(REPO, "examples", example, "README.md"), "utf8");
    return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((match) => match[1]!.replaceAll("\\\n", " ").trim())
      .filter((command) => command.startsWith("merge docs"))
      .map((command) => ({ example, command }));
  });

  it("show a merge docs command for every example plugin", () => {
    expect(new Set(commands.map((entry) => entry.example))).toEqual(new Set(examples));
  });

  it.each(commands)("$example: $command", ({ example, command }) => {
    const run = shell(command, REPO);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(expected(example));
  });
});
