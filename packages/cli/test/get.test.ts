import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge, REPO, STACK_EXAMPLE_ARGS } from "./helpers.js";

const STACK = join(REPO, "examples", "stack");
const HOST = STACK_EXAMPLE_ARGS;

function stack(args: readonly string[]) {
  return merge([...HOST, ...args], { cwd: STACK });
}

describe("--get KEY", () => {
  it("prints the value at a Salt a:b:c key, a dotted key and a list index, and nothing else", () => {
    expect(stack(["--get", "sshd:port"])).toMatchObject({ status: 0, stdout: "2200\n" });
    expect(stack(["--get", "sshd.port"]).stdout).toBe("2200\n");
    expect(stack(["--get", "postgresql.databases[0]"]).stdout).toBe("app_dev\n");
    expect(stack(["--get", "postgresql:databases:0"]).stdout).toBe("app_dev\n");
    expect(stack(["--get", "backup:paths:-1"]).stdout).toBe("/var/lib/postgresql\n");
  });

  it("prints a mapping as YAML or JSON, and quotes a string YAML 1.1 would misread", () => {
    expect(stack(["--get", "sshd"]).stdout).toBe("port: 2200\npermit_root_login: 'no'\n");
    expect(stack(["--get", "sshd", "-f", "json"]).stdout).toBe(
      '{\n  "port": 2200,\n  "permit_root_login": "no"\n}\n',
    );
    expect(stack(["--get", "sshd.permit_root_login"]).stdout).toBe("'no'\n");
  });

  it("writes a whole float as Python holds it", () => {
    const run = merge(["docs", "--get", "version", "-"], { input: "version: 9.0\n" });
    expect(run.stdout).toBe("9.0\n");
    expect(merge(["docs", "--get", "version", "-f", "json", "-"], { input: "version: 9.0\n" }).stdout).toBe(
      "9.0\n",
    );
  });

  it("keeps a stack's whole float a float, as Salt computes the stack", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-get-"));
    writeFileSync(join(dir, "stack.cfg"), "a.yml\n");
    writeFileSync(join(dir, "a.yml"), "version: 9.0\nports: {8080: web}\n");
    const args = ["stack", "stack.cfg", "--minion-id", "web1"];
    expect(merge([...args, "--get", "version"], { cwd: dir }).stdout).toBe("9.0\n");
    expect(merge([...args, "--get", "ports.8080"], { cwd: dir }).stdout).toBe("web\n");
    expect(merge(args, { cwd: dir }).stdout).toBe("version: 9.0\nports:\n  8080: web\n");
  });

  it("exits 1 with the nearest existing path when the key names nothing", () => {
    const run = stack(["--get", "sshd:prot"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'error: no value at "sshd:prot": sshd is a mapping with keys port, permit_root_login (did you mean sshd.port?) (at sshd) [KEY_NOT_FOUND]\n',
    );
    const list = stack(["--get", "postgresql.databases.7"]);
    expect(list.status).toBe(1);
    expect(list.stderr).toContain("postgresql.databases is a list of 1 item (indexes 0 to 0)");
  });
});

