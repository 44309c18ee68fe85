import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge, PACKAGE_DIR } from "./helpers.js";

const version = (JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string })
  .version;

describe("merge (top level)", () => {
  it("prints the package version with --version and -V", () => {
    for (const flag of ["--version", "-V"]) {
      const run = merge([flag]);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.stderr).toBe("");
    }
  });

  it("lists every command with --help", () => {
    const run = merge(["--help"]);
    expect(run.status).toBe(0);
    for (const command of ["docs", "cloud-config", "mergers"])
      expect(run.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(run.stdout).toContain("Exit status: 0 ok, 1 input or data error, 2 usage error");
  });

  it("shows the help on standard error and exits 2 without a command", () => {
    const run = merge([]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Usage: merge <command>");
  });

  it("refuses an unknown command with exit 2 and a pointer to --help", () => {
    const run = merge(["frobnicate"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("merge: unknown command \"frobnicate\" [USAGE]\nRun 'merge --help' for usage.\n");
  });

  it("refuses an unknown option with exit 2", () => {
    const run = merge(["docs", "--frob", "a.yml"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("merge: unknown option --frob [USAGE]");
    expect(run.stderr).toContain("Run 'merge docs --help' for usage.");
  });

  it("refuses an option without its value with exit 2", () => {
    const run = merge(["docs", "a.yml", "--spec"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("[USAGE]");
  });

  it.each(["docs", "cloud-config", "mergers"])(
    "shows usage, options and examples for %s --help",
    (command) => {
      const run = merge([command, "--help"]);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: merge ${command}`));
      expect(run.stdout).toContain("Options:");
      expect(run.stdout).toMatch(new RegExp(`Examples:\\n  merge ${command}`));
    },
  );

  it("answers `merge help <command>` like `merge <command> --help`", () => {
    expect(merge(["help", "docs"]).stdout).toBe(merge(["docs", "--help"]).stdout);
  });

  it("prints no colour codes when standard error is not a terminal", () => {
    const run = merge(["docs", "missing.yml"]);
    expect(run.stderr).not.toContain("\u001b[");
  });

  it("lists the built-in mergers and those of --plugin", () => {
    const run = merge(["mergers", "--plugin", "./plugins/factory.mjs"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^list {2}\(handles list\)/m);
    expect(run.stdout).toMatch(/^dict {2}\(handles dict\)/m);
    expect(run.stdout).toMatch(/^str {2}\(handles string\)/m);
    expect(run.stdout).toMatch(/^upper {2}\(handles string\)\n {2}keep {2}keep the old string$/m);
  });
});
