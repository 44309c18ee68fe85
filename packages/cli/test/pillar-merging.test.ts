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

// --explain of the fold itself: where an entry (or --pillar under ext_pillar_first) changed what the pillar held,
// the story names the strategy that decided. app.yml is a template that does not parse as YAML before rendering:
// --explain names it without lines.
describe("merge pillar --explain records the merges between external pillars", () => {
  function explained(options: string, extra: string[] = []): string {
    const { dir, args } = setup(options);
    writeFileSync(join(dir, "site.cfg"), "site.yml\n");
    writeFileSync(join(dir, "site.yml"), "repo: {mirror: site}\nextra: 2\n");
    writeFileSync(
      join(dir, "master.yml"),
      `ext_pillar:\n  - stack: app.cfg\n  - stack: site.cfg\n${options}`,
    );
    const run = merge([...args.slice(0, -2), "--explain", ...extra], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    return run.stdout;
  }

  it("names the strategy that replaced a value an earlier entry wrote", () => {
    const out = explained("");
    expect(out).toContain("\nextra: 2 # from site.yml:2, replaced by pillar(smart); lost: 1 (app.yml)\n");
    expect(out).toContain(
      "\n  mirror: site # from site.yml:1, replaced by pillar(smart); lost: stack (app.yml)\n",
    );
    // --pillar is an input of its own, before the entries; a list the stack replaced lost to it.
    expect(out).toContain("#   1. top.yml (--pillar)\n#   2. app.yml\n#   3. site.yml\n");
    // The list the stack wrote replaced --pillar's whole: each item is the stack's, even one --pillar also had.
    expect(out).toContain(
      "\nroles: # from app.yml, replaced by pillar(smart) (lists are replaced without pillar_merge_lists); lost: a list (top.yml:2)\n" +
        "- web # from app.yml, replaced by pillar(smart) (lists are replaced without pillar_merge_lists)\n",
    );
  });

  it("puts --pillar last in the story with ext_pillar_first, where Salt merges it", () => {
    const out = explained("ext_pillar_first: true\n", ["--get", "extra"]);
    expect(out).toContain("  app.yml (input 1)\n    had: 1\n    added by stack()\n");
    expect(out).toContain(
      "  site.yml:2 (input 2)\n    had: 2\n    added by stack()\n    replaced by pillar(smart)\n",
    );
    const header = explained("ext_pillar_first: true\n");
    expect(header).toContain("#   3. top.yml (--pillar, merged last: ext_pillar_first)\n");
    expect(header).toMatch(/^env: prod # from top\.yml:1, added by pillar\(smart\)$/m);
  });

  it("says a top-level key the overwrite strategy replaced whole, and keys the list strategy dropped", () => {
    expect(explained("pillar_source_merging_strategy: overwrite\n")).toContain(
      "\nrepo: # from site.yml:1, replaced by pillar(overwrite) (overwrite replaces a key both have whole); lost: a mapping (top.yml:3), a mapping (app.yml)\n",
    );
    expect(explained("pillar_source_merging_strategy: list\n")).toContain(
      "# removed seen: by pillar(list) in app.yml, list keeps only the keys the pillar had\n",
    );
  });
});
