import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { merge, REPO, STACK_EXAMPLE_ARGS } from "./helpers.js";

// The repository's runnable examples, run through the binary and compared with the outputs checked in beside them.
const EXAMPLES = join(REPO, "examples");

function expected(path: string, flavor: "pyyaml" | "salt" = "pyyaml"): unknown {
  return loadYaml(readFileSync(join(EXAMPLES, path), "utf8"), { flavor });
}

describe("examples/stack", () => {
  const dir = join(EXAMPLES, "stack");
  const args = STACK_EXAMPLE_ARGS;

  it("renders test-1-dev as expected.yml says", () => {
    const run = merge([...args, "--format", "json"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected("stack/expected.yml", "salt"));
  });

  it("gives the same data in YAML", () => {
    const run = merge(args, { cwd: dir });
    expect(loadYaml(run.stdout, { flavor: "salt" })).toEqual(expected("stack/expected.yml", "salt"));
  });

  it("explains the stack: files in merge order and the removals done by __: remove", () => {
    const run = merge([...args, "--explain"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      "#   1. core.yml\n#   2. common/xxx.yml\n#   3. common/yyy.yml\n#   4. osarchs/amd64.yml\n" +
        "#   5. oscodenames/jessie.yml\n#   6. roles/db.yml\n#   7. minions/test-1-dev.yml\n",
    );
    expect(run.stdout).toMatch(/^# removed users\.deploy: by stack\(\) in roles\/db\.yml:\d+$/m);
    expect(run.stdout).toMatch(/^timezone: UTC # from core\.yml:\d+, added by stack\(\)$/m);
    // With --explain the data is the same as without.
    const plain = merge([...args, "--format", "json"], { cwd: dir });
    const explained = merge([...args, "--format", "json", "--explain"], { cwd: dir });
    expect(JSON.parse(explained.stdout).result).toEqual(JSON.parse(plain.stdout));
  });

  it("accepts another merger spec", () => {
    const run = merge([...args, "--spec", "list(extend)+dict(replace)+str()", "--format", "json"], {
      cwd: dir,
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).not.toEqual(expected("stack/expected.yml", "salt"));
  });
});

describe("examples/pillar", () => {
  const dir = join(EXAMPLES, "pillar");
  const args = ["pillar", "--config", "master.yml", "--minion-id", "web1", "--pillar", "top.yml"];

  it("compiles web1's pillar as expected.yml says (Salt's stack.py folded by dictupdate.merge)", () => {
    const run = merge([...args, "--format", "json"], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected("pillar/expected.yml", "salt"));
  });

  it("credits each item of a list joined by pillar_merge_lists to its own input, --pillar's included", () => {
    const run = merge([...args, "--explain"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      "#   1. top.yml (--pillar)\n#   2. base/common.yml\n#   3. site/web.yml\n" +
        "timezone: UTC # from base/common.yml:1, replaced by pillar(smart); lost: Etc/UTC (top.yml:2)\n",
    );
    expect(run.stdout).toContain(
      "packages: # from top.yml, base/common.yml, site/web.yml\n" +
        "- htop # from top.yml:7\n" +
        "- curl # from base/common.yml:7, appended by pillar(smart) (pillar_merge_lists)\n" +
        "- nginx # from site/web.yml:4, appended by pillar(smart) (pillar_merge_lists)\n",
    );
    // With --explain the data is the same as without.
    const explained = merge([...args, "--format", "json", "--explain"], { cwd: dir });
    expect(JSON.parse(explained.stdout).result).toEqual(expected("pillar/expected.yml", "salt"));
  });

  it("tells, in the story of a key, the step where a later entry replaced an earlier one's value", () => {
    const run = merge([...args, "--get", "sshd:port", "--explain"], { cwd: dir });
    expect(run.stdout).toBe(
      [
        'Searching for "sshd:port" (sshd.port)',
        "  in: merge pillar --config master.yml --minion-id web1",
        "  base/common.yml:10 (input 2)",
        "    had: 22",
        "  site/web.yml:2 (input 3)",
        "    had: 2222",
        "    replaced by pillar(smart)",
        "  no value there in 1 other input: top.yml",
        "Final value: 2222 (from site/web.yml:2)",
        "Values that lost: 22 (base/common.yml:10)",
        "",
      ].join("\n"),
    );
  });
});

describe("examples/cloud-config", () => {
  it("writes the seed's run_cmd pair byte for byte as cloud-init does", () => {
    const dir = join(EXAMPLES, "cloud-config", "seed-run-cmd");
    const run = merge(["cloud-config", "01.yaml", "02.yaml"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(dir, "expected-current-cloud-config.txt"), "utf8"));
  });

  it("extends run_cmd in stack mode as the seed designs it", () => {
    const dir = join(EXAMPLES, "cloud-config", "seed-run-cmd");
    const run = merge(["cloud-config", "--mode", "stack", "-f", "json", "01.yaml", "02.yaml"], { cwd: dir });
    expect(JSON.parse(run.stdout)).toEqual(expected("cloud-config/seed-run-cmd/expected-stack.yaml"));
  });

  it("writes cloud-init's documented runcmd example byte for byte", () => {
    const dir = join(EXAMPLES, "cloud-config", "runcmd-doc");
    const parts = ["01-mappings.yaml", "02-mappings.yaml", "03-lists.yaml", "04-string.yaml"];
    const run = merge(["cloud-config", ...parts], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(dir, "expected-cloud-config.txt"), "utf8"));
  });

  it("merges the MIME user-data file to the value cloud-init wrote", () => {
    const dir = join(EXAMPLES, "cloud-config", "user-data");
    const run = merge(["cloud-config", "-f", "json", "user-data.mime"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expected("cloud-config/user-data/expected.yaml"));
    expect(run.stderr).toContain("skipped part setup.sh");
  });

  it("explains the user-data file part by part, the JSON patch and the part after it included", () => {
    const dir = join(EXAMPLES, "cloud-config", "user-data");
    const run = merge(["cloud-config", "--explain", "user-data.mime"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^hostname: web-2 # from late\.yaml:\d+, replaced by dict\(replace\); lost: web-1 \(base\.yaml:\d+\)$/m,
    );
    // The header says which mergers each part used and where they came from.
    expect(run.stdout).toMatch(
      /^# {3}1\. base\.yaml \(merged with dict\(replace\)\+list\(\)\+str\(\), cloud-init's default: it declares no merge_how\)$/m,
    );
    expect(run.stdout).toMatch(/^- curl # from patch\.jsonp$/m);
    expect(run.stdout).toMatch(/^- vim # from more\.yaml:\d+, appended by list\(append\)/m);
  });
});

describe("examples/plugin-keyed-list", () => {
  it("merges users by name through `merge docs --plugin`", () => {
    const dir = join(EXAMPLES, "plugin-keyed-list", "demo");
    const file = join(dir, "expected.yml");
    expect(existsSync(file)).toBe(true);
    const run = merge(
      [
        "docs",
        "--plugin",
        "@merge/example-plugin-keyed-list",
        "--spec",
        "keyed(name)+stack()",
        "users-base.yml",
        "users-site.yml",
      ],
      { cwd: dir },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(readFileSync(file, "utf8").replace(/^#.*\n/gm, ""));
  });
});

describe("--explain output", () => {
  it("is still YAML that reads back to the same data", () => {
    const cases: [string, string[]][] = [
      [join(EXAMPLES, "stack"), [...STACK_EXAMPLE_ARGS]],
      [join(EXAMPLES, "cloud-config", "user-data"), ["cloud-config", "user-data.mime"]],
      [
        join(EXAMPLES, "cloud-config", "runcmd-doc"),
        ["cloud-config", "01-mappings.yaml", "02-mappings.yaml", "03-lists.yaml", "04-string.yaml"],
      ],
    ];
    for (const [cwd, args] of cases) {
      const plain = merge([...args, "-f", "json"], { cwd });
      const explained = merge([...args, "--explain"], { cwd });
      expect(explained.status).toBe(0);
      expect(loadYaml(explained.stdout, { flavor: "salt" })).toEqual(JSON.parse(plain.stdout));
    }
  });
});
