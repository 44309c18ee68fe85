import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

describe("merge docs", () => {
  it("merges with the seed's spec as the seed means it: the seed's run_cmd example gives bash1..bash4", () => {
    const run = merge(["docs", "docs/base.yml", "docs/override.yml"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "name: web\nrun_cmd:\n- bash1\n- bash2\n- bash3\n- bash4\nmotd: Welcome to web1\nlimits:\n  nofile: 1024\n  nproc: 512\n",
    );
  });

  it("keeps existing values with today's cloud-init dict() given as a spec, and lets later files win with stack()", () => {
    const kept = merge([
      "docs",
      "--spec",
      "list(extend)+dict()+str(append)",
      "docs/base.yml",
      "docs/override.yml",
    ]);
    expect(kept.stdout).toBe(
      "name: web\nrun_cmd:\n- bash1\n- bash2\nmotd: Welcome\nlimits:\n  nofile: 1024\n  nproc: 512\n",
    );
    // The seed's spec keeps the first file's numbers (nofile: 1024); stack() lets the later file override them.
    const input = "limits: {nofile: 4096}\n";
    expect(merge(["docs", "docs/base.yml", "-"], { input }).stdout).toMatch(/^ {2}nofile: 1024$/m);
    const later = merge(["docs", "--spec", "stack()", "docs/base.yml", "-"], { input });
    expect(later.stdout).toMatch(/^ {2}nofile: 4096$/m);
    const override = merge(["docs", "--spec", "stack()", "docs/base.yml", "docs/override.yml"]);
    expect(override.stdout).toMatch(/^motd: ' to web1'$/m);
  });

  it("reads an empty spec as the defaults, as cloud-init reads an empty merge_how", () => {
    const defaults = merge(["docs", "docs/base.yml", "docs/override.yml"]);
    for (const empty of ["", "  "]) {
      const run = merge(["docs", "--spec", empty, "docs/base.yml", "docs/override.yml"]);
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(defaults.stdout);
    }
  });

  it("never drops the documents silently when the spec has no merger for a mapping", () => {
    const run = merge(["docs", "--spec", "list(append)", "docs/base.yml", "docs/override.yml"]);
    // What cloud-init does (the configuration stays as it was: {}), said out loud.
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr).toBe(
      "warning: the spec 'list(append)' has no merger for a mapping, so the result stays {} and the content of " +
        "docs/base.yml, docs/override.yml is dropped (as cloud-init keeps a configuration its mergers cannot " +
        "merge into); add dict() to the spec [MERGE_DROPPED]\n",
    );
    const strict = merge(["docs", "--strict", "--spec", "list(append)", "docs/base.yml"]);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toContain("[MERGE_DROPPED]");
    expect(strict.stderr).toContain("[STRICT]");
    // A spec with a mapping merger says nothing.
    expect(merge(["docs", "--spec", "list(append)+dict()", "docs/base.yml"]).stderr).toBe("");
  });

  it("warns about an option a merger does not know, and fails on it with --strict", () => {
    const lenient = merge(["docs", "--spec", "list(apend)+dict()", "docs/base.yml"]);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toMatch(
      /^warning: merger list\(apend\): unknown option "apend" \(cloud-init ignores it\)/,
    );
    const strict = merge(["docs", "--strict", "--spec", "list(apend)+dict()", "docs/base.yml"]);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe("");
    expect(strict.stderr).toMatch(
      /\[UNKNOWN_OPTION\]\nerror: --strict: 1 problem; nothing written \[STRICT\]\n$/,
    );
  });

  it("appends lists and strings when the spec asks for recursion", () => {
    const run = merge([
      "docs",
      "--spec",
      "list(append)+dict(recurse_list,recurse_str)+str(append)",
      "docs/base.yml",
      "docs/override.yml",
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "name: web\nrun_cmd:\n- bash1\n- bash2\n- bash3\n- bash4\nmotd: Welcome to web1\nlimits:\n  nofile: 1024\n  nproc: 512\n",
    );
  });

  it("reads standard input for -", () => {
    const run = merge(["docs", "--spec", "dict(replace)", "docs/base.yml", "-"], {
      input: "name: from-stdin\n",
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^name: from-stdin$/m);
  });

  it("warns about empty standard input and merges nothing from it", () => {
    const run = merge(["docs", "-"], { input: "" });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr).toBe("warning: standard input: empty document, nothing to merge\n");
  });

  it("writes JSON with --format json", () => {
    const run = merge(["docs", "--format", "json", "docs/base.yml"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      name: "web",
      run_cmd: ["bash1", "bash2"],
      motd: "Welcome",
      limits: { nofile: 1024 },
    });
  });

  it("reads YAML 1.2 by default, 1.1 with --yaml 1.1, and quotes strings a YAML 1.1 reader would misread", () => {
    const input = "mode: 0755\nflag: yes\ntext: 'on'\non: 12:30\n";
    expect(merge(["docs", "-"], { input }).stdout).toBe(
      "mode: 755\nflag: 'yes'\ntext: 'on'\n'on': '12:30'\n",
    );
    expect(merge(["docs", "--yaml", "1.1", "-"], { input }).stdout).toBe(
      "mode: 493\nflag: true\ntext: 'on'\ntrue: 750\n",
    );
    const bad = merge(["docs", "--yaml", "2", "-"], { input });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--yaml must be 1\.1 or 1\.2/);
  });

  it("reports a missing file as file: message [FILE_NOT_FOUND] with exit 1", () => {
    const run = merge(["docs", "docs/base.yml", "nope.yml"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("error: nope.yml: no such file [FILE_NOT_FOUND]\n");
  });

  it("reports a directory given as a file with FILE_READ", () => {
    const run = merge(["docs", "docs"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("error: docs: cannot read: is a directory, not a file [FILE_READ]\n");
  });

  it("reports YAML errors as file:line:col", () => {
    // YAML 1.2 (the default) marks where the yaml package sees the error; 1.1 where PyYAML does.
    expect(merge(["docs", "docs/bad.yml"]).stderr).toMatch(
      /^error: docs\/bad\.yml:3:1: .+ \[YAML_PARSE\]\n {4}3 \| other: 3\n {6}\| \^\n$/,
    );
    const run = merge(["docs", "--yaml", "1.1", "docs/bad.yml"]);
    expect(run.status).toBe(1);
    // PyYAML's mark too: a flow sequence runs on whatever the indentation, and `other:` ends it with a ':'.
    expect(run.stderr).toMatch(
      /^error: docs\/bad\.yml:3:6: .+ \[YAML_PARSE\]\n {4}3 \| other: 3\n {6}\| {6}\^\n$/,
    );
  });

  it("reports a malformed spec with its offset", () => {
    const run = merge(["docs", "--spec", "list(append)+oops", "docs/base.yml"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('spec "list(append)+oops" at offset 13');
    expect(run.stderr).toMatch(/\[SPEC_SYNTAX\]\n$/);
  });

  it("reports an unknown merger with the registered ones", () => {
    const run = merge(["docs", "--spec", "nope()", "docs/base.yml"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('unknown merger "nope"; registered mergers: dict, list, stack, str');
    expect(run.stderr).toMatch(/\[UNKNOWN_MERGER\]\n$/);
  });

  it("points a merge failure at the file, line and key path of the document being merged", () => {
    const run = merge([
      "docs",
      "--plugin",
      "./plugins/boom.mjs",
      "--spec",
      "dict(recurse_str)+boom()",
      "docs/strings-a.yml",
      "docs/strings-b.yml",
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "error: docs/strings-b.yml:2:3: boom was asked to merge a string (at service.name) [BOOM]\n",
    );
  });

  it("refuses standard input named twice", () => {
    const run = merge(["docs", "-", "-"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("standard input (-) can be named only once");
  });

  it("refuses an unknown --format with exit 2", () => {
    const run = merge(["docs", "--format", "xml", "docs/base.yml"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--format must be yaml or json, not "xml" [USAGE]');
  });

  it("keeps a __proto__ key as data in YAML and JSON output", () => {
    const input = '{"__proto__": {"polluted": true}, "a": 1}';
    const yaml = merge(["docs", "-"], { input });
    expect(yaml.stdout).toBe("__proto__:\n  polluted: true\na: 1\n");
    const json = merge(["docs", "--format", "json", "-"], { input });
    expect(json.stdout).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "a": 1\n}\n');
  });

  it("turns a YAML alias bomb into SIZE_LIMIT instead of expanding it", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 0; i < 9; i++) {
      const name = String.fromCharCode(98 + i);
      const previous = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(",")}]`);
    }
    const run = merge(["docs", "-"], { input: `${lines.join("\n")}\n` });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: -:\d+:\d+: .*\[SIZE_LIMIT\]\n$/);
  });

  it("turns nesting 10^5 deep into DEPTH_LIMIT", () => {
    const run = merge(["docs", "-"], { input: `${"[".repeat(100_000)}${"]".repeat(100_000)}\n` });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[DEPTH_LIMIT\]\n$/);
  });

  it("refuses object-constructing tags with a coded error", () => {
    const run = merge(["docs", "-"], { input: "a: !!python/object/apply:os.system ['echo hi']\n" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: -:1:\d+: .*\[[A-Z_]+\]\n$/);
  });
});
