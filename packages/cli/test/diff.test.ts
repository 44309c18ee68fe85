import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge, REPO } from "./helpers.js";

const STACK = join(REPO, "examples", "stack");
const OPTIONS = ["--grains", "grains.yml", "--pillar", "pillar.yml"];

describe("merge diff", () => {
  it("compares two files: each path added, removed or changed with where it came from; exit 1", () => {
    const run = merge(["diff", "docs/strings-a.yml", "docs/strings-b.yml"]);
    expect(run.status).toBe(1);
    expect(run.stdout.split("\n").slice(0, 2)).toEqual(["--- docs/strings-a.yml", "+++ docs/strings-b.yml"]);
    expect(run.stdout).toMatch(/\n\d+ differences?: \d+ added, \d+ removed, \d+ changed\n$/);
  });

  it("exits 0 with no differences for two equal results", () => {
    const run = merge(["diff", "docs/base.yml", "docs/base.yml"]);
    expect(run).toMatchObject({
      status: 0,
      stdout: "--- docs/base.yml\n+++ docs/base.yml\nno differences\n",
    });
  });

  it("compares two hosts of one tree, with the provenance of both sides", () => {
    const run = merge(
      ["diff", "stack", "config.cfg", "--minion-id", "test-1-dev", "--minion-id", "test-2-prod", ...OPTIONS],
      {
        cwd: STACK,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "~ sshd.port\n    - 2200   from minions/test-1-dev.yml:9, replaced by stack() (__: overwrite)\n    + 22   from core.yml:22, added by stack()\n",
    );
    expect(run.stdout).toContain(
      "- monitoring.labels.rack: r12   from minions/test-1-dev.yml:13, added by stack()\n",
    );
    expect(run.stdout).toContain(
      "+ postgresql.databases[1]: reporting   from roles/db.yml:8, added by stack()\n",
    );
    // Each side's warnings are tagged with the side.
    expect(run.stderr).toContain("[test-2-prod] warning:");
  });

  it("compares one host in two trees (--against DIR), and one key only with --get", () => {
    const copy = mkdtempSync(join(tmpdir(), "merge-diff-"));
    cpSync(STACK, copy, { recursive: true });
    const minion = join(copy, "minions", "test-1-dev.yml");
    writeFileSync(minion, readFileSync(minion, "utf8").replace("port: 2200", "port: 2222"));
    const args = ["diff", "stack", "config.cfg", "--minion-id", "test-1-dev", ...OPTIONS, "--against", copy];
    const run = merge(args, { cwd: STACK });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("~ sshd.port\n    - 2200   from minions/test-1-dev.yml:9");
    expect(run.stdout).toContain("    + 2222   from minions/test-1-dev.yml:9");
    expect(run.stdout).toMatch(/\n1 difference: 0 added, 0 removed, 1 changed\n$/);
    expect(merge([...args, "--get", "postgresql"], { cwd: STACK }).status).toBe(0);
    const json = JSON.parse(merge([...args, "--format", "json"], { cwd: STACK }).stdout) as {
      same: boolean;
      changes: { change: string; path: string; old: { value: unknown }; new: { value: unknown } }[];
    };
    expect(json.same).toBe(false);
    expect(json.changes).toEqual([
      expect.objectContaining({
        change: "changed",
        path: "sshd.port",
        old: expect.objectContaining({ value: 2200 }),
        new: expect.objectContaining({ value: 2222 }),
      }),
    ]);
  });

  it("exits 2 on trouble: an error on either side, or nothing telling the sides apart", () => {
    const missing = merge(["diff", "docs/base.yml", "missing.yml"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("[FILE_NOT_FOUND]");
    const same = merge(["diff", "docs", "docs/base.yml"]);
    expect(same.status).toBe(2);
    expect(same.stderr).toContain("nothing tells the two sides apart");
  });
});
