import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

// A one-file stack whose result overlaps the pillar_roots pillar (--pillar) in a list, a mapping and a scalar, and
// which records what `pillar` its template saw. Expected values are what Salt's compile_pillar gives for the same
// master options (salt/pillar/__init__.py with salt.utils.dictupdate.merge), restated here.
function setup(options: string): { dir: string; args: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "merge-cli-pillar-merging-"));
  writeFileSync(join(dir, "app.cfg"), "app.yml\n");
  writeFileSync(
    join(dir, "app.yml"),
    "roles: [web, db, web]\nrepo: {mirror: stack}\nseen: {{ pillar.get('env', 'none') }}\nextra: 1\n",
  );
  writeFileSync(join(dir, "top.yml"), "env: prod\nroles: [base, web]\nrepo: {keep: 1}\n");
  writeFileSync(join(dir, "master.yml"), `ext_pillar:\n  - stack: app.cfg\n${options}`);
  return {
    dir,
    args: ["pillar", "--config", "master.yml", "--minion-id", "m1", "--pillar", "top.yml", "-f", "json"],
  };
}

function compiled(options: string): { value: unknown; stderr: string; status: number | null } {
  const { dir, args } = setup(options);
  const run = merge(args, { cwd: dir });
  return {
    value: run.status === 0 ? JSON.parse(run.stdout) : undefined,
    stderr: run.stderr,
    status: run.status,
  };
}

describe("merge pillar follows the master's pillar merging options", () => {
  it("replaces lists by default", () => {
    expect(compiled("").value).toEqual({
      env: "prod",
      roles: ["web", "db", "web"],
      repo: { keep: 1, mirror: "stack" },
      seen: "prod",
      extra: 1,
    });
  });

  it("joins lists with pillar_merge_lists, adding only the items the pillar's list lacks", () => {
    const run = compiled("pillar_merge_lists: true\n");
    expect(run.stderr).toBe("");
    expect(run.value).toEqual({
      env: "prod",
      roles: ["base", "web", "db"],
      repo: { keep: 1, mirror: "stack" },
      seen: "prod",
      extra: 1,
    });
  });

  it("replaces a shared top-level mapping whole with the overwrite strategy", () => {
    expect(compiled("pillar_source_merging_strategy: overwrite\n").value).toEqual({
      env: "prod",
      roles: ["web", "db", "web"],
      repo: { mirror: "stack" },
      seen: "prod",
      extra: 1,
    });
  });

  it("pairs shared top-level values and keeps only the pillar's keys with the list strategy", () => {
    expect(compiled("pillar_source_merging_strategy: list\n").value).toEqual({
      env: "prod",
      roles: [
        ["base", "web"],
        ["web", "db", "web"],
      ],
      repo: [{ keep: 1 }, { mirror: "stack" }],
    });
  });

  it("runs the external pillars first from an empty pillar, then merges --pillar over them, with ext_pillar_first", () => {
    const run = compiled("ext_pillar_first: true\npillar_merge_lists: true\n");
    expect(run.value).toEqual({
      roles: ["web", "db", "web", "base"],
      repo: { mirror: "stack", keep: 1 },
      seen: "none",
      extra: 1,
      env: "prod",
    });
    // Key order is part of the result: the stack's keys come first.
    expect(Object.keys(run.value as object)).toEqual(["roles", "repo", "seen", "extra", "env"]);
  });

  it("skips the entries exclude_ext_pillar names", () => {
    expect(compiled("exclude_ext_pillar: [stack]\n").value).toEqual({
      env: "prod",
      roles: ["base", "web"],
      repo: { keep: 1 },
    });
  });

  it("warns about an unknown strategy and merges recursively without joining lists, as Salt falls back", () => {
    const run = compiled("pillar_source_merging_strategy: deep\npillar_merge_lists: true\n");
    expect(run.stderr).toContain('unknown pillar_source_merging_strategy "deep"');
    expect(run.value).toEqual({
      env: "prod",
      roles: ["web", "db", "web"],
      repo: { keep: 1, mirror: "stack" },
      seen: "prod",
      extra: 1,
    });
  });

  it("refuses the aggregate strategy, yamlex's merge, with a coded error", () => {
    const run = compiled("renderer: jinja|yamlex\n");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/aggregate.*not supported.*\[MASTER_CONFIG\]/);
  });

  it("applies the same options to every host of --minions", () => {
    const { dir } = setup("ext_pillar_first: true\n");
    writeFileSync(join(dir, "hosts.yml"), "- id: m1\n  pillar: {env: prod, roles: [base]}\n");
    const run = merge(["pillar", "--config", "master.yml", "--minions", "hosts.yml"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.trim())).toMatchObject({
      id: "m1",
      pillar: { roles: ["base"], repo: { mirror: "stack" }, seen: "none", extra: 1, env: "prod" },
    });
  });
});
