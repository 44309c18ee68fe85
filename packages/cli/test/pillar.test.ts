import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge, REPO } from "./helpers.js";

const STACK = join(REPO, "examples", "stack");

function masterFile(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "merge-cli-pillar-")), "master.yml");
  writeFileSync(file, content);
  return file;
}

describe("merge stack: arguments and input errors", () => {
  it("needs --minion-id", () => {
    const run = merge(["stack", "config.cfg"], { cwd: STACK });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--minion-id is required [USAGE]");
  });

  it("reports a missing grains file", () => {
    const run = merge(["stack", "config.cfg", "--minion-id", "x", "--grains", "nope.yml"], { cwd: STACK });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("error: nope.yml: no such file [FILE_NOT_FOUND]\n");
  });

  it("refuses grains that are not a mapping", () => {
    const run = merge(["stack", "config.cfg", "--minion-id", "x", "--grains", "-"], {
      cwd: STACK,
      input: "- a\n",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: -:1:1: --grains must be a mapping.*\[INPUT_NOT_MAPPING\]\n$/);
  });

  it("warns about a missing stack config and prints an empty pillar, as Salt does", () => {
    const run = merge(["stack", "missing.cfg", "--minion-id", "x"], { cwd: STACK });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr).toContain("[STACK_CONFIG_MISSING]");
  });
});

describe("merge stack and merge pillar: --grains and --pillar reach the templates as read", () => {
  it("keeps a whole float and an int key of a grains or pillar file, as Salt's templates see them", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-cli-exact-input-"));
    writeFileSync(join(dir, "stack.cfg"), "app.yml\n");
    writeFileSync(
      join(dir, "app.yml"),
      "path: /etc/postgresql/{{ __grains__.pg }}/main\n" +
        "port_is_int: {{ 8080 in pillar.ports }}\n" +
        "first_port: {{ pillar.ports.keys()|list|first }}\n",
    );
    writeFileSync(join(dir, "grains.yml"), "pg: 9.0\n");
    writeFileSync(join(dir, "pillar.yml"), "ports: {8080: web, 443: tls}\n");
    const expected = "path: /etc/postgresql/9.0/main\nport_is_int: true\nfirst_port: 8080\n";
    const stack = merge(
      ["stack", "stack.cfg", "--minion-id", "db1", "--grains", "grains.yml", "--pillar", "pillar.yml"],
      { cwd: dir },
    );
    expect(stack.stderr).toBe("");
    expect(stack.stdout).toBe(expected);
    // merge pillar's stack sees the grains as read too.
    writeFileSync(join(dir, "grains-only.cfg"), "paths.yml\n");
    writeFileSync(join(dir, "paths.yml"), "path: /etc/postgresql/{{ __grains__.pg }}/main\n");
    const master = masterFile(`ext_pillar:\n  - stack: ${join(dir, "grains-only.cfg")}\n`);
    const pillar = merge([
      "pillar",
      "--config",
      master,
      "--minion-id",
      "db1",
      "--grains",
      join(dir, "grains.yml"),
    ]);
    expect(pillar.stderr).toBe("");
    expect(pillar.stdout).toBe("path: /etc/postgresql/9.0/main\n");
  });

  it("keeps a whole float of --opts too, and still reads its id as minion text in the config template", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-cli-exact-opts-"));
    mkdirSync(join(dir, "minions"));
    writeFileSync(join(dir, "stack.cfg"), "app.yml\nminions/{{ __opts__.id }}.yml\n");
    writeFileSync(join(dir, "app.yml"), "release: {{ __opts__.release }}\n");
    writeFileSync(join(dir, "minions", "web1.yml"), "secret: web1's\n");
    writeFileSync(join(dir, "opts.yml"), "release: 9.0\nid: web1\n");
    const run = merge(["stack", "stack.cfg", "--minion-id", "web1", "--opts", "opts.yml"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("release: 9.0\nsecret: web1's\n");
    // An id that would add a line to the listing selects nothing.
    writeFileSync(join(dir, "opts.yml"), 'release: 9.0\nid: "x\\nminions/web1"\n');
    const evil = merge(["stack", "stack.cfg", "--minion-id", "evil", "--opts", "opts.yml"], { cwd: dir });
    expect(evil.stdout).toBe("release: 9.0\n");
    expect(evil.stderr).not.toContain("web1's");
  });
});

