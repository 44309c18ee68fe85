import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

describe("merge completion", () => {
  it("prints a bash script that bash accepts and that completes commands and options", () => {
    const run = merge(["completion", "bash"]);
    expect(run.status).toBe(0);
    expect(spawnSync("bash", ["-n"], { input: run.stdout }).status).toBe(0);
    // Complete `merge st` and `merge docs --fo` in a real bash.
    const complete = (line: string) =>
      spawnSync(
        "bash",
        [
          "-c",
          `${run.stdout}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _merge_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        {
          encoding: "utf8",
        },
      ).stdout;
    expect(complete("merge st").split("\n")).toContain("stack");
    expect(complete("merge docs --fo").split("\n")).toContain("--format");
    expect(run.stdout).toContain("merge-config");
  });

  it("prints zsh and fish scripts naming every command", () => {
    for (const shell of ["zsh", "fish"]) {
      const run = merge(["completion", shell]);
      expect(run.status).toBe(0);
      for (const command of [
        "docs",
        "cloud-config",
        "stack",
        "mysql",
        "pillar",
        "mergers",
        "diff",
        "completion",
      ]) {
        expect(run.stdout).toContain(command);
      }
    }
  });

  it("refuses another shell with exit 2", () => {
    const run = merge(["completion", "tcsh"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("[USAGE]");
  });
});
