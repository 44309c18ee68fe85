import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

const RECURSIVE = "list(append)+dict(recurse_list,recurse_str)+str(append)";

interface ValueRecord {
  path: string;
  kind: string;
  value?: unknown;
  from: { file: string; line: number | null } | null;
  decided: { action: string; merger: string; file: string | null } | null;
}

describe("merge docs --explain", () => {
  it("annotates every value with the file:line it came from and the merger that decided it", () => {
    const run = merge(["docs", "--explain", "--spec", RECURSIVE, "docs/base.yml", "docs/override.yml"]);
    expect(run.status).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `# merge docs --spec '${RECURSIVE}'`,
      "# inputs, in merge order:",
      "#   1. docs/base.yml",
      "#   2. docs/override.yml",
    ]);
    expect(run.stdout).toContain(
      "name: web # from docs/base.yml:2, added by dict(recurse_list,recurse_str)\n",
    );
    expect(run.stdout).toContain("- bash1 # from docs/base.yml:4, added by dict(recurse_list,recurse_str)\n");
    expect(run.stdout).toContain("- bash3 # from docs/override.yml:3, appended by list(append)");
    expect(run.stdout).toContain(
      "motd: Welcome to web1 # from docs/override.yml:5, concatenated by str(append); lost: Welcome (docs/base.yml:6)\n",
    );
    expect(run.stdout).toContain(
      "  nproc: 512 # from docs/override.yml:7, added by dict(recurse_list,recurse_str)\n",
    );
  });

  it("says when a value was kept against a later document", () => {
    // Today's cloud-init dict() (the default spec recurses into strings and would join them).
    const spec = "list(extend)+dict()+str(append)";
    const run = merge(["docs", "--explain", "--spec", spec, "docs/strings-a.yml", "docs/strings-b.yml"]);
    expect(run.stdout).toMatch(
      / {2}name: api # from docs\/strings-a\.yml:2, kept by dict\(\) over docs\/strings-b\.yml:2/,
    );
  });

  it("gives one JSON record per value with --format json", () => {
    const run = merge([
      "docs",
      "--explain",
      "--format",
      "json",
      "--spec",
      RECURSIVE,
      "docs/base.yml",
      "docs/override.yml",
    ]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      result: Record<string, unknown>;
      documents: { index: number; name: string }[];
      values: ValueRecord[];
    };
    expect(report.result.motd).toBe("Welcome to web1");
    expect(report.documents).toEqual([
      { index: 0, name: "docs/base.yml", contributed: true },
      { index: 1, name: "docs/override.yml", contributed: true },
    ]);
    const byPath = new Map(report.values.map((value) => [value.path, value]));
    expect(byPath.get("run_cmd[3]")).toMatchObject({
      kind: "value",
      value: "bash4",
      from: { file: "docs/override.yml", line: 4 },
      decided: { action: "appended", merger: "list(append)" },
    });
    expect(byPath.get("motd")).toMatchObject({
      value: "Welcome to web1",
      decided: { merger: "str(append)", file: "docs/override.yml" },
    });
    expect(byPath.get("limits.nofile")?.from).toMatchObject({ file: "docs/base.yml", line: 8 });
  });

  it("explains keyed list items merged by the plugin from the example package", () => {
    const run = merge(
      [
        "docs",
        "--explain",
        "--plugin",
        "@merge/example-plugin-keyed-list",
        "--spec",
        "keyed(name)+dict(recurse_list)+str()",
        "../../../../examples/plugin-keyed-list/demo/users-base.yml",
        "../../../../examples/plugin-keyed-list/demo/users-site.yml",
      ],
      {},
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /\n- # from \S+users-site\.yml:6, appended by keyed\(name\)\n {2}name: backup # from \S+users-site\.yml:6, appended by keyed\(name\)\n/,
    );
  });

  it("costs nothing in the output when not asked for", () => {
    const run = merge(["docs", "docs/base.yml"]);
    expect(run.stdout).not.toContain("#");
  });

  it("explains hostile keys as data", () => {
    const input = '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}}';
    const run = merge(["docs", "--spec", "stack()", "--explain", "-f", "json", "-"], { input });
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { values: ValueRecord[] };
    const paths = report.values.map((value) => value.path);
    expect(paths).toEqual([
      "",
      "__proto__",
      "__proto__.polluted",
      "constructor",
      "constructor.prototype",
      "constructor.prototype.x",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("merge stack --explain on values a template put in the stack", () => {
  it("explains the same stack the plain run prints: template-made values changed in place, lists made anew", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-explain-made-"));
    const files: Record<string, string> = {
      "stack.cfg": "a.yml\nb.yml\nc.yml\nd.yml\n",
      "a.yml": "u: {k: 1}\nl: [1]\n",
      "b.yml": "{% do stack.update({'v': stack.u, 'w': stack.l}) %}\nu: {m: 2}\nl: [2]\n",
      "c.yml":
        "{% set x = {'k': 1} %}{% do stack.update({'p': x, 'q': x}) %}u: {__: remove, k: ~}\nl: [{__: merge-first}, 0]\nv: {z: 1}\n",
      "d.yml": "p: {k2: 2}\n",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const args = ["stack", "stack.cfg", "--minion-id", "web1", "-f", "json"];
    const plain = JSON.parse(merge(args, { cwd: dir }).stdout) as unknown;
    // As Salt computes it: v is u (changed together), w keeps the list it was given, q is p.
    expect(plain).toEqual({
      u: { m: 2, z: 1 },
      l: [0, 1, 2],
      v: { m: 2, z: 1 },
      w: [1],
      p: { k: 1, k2: 2 },
      q: { k: 1, k2: 2 },
    });
    const explained = JSON.parse(merge([...args, "--explain"], { cwd: dir }).stdout) as { result: unknown };
    expect(explained.result).toEqual(plain);
  });
});
