import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

describe("merge cloud-config", () => {
  it("merges the seed's run_cmd pair: the second part's merge_how appends", () => {
    const run = merge(["cloud-config", "cloud-config/part1.yml", "cloud-config/part2.yml"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "#cloud-config\n\n# from 2 files\n# cloud-config/part1.yml\n# cloud-config/part2.yml\n\n---\n" +
        "run_cmd:\n- bash1\n- bash2\n- bash3\n- bash4\n...\n",
    );
  });

  it("replaces lists with cloud-init's defaults when no part declares mergers", () => {
    const run = merge(["cloud-config", "cloud-config/part2.yml", "cloud-config/part1.yml"]);
    expect(run.stdout).toMatch(/run_cmd:\n- bash1\n- bash2\n\.\.\.\n$/);
  });

  it("reports a rejected part on standard error and still merges the others", () => {
    const run = merge(["cloud-config", "cloud-config/part1.yml", "cloud-config/not-a-mapping.yml"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: part rejected, as cloud-init would: cloud-config\/not-a-mapping\.yml: .*not a mapping.* \[CLOUD_CONFIG_PART\]\n$/,
    );
    expect(run.stdout).toContain("# from 1 files\n# cloud-config/part1.yml\n");
  });

  it("unpacks a MIME multipart user-data file with its Merge-Type headers and skips other parts", () => {
    const run = merge(["cloud-config", "cloud-config/user-data.mime"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "#cloud-config\n\n# from 2 files\n# base.yml\n# extra.yml\n\n---\npackages:\n- git\n- vim\n...\n",
    );
    expect(run.stderr).toBe(
      "warning: cloud-config/user-data.mime: skipped part hello.sh: text/x-shellscript parts are not cloud-config\n",
    );
  });

  it("takes a #cloud-config-archive file apart as cloud-init does, never as one YAML part", () => {
    const archive = [
      "#cloud-config-archive",
      '- content: "#cloud-config\\nruncmd: [one]\\n"',
      '- {type: text/x-shellscript, content: "echo hi", filename: hi.sh}',
      '- "packages: [git]"',
      "",
    ].join("\n");
    const run = merge(["cloud-config", "-"], { input: archive });
    expect(run.status).toBe(0);
    // What cloud-init 22.4.2 writes for this user-data.
    expect(run.stdout).toBe(
      "#cloud-config\n\n# from 2 files\n# part-001\n# part-003\n\n---\npackages:\n- git\nruncmd:\n- one\n...\n",
    );
    expect(run.stderr).toBe(
      "warning: -: skipped part hi.sh: text/x-shellscript parts are not cloud-config\n",
    );
  });

  it("reads a file that names MIME-Version anywhere in its first 4096 bytes as a MIME message, as cloud-init does", () => {
    // cloud-init 22.4.2 takes the header line before the comment for the part's type, and the rest for its body.
    const headed = "Content-Type: text/cloud-config\n# see mime-version: below\nruncmd: [echo hi]\n";
    const typed = merge(["cloud-config", "-f", "json", "-"], { input: headed });
    expect(typed.status).toBe(0);
    expect(JSON.parse(typed.stdout)).toEqual({ runcmd: ["echo hi"] });
    // A MIME body is read as 7-bit text: cloud-init's YAML reader then refuses the é and writes an empty document.
    const commented = '#cloud-config\n# mime-version: 1.0 is mentioned here\nruncmd: ["echo café"]\n';
    const rejected = merge(["cloud-config", "-"], { input: commented });
    expect(rejected.status).toBe(0);
    expect(rejected.stdout).toBe("#cloud-config\n\n--- {}\n...\n");
    expect(rejected.stderr).toContain("part rejected, as cloud-init would: part-001");
  });

  it("skips a user-data script given alone, as cloud-init runs it instead of merging it", () => {
    const run = merge(["cloud-config", "-f", "json", "-"], { input: "#!/bin/sh\necho hi\n" });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain("CLOUD_CONFIG_PART");
    expect(run.stderr).toContain("skipped part part-001: text/x-shellscript parts are not cloud-config");
  });

  it("applies each part's mergers to the parts after it with --mode stack", () => {
    const run = merge([
      "cloud-config",
      "--mode",
      "stack",
      "cloud-config/part2.yml",
      "cloud-config/part1.yml",
    ]);
    expect(run.stdout).toMatch(/run_cmd:\n- bash3\n- bash4\n- bash1\n- bash2\n/);
  });

  it("reads list(extend) as cloud-init does (replace), and as the seed does (append) with --mode stack", () => {
    const current = merge([
      "cloud-config",
      "-f",
      "json",
      "cloud-config/part1.yml",
      "cloud-config/extend.yml",
    ]);
    expect(current.status).toBe(0);
    expect(JSON.parse(current.stdout)).toEqual({ run_cmd: ["bash5", "bash2"] });
    const stack = merge([
      "cloud-config",
      "-f",
      "json",
      "--mode",
      "stack",
      "cloud-config/extend.yml",
      "cloud-config/part1.yml",
    ]);
    expect(stack.status).toBe(0);
    expect(JSON.parse(stack.stdout)).toEqual({ run_cmd: ["bash5", "bash1", "bash2"] });
  });

  it("refuses an unknown --mode with exit 2", () => {
    const run = merge(["cloud-config", "--mode", "sideways", "cloud-config/part1.yml"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--mode must be current or stack, not "sideways" [USAGE]');
  });

  it("prints JSON without the #cloud-config header", () => {
    const run = merge(["cloud-config", "-f", "json", "cloud-config/part1.yml"]);
    expect(JSON.parse(run.stdout)).toEqual({ run_cmd: ["bash1", "bash2"] });
  });

  it("explains which part supplied each run_cmd item", () => {
    const run = merge(["cloud-config", "--explain", "cloud-config/part1.yml", "cloud-config/part2.yml"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("- bash1 # from cloud-config/part1.yml:3, added by dict(replace)\n");
    expect(run.stdout).toContain("- bash4 # from cloud-config/part2.yml:9, appended by list(append)");
  });

  it("reads gzip user-data from standard input as cloud-init does", async () => {
    const { gzipSync } = await import("node:zlib");
    const { spawnSync } = await import("node:child_process");
    const { BIN, FIXTURES } = await import("./helpers.js");
    const { readFileSync } = await import("node:fs");
    const input = gzipSync(readFileSync(`${FIXTURES}/cloud-config/part1.yml`));
    const run = spawnSync(process.execPath, [BIN, "cloud-config", "-f", "json", "-"], {
      input,
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ run_cmd: ["bash1", "bash2"] });
  });
});