describe("merge pillar", () => {
  it("starts from --pillar, the pillar compiled before the external ones: they see it, and merge into it", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-cli-pillar-start-"));
    writeFileSync(join(dir, "stack.cfg"), "app.yml\n");
    writeFileSync(
      join(dir, "app.yml"),
      "roles_seen: {{ pillar.roles|join(',') }}\nroles: [stack]\nnested: {b: 2}\n",
    );
    writeFileSync(join(dir, "top.yml"), "roles: [web, db]\nfrom_top: 9.0\nnested: {a: 1}\n");
    const master = masterFile(`ext_pillar:\n  - stack: ${join(dir, "stack.cfg")}\n`);
    const run = merge(["pillar", "--config", master, "--minion-id", "w1", "--pillar", join(dir, "top.yml")]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // Salt's merge of an external pillar: mappings recursively, a list replaced; the file's 9.0 stays a float.
    expect(run.stdout).toBe("roles:\n- stack\nfrom_top: 9.0\nnested:\n  a: 1\n  b: 2\nroles_seen: web,db\n");
    const hosts = join(dir, "hosts.yml");
    writeFileSync(hosts, "- id: w1\n");
    const batch = merge(["pillar", "--config", master, "--minions", hosts, "--pillar", join(dir, "top.yml")]);
    expect(batch.status).toBe(2);
    expect(batch.stderr).toContain("--pillar comes from the --minions file (each host has its own) [USAGE]");
  });

  it("prints the stack's values as Salt holds them: a whole float stays 9.0, int keys stay ints in their order", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-cli-pillar-exact-"));
    writeFileSync(join(dir, "stack.cfg"), "postgres.yml\n");
    writeFileSync(
      join(dir, "postgres.yml"),
      "postgres:\n  version: 9.0\n  data: /etc/postgresql/{{ 9.0 }}/main\n  ports: {8080: a, 443: b}\n",
    );
    const master = masterFile(`ext_pillar:\n  - stack: ${join(dir, "stack.cfg")}\n`);
    const json = merge(["pillar", "--config", master, "--minion-id", "db1", "-f", "json"]);
    expect(json.stderr).toBe("");
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      postgres: { version: 9, data: "/etc/postgresql/9.0/main", ports: { "8080": "a", "443": "b" } },
    });
    // JSON.parse loses what the text keeps: the float's spelling and the keys' order.
    expect(json.stdout).toContain('"version": 9.0');
    expect(json.stdout.indexOf('"8080"')).toBeLessThan(json.stdout.indexOf('"443"'));
    const yaml = merge(["pillar", "--config", master, "--minion-id", "db1"]);
    expect(yaml.status).toBe(0);
    expect(yaml.stdout).toContain("version: 9.0\n");
    // The readable preset keeps the keys in their order, unquoted (ints).
    expect(yaml.stdout).toMatch(/ports:\n {4}8080: a\n {4}443: b\n/);
  });

  it("runs a stack ext_pillar named in a master file, relative to that file", () => {
    const master = masterFile(`ext_pillar:\n  - stack: ${join(STACK, "config.cfg")}\n`);
    const run = merge([
      "pillar",
      "--config",
      master,
      "--minion-id",
      "test-1-dev",
      "--grains",
      join(STACK, "grains.yml"),
      "-f",
      "json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const direct = merge(
      ["stack", "config.cfg", "--minion-id", "test-1-dev", "--grains", "grains.yml", "-f", "json"],
      { cwd: STACK },
    );
    // The stack's own pillar.yml is not given here: the ext_pillar sees only what came before it (nothing).
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(direct.stdout));
  });

  it("explains a stack entry file by file", () => {
    const master = masterFile(`ext_pillar:\n  - stack: ${join(STACK, "config.cfg")}\n`);
    const run = merge(
      [
        "pillar",
        "--config",
        master,
        "--minion-id",
        "test-1-dev",
        "--grains",
        join(STACK, "grains.yml"),
        "--explain",
      ],
      { cwd: REPO },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("#   1. examples/stack/core.yml\n");
    expect(run.stdout).toMatch(/^timezone: UTC # from examples\/stack\/core\.yml:\d+, added by stack\(\)$/m);
  });

  it("skips external pillars it does not run, with a warning naming the line", () => {
    const master = masterFile("ext_pillar:\n  - git: master https://example.invalid/pillar.git\n");
    const run = merge(["pillar", "--config", master, "--minion-id", "x"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr).toBe(
      `warning: ${master}:2 (ext_pillar 1: git): merge runs only stack and mysql external pillars; skipped\n`,
    );
  });

  it("refuses an ext_pillar that is not a list", () => {
    const master = masterFile("ext_pillar:\n  stack: x.cfg\n");
    const run = merge(["pillar", "--config", master, "--minion-id", "x"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `error: ${master}:1:1: ext_pillar must be a list of \`- name: configuration\` entries [MASTER_CONFIG]\n`,
    );
  });

  it("selects a stack by a matcher key of the master file's own type, and gives the templates its opts as read", () => {
    // Salt looks a grain up in the matcher's dict as the master file was read: the key `2` is the int 2, so the
    // grain 2 selects it (and `'2'` would not), and `true` is the bool. __opts__ is that file too, so `9.0` stays a
    // float and `8080` an int key. Recorded with Salt's stack.py.
    const dir = mkdtempSync(join(tmpdir(), "merge-cli-pillar-typed-"));
    writeFileSync(join(dir, "two.cfg"), "two.yml\n");
    writeFileSync(
      join(dir, "two.yml"),
      "pg: {{ __opts__.pg }}\nport_is_int: {{ __opts__.ports.keys()|list|first is number }}\n",
    );
    writeFileSync(join(dir, "flag.cfg"), "flag.yml\n");
    writeFileSync(join(dir, "flag.yml"), "flagged: yes\n");
    writeFileSync(join(dir, "text.cfg"), "text.yml\n");
    writeFileSync(join(dir, "text.yml"), "text: selected\n");
    writeFileSync(
      join(dir, "master.yml"),
      "pg: 9.0\nports: {8080: web}\next_pillar:\n  - stack:\n      grains:num:\n        2: two.cfg\n" +
        "        '1': text.cfg\n      grains:flag:\n        true: flag.cfg\n",
    );
    writeFileSync(join(dir, "grains.yml"), "num: 2\nflag: true\n");
    const expected = "pg: 9.0\nport_is_int: true\nflagged: true\n";
    const one = merge(["pillar", "--config", "master.yml", "--minion-id", "m1", "--grains", "grains.yml"], {
      cwd: dir,
    });
    expect(one.stderr).toBe("");
    expect(one.stdout).toBe(expected);
    writeFileSync(
      join(dir, "hosts.yml"),
      "- id: m1\n  grains: {num: 2, flag: true}\n- id: m2\n  grains: {num: 1}\n",
    );
    const batch = merge(["pillar", "--config", "master.yml", "--minions", "hosts.yml"], { cwd: dir });
    expect(batch.stderr).toBe("");
    expect(batch.stdout).toBe(
      '{"id": "m1", "pillar": {"pg": 9.0, "port_is_int": true, "flagged": true}}\n{"id": "m2", "pillar": {}}\n',
    );
  });

  it("needs --config", () => {
    const run = merge(["pillar", "--minion-id", "x"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--config is required [USAGE]");
  });
});