describe("--get KEY --explain", () => {
  it("tells the story of one key: every input that had a value there, what decided, the final value and what lost", () => {
    const run = stack(["--get", "sshd:port", "--explain"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        'Searching for "sshd:port" (sshd.port)',
        "  in: merge stack --minion-id test-1-dev",
        "  core.yml:22 (input 1)",
        "    had: 22",
        "  minions/test-1-dev.yml:9 (input 7)",
        "    had: 2200",
        "    with its parent: replaced by stack() (__: overwrite)",
        "  no value there in 5 other inputs: common/xxx.yml, common/yyy.yml, osarchs/amd64.yml, oscodenames/jessie.yml, and 1 more",
        "Final value: 2200 (from minions/test-1-dev.yml:9)",
        "Values that lost: 22 (core.yml:22)",
        "",
      ].join("\n"),
    );
  });

  it("gives the same story as JSON", () => {
    const run = stack(["--get", "sshd.port", "--explain", "-f", "json"]);
    const story = JSON.parse(run.stdout) as {
      value: number;
      from: { file: string; line: number };
      inputs: { file: string; line: number; value: unknown }[];
      lost: { value: unknown; file: string; line: number }[];
    };
    expect(story.value).toBe(2200);
    expect(story.from).toMatchObject({ file: "minions/test-1-dev.yml", line: 9 });
    expect(story.inputs.map((input) => [input.file, input.line, input.value])).toEqual([
      ["core.yml", 22, 22],
      ["minions/test-1-dev.yml", 9, 2200],
    ]);
    expect(story.lost).toEqual([expect.objectContaining({ value: 22, file: "core.yml", line: 22 })]);
  });

  it("names stack files from the stack's directory, whatever the working directory", () => {
    const run = merge(
      [
        "stack",
        "examples/stack/config.cfg",
        "--minion-id",
        "test-1-dev",
        "--grains",
        "examples/stack/grains.yml",
        "--pillar",
        "examples/stack/pillar.yml",
        "--get",
        "sshd.port",
        "--explain",
      ],
      { cwd: REPO },
    );
    expect(run.stdout).toContain("    paths are relative to examples/stack\n");
    expect(run.stdout).toContain("  minions/test-1-dev.yml:9 (input 7)\n");
  });

  it("says in an input's step what merging it removed at the key or inside it", () => {
    const run = stack(["--get", "packages", "--explain"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      [
        "  roles/db.yml:12 (input 6)",
        "    had:",
        "      - __: remove",
        "      - htop",
        "    removed from packages: htop (1 item) by stack() (equal items)",
        "",
      ].join("\n"),
    );
    const users = stack(["--get", "users", "--explain"]);
    expect(users.stdout).toContain("  roles/db.yml:9 (input 6)\n");
    expect(users.stdout).toContain("    removed users.deploy by stack()\n");
    const json = JSON.parse(stack(["--get", "packages", "--explain", "-f", "json"]).stdout) as {
      inputs: { file: string; removed: { path: string; items: unknown[] }[] }[];
    };
    expect(json.inputs.find((input) => input.file === "roles/db.yml")?.removed).toEqual([
      expect.objectContaining({ path: "packages", items: ["htop"] }),
    ]);
  });

  it("tells why a host lacks a key an input had: the inputs that had it and the one that removed it, then fails", () => {
    const run = stack(["--get", "users.deploy", "--explain"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      [
        'Searching for "users.deploy" (not in the result)',
        "  in: merge stack --minion-id test-1-dev",
        "  core.yml:12 (input 1)",
        "    had:",
        "      uid: 1100",
        "      shell: /bin/bash",
        "      groups:",
        "      - www-data",
        "  roles/db.yml:11 (input 6)",
        "    had: null",
        "    removed users.deploy by stack()",
        "Final value: none; users is a mapping with keys root",
        "",
      ].join("\n"),
    );
    expect(run.stderr).toContain('no value at "users.deploy": users is a mapping with keys root');
    expect(run.stderr).toContain("[KEY_NOT_FOUND]");
  });

  it("names the input that replaced a key above it whole, in text and JSON", () => {
    const run = stack(["--get", "sshd:password_authentication", "--explain"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("  core.yml:24 (input 1)\n    had: false\n");
    expect(run.stdout).toContain(
      "  minions/test-1-dev.yml:7 (input 7)\n    replaced sshd whole by stack() (__: overwrite)\n",
    );
    const json = JSON.parse(
      stack(["--get", "sshd:password_authentication", "--explain", "-f", "json"]).stdout,
    ) as {
      found: boolean;
      nearest: string;
      inputs: { file: string; had: boolean; replaced: { detail: string }[] }[];
    };
    expect(json.found).toBe(false);
    expect(json.nearest).toBe("sshd");
    expect(json.inputs.map((input) => [input.file, input.had, input.replaced.map((d) => d.detail)])).toEqual([
      ["core.yml", true, []],
      ["minions/test-1-dev.yml", false, ["__: overwrite"]],
    ]);
  });

  it("fails as without --explain, and writes nothing, for a key no input had or with -o", () => {
    const none = stack(["--get", "users.nobody", "--explain"]);
    expect(none).toMatchObject({ status: 1, stdout: "" });
    expect(none.stderr).toContain('no value at "users.nobody"');
    const dir = mkdtempSync(join(tmpdir(), "merge-get-story-"));
    const out = join(dir, "story.txt");
    const toFile = stack(["--get", "users.deploy", "--explain", "-o", out]);
    expect(toFile).toMatchObject({ status: 1, stdout: "" });
    expect(existsSync(out)).toBe(false);
  });
});
