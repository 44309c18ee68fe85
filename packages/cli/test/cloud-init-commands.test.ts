import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

// system-config, and cloud-config's --instance-data, --system, --validate/--schema and --strict (issue 16).
const dir = mkdtempSync(join(tmpdir(), "merge-cli-cloud-init-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function files(tree: Record<string, string>): void {
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
files({
  "cloud.cfg": "system_info:\n  distro: debian\nruncmd:\n  - echo base\npackage_update: false\n",
  "cloud.cfg.d/50-update.cfg": "package_update: true\n",
  "cloud.cfg.d/90-runcmd.cfg": "runcmd:\n  - echo conf.d\n",
  "cloud.cfg.d/95-list.cfg": "- not a mapping\n",
  "cloud.cfg.d/README": "ignored: true\n",
  "base.yaml": "#cloud-config\npackages: [nginx]\nruncmd:\n  - echo one\n",
  "web.yaml":
    "## template: jinja\n#cloud-config\nhostname: web-{{ v1.instance_id }}\nruncmd:\n  - echo {{ v1.region }} {{ v1.zone }}\n",
  "instance-data.json": '{"v1": {"instance_id": "i-0abc", "region": "eu-west-1"}}\n',
  "bad.yaml": '#cloud-config\npackage_update: "yes"\nruncmd: 5\n',
  "schema.json": JSON.stringify({
    type: "object",
    properties: {
      package_update: { type: "boolean" },
      runcmd: { type: "array" },
      hostname: { type: "string" },
    },
  }),
  "typo.yaml": "#cloud-config\nmerge_how: 'list(apend)+dict()'\na: 1\n",
});

describe("merge system-config", () => {
  it("merges cloud.cfg and its conf.d as cloud-init does, warning about the files it steps over", () => {
    const run = merge(["system-config", "cloud.cfg"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("runcmd:\n- echo conf.d\npackage_update: true\nsystem_info:\n  distro: debian\n");
    expect(run.stderr).toBe(
      "warning: cloud.cfg.d/95-list.cfg holds list, not a mapping; cloud-init reads it as {} [SYSTEM_CONFIG_IGNORED]\n",
    );
  });

  it("explains which file and line each value came from", () => {
    const run = merge(["system-config", "cloud.cfg", "--explain"], { cwd: dir });
    expect(run.stdout).toContain("#   4. cloud.cfg.d/95-list.cfg (ignored)");
    expect(run.stdout).toMatch(/^package_update: true # from cloud\.cfg\.d\/50-update\.cfg:1/m);
    expect(run.stdout).toMatch(/^ {2}distro: debian # from cloud\.cfg:2/m);
  });

  it("reads another conf.d with --confd, and fails on an ignored file with --strict", () => {
    files({ "other.d/x.cfg": "package_update: maybe\n" });
    const run = merge(["system-config", "cloud.cfg", "--confd", "other.d", "-f", "json"], { cwd: dir });
    expect(JSON.parse(run.stdout)).toEqual({
      package_update: "maybe",
      system_info: { distro: "debian" },
      runcmd: ["echo base"],
    });
    const strict = merge(["system-config", "cloud.cfg", "--strict"], { cwd: dir });
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toBe(
      "error: cloud.cfg.d/95-list.cfg: the file holds list, not a mapping; cloud-init reads it as {} [SYSTEM_CONFIG]\n" +
        "error: --strict: 1 problem; nothing written [STRICT]\n",
    );
  });

  it("validates against a schema, naming the file and line of each offending value", () => {
    const run = merge(["system-config", "cloud.cfg", "--confd", "other.d", "--schema", "schema.json"], {
      cwd: dir,
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      "other.d/x.cfg:1: package_update: is not of type 'boolean' [SCHEMA_VALIDATION]",
    );
  });
});

describe("merge cloud-config", () => {
  it("renders ## template: jinja parts with --instance-data, as cloud-init does, and skips them without", () => {
    const run = merge(["cloud-config", "base.yaml", "web.yaml", "--instance-data", "instance-data.json"], {
      cwd: dir,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "#cloud-config\n\n# from 2 files\n# base.yaml\n# web.yaml\n\n---\nhostname: web-i-0abc\npackages:\n- nginx\nruncmd:\n- echo eu-west-1 CI_MISSING_JINJA_VAR/zone\n...\n",
    );
    expect(run.stderr).toBe(
      "warning: web.yaml: the template: the instance data has no 'zone', printed as CI_MISSING_JINJA_VAR/... as cloud-init does\n",
    );
    const without = merge(["cloud-config", "base.yaml", "web.yaml"], { cwd: dir });
    expect(without.stdout).toContain("# from 1 files\n# base.yaml\n");
    expect(without.stderr).toMatch(/web\.yaml: the template skipped: .*\(give --instance-data FILE\)/);
  });

  it("with --system gives what the modules see: the user-data over the system configuration", () => {
    const run = merge(["cloud-config", "base.yaml", "--system", "cloud.cfg", "-f", "json"], { cwd: dir });
    expect(run.status).toBe(0);
    // system_info is dropped (cloud-init's Init.cfg); the user-data's runcmd wins over conf.d's.
    expect(JSON.parse(run.stdout)).toEqual({
      packages: ["nginx"],
      runcmd: ["echo one"],
      package_update: true,
    });
  });

  it("validates with --schema: each error names the part and line; --strict makes them fatal", () => {
    const run = merge(["cloud-config", "base.yaml", "bad.yaml", "--schema", "schema.json"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      "warning: invalid cloud-config: bad.yaml:2: package_update: is not of type 'boolean' [SCHEMA_VALIDATION]\n" +
        "warning: invalid cloud-config: bad.yaml:3: runcmd: is not of type 'array' [SCHEMA_VALIDATION]\n",
    );
    const strict = merge(["cloud-config", "base.yaml", "bad.yaml", "--schema", "schema.json", "--strict"], {
      cwd: dir,
    });
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toMatch(
      /^error: bad\.yaml:3:1: is not of type 'array' \(at runcmd\) \[SCHEMA_VALIDATION\]$/m,
    );
    expect(strict.stderr).toMatch(/--strict: 2 problems; nothing written \[STRICT\]\n$/);
  });

  it("reports an unreadable schema as SCHEMA_LOAD", () => {
    const run = merge(["cloud-config", "base.yaml", "--schema", "nope.json"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/nope\.json.*\[SCHEMA_LOAD\]/);
  });

  it("resolves specs against cloud-init's mergers only, and --strict fails on unknown options", () => {
    files({ "stack.yaml": "#cloud-config\nmerge_how: 'stack()'\na: 1\n" });
    const stack = merge(["cloud-config", "stack.yaml"], { cwd: dir });
    expect(stack.stderr).toMatch(/unknown merger "stack".*\[UNKNOWN_MERGER\]/);
    const strictStack = merge(["cloud-config", "stack.yaml", "--strict"], { cwd: dir });
    expect(strictStack.status).toBe(1);
    const typo = merge(["cloud-config", "typo.yaml"], { cwd: dir });
    expect(typo.status).toBe(0);
    expect(typo.stderr).toMatch(/unknown option "apend" \(cloud-init ignores it\)/);
    expect(merge(["cloud-config", "typo.yaml", "--strict"], { cwd: dir }).status).toBe(1);
  });
});
