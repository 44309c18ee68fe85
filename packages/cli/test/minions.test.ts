import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, FIXTURES, merge, PACKAGE_DIR } from "./helpers.js";
import { startMerge, withoutPauses } from "./spawn.js";

// A small PillarStack tree: core, one file per OS grain, per role (one with a YAML mistake) and per minion.
const TREE = join(FIXTURES, "minions");

interface Line {
  readonly id: string;
  readonly pillar?: unknown;
  readonly error?: { code: string; message: string; file?: string; line?: number };
}

function jsonLines(text: string): Line[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "merge-cli-minions-"));
}

/** The same host rendered alone, as `merge stack --minion-id` does it. */
function single(id: string, grains: string, pillar: string, format: "json" | "yaml", tree = TREE): string {
  const dir = scratch();
  writeFileSync(join(dir, "grains.yml"), grains);
  writeFileSync(join(dir, "pillar.yml"), pillar);
  const args = ["stack", "stack.cfg", "--minion-id", id, "--grains", join(dir, "grains.yml")];
  const run = merge([...args, "--pillar", join(dir, "pillar.yml"), "--format", format], { cwd: tree });
  expect(run.status).toBe(0);
  return run.stdout;
}

const WEB1 = ["web1", "{os: Debian, num_cpus: 4}", "{roles: [web], environment: prod}"] as const;
const DB1 = ["db1", "{os: Ubuntu, mem_total: 8192}", "{roles: [db]}"] as const;
const BARE1 = ["bare1", "{}", "{}"] as const;

describe("merge stack --minions", () => {
  it("prints one JSON line per host, the same pillar as a run for that host alone", () => {
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml"], { cwd: TREE });
    const lines = jsonLines(run.stdout);
    expect(lines.map((line) => line.id)).toEqual(["web1", "db1", "odd1", "bare1"]);
    for (const [index, host] of [
      [0, WEB1],
      [1, DB1],
      [3, BARE1],
    ] as const) {
      expect(lines[index]!.pillar).toEqual(JSON.parse(single(...host, "json")));
    }
    expect(lines[0]!.pillar).toMatchObject({
      ntp: { servers: ["ntp.internal"] },
      motd: "web1 (Debian, prod)",
      nginx: { worker_processes: 4, listen: 443 },
    });
    // Written as that run writes it: a whole-number float keeps its ".0", int keys stay in their place.
    expect(run.stdout).toContain('"keepalive_timeout": 65.0, "redirects": {"80": 443, "8080": 8443}}');
  });

  it("with --get prints each host's value at the key, and fails a host that has none as a single run does", () => {
    const run = merge(
      ["stack", "stack.cfg", "--minions", "hosts-ok.yml", "--get", "nginx.keepalive_timeout"],
      {
        cwd: TREE,
      },
    );
    expect(run.status).toBe(1);
    const [web, db] = run.stdout.trimEnd().split("\n");
    expect(web).toBe('{"id": "web1", "value": 65.0}');
    expect(JSON.parse(db!)).toMatchObject({ id: "db1", error: { code: "KEY_NOT_FOUND" } });
    expect(run.stderr).toMatch(/^db1: error: no value at "nginx\.keepalive_timeout".*\[KEY_NOT_FOUND\]$/m);
    const out = join(scratch(), "values");
    const files = merge(["stack", "stack.cfg", "--minions", "hosts-ok.yml", "--get", "motd", "-o", out], {
      cwd: TREE,
    });
    expect(files.status).toBe(0);
    expect(readFileSync(join(out, "web1.yml"), "utf8")).toBe("web1 (Debian, prod)\n");
  });

  it("gives each host what a run alone gives when hosts share files, change `stack` or use aliases", () => {
    // The batch shares the parsed files between hosts and writes their frozen parts' JSON once; templates that
    // change `stack` get a copy of it first, and a file with an alias is copied as before.
    const tree = join(FIXTURES, "shared-batch");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml"], { cwd: tree });
    expect(run.status).toBe(0);
    const lines = jsonLines(run.stdout);
    const hosts = [
      ["web1", "{roles: [web], tier: prod}"],
      ["db1", "{roles: [db]}"],
      ["both1", "{roles: [web, db]}"],
      ["web2", "{roles: [web]}"],
      ["db2", "{roles: [db, web]}"],
      ["web3", "{roles: [web], tier: prod}"],
    ] as const;
    expect(lines.map((line) => line.id)).toEqual(hosts.map(([id]) => id));
    hosts.forEach(([id, pillar], index) => {
      const alone = single(id, "{}", pillar, "json", tree);
      expect(lines[index]!.pillar).toEqual(JSON.parse(alone));
      // Byte for byte as that run writes it on one line.
      expect(JSON.stringify(lines[index]!.pillar)).toBe(JSON.stringify(JSON.parse(alone)));
    });
    // What the templates changed is each host's own: web2 does not see web1's packages or home.
    expect(lines[3]!.pillar).toMatchObject({
      packages: ["vim", "curl", "nginx-web2", "nginx"],
      users: { deploy: { home: "/srv/web2" } },
      ntp: { servers: ["ntp1.example.org", "ntp2.example.org", "ntp.web2"] },
      // Merged into `defaults`, seen through `limits` too, as Salt's alias does.
      limits: { nofile: 65536 },
    });
    expect(lines[5]!.pillar).toMatchObject({ host: { id: "web3", tier: "prod" } });
  });

  it("keeps a mapping a template put under two keys one mapping in a batch, as a run alone and Salt do", () => {
    // made.yml puts one new mapping under `a` and `b`; change.yml changes it through `b`. The batch copies the shared
    // files' values out of `stack` before change.yml runs, and must leave a template's own mapping as it is.
    const tree = join(FIXTURES, "shared-batch-alias");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml"], { cwd: tree });
    expect(run.status).toBe(0);
    const lines = jsonLines(run.stdout);
    ["web1", "db1"].forEach((id, index) => {
      // Salt's stack.py: {"a": {"q": 1, "new": ID}, "b": {"q": 1, "new": ID}, "x": ID, "y": 2}.
      expect(lines[index]).toEqual({
        id,
        pillar: { a: { q: 1, new: id }, b: { q: 1, new: id }, x: id, y: 2 },
      });
      expect(lines[index]!.pillar).toEqual(JSON.parse(single(id, "{}", "{}", "json", tree)));
    });
  });

  it("reports a host that fails and goes on with the others; the status is 1", () => {
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml"], { cwd: TREE });
    expect(run.status).toBe(1);
    const odd = jsonLines(run.stdout)[2]!;
    expect(odd).toEqual({
      id: "odd1",
      error: expect.objectContaining({ code: "YAML_PARSE", file: "roles/broken.yml", line: 4 }),
    });
    expect(odd.pillar).toBeUndefined();
    expect(run.stderr).toMatch(/^odd1: error: roles\/broken\.yml:4:\d+: .* \[YAML_PARSE\]$/m);
    // Salt's warnings for files a host does not have, each under the host's name.
    expect(run.stderr).toContain('db1: warning: stack.cfg: Ignoring pillar stack template "minions/db1.yml"');
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe("merge: 1 of 4 hosts failed");
  });

  it("exits 0 when every host renders", () => {
    const dir = scratch();
    writeFileSync(join(dir, "hosts.json"), JSON.stringify([{ id: "web1", grains: { os: "Debian" } }]));
    const run = merge(["stack", "stack.cfg", "--minions", join(dir, "hosts.json")], { cwd: TREE });
    expect(run.status).toBe(0);
    expect(jsonLines(run.stdout)).toEqual([
      { id: "web1", pillar: expect.objectContaining({ motd: "web1 (Debian, dev)" }) },
    ]);
    expect(run.stderr).toBe("");
  });

  it("with -o DIR writes one file per host, each what a run for that host alone prints", () => {
    const out = join(scratch(), "pillars");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], { cwd: TREE });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(readdirSync(out).sort()).toEqual(["bare1.yml", "db1.yml", "web1.yml"]);
    for (const host of [WEB1, DB1, BARE1]) {
      expect(readFileSync(join(out, `${host[0]}.yml`), "utf8")).toBe(single(...host, "yaml"));
    }
    expect(run.stderr).toMatch(/^odd1: error: .*\[YAML_PARSE\]$/m);
  });

  it("with -o DIR --format json writes .json files and replaces the ones there", () => {
    const out = scratch();
    writeFileSync(join(out, "web1.json"), "old\n");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out, "-f", "json"], {
      cwd: TREE,
    });
    expect(run.status).toBe(1);
    expect(readdirSync(out).sort()).toEqual(["bare1.json", "db1.json", "web1.json"]);
    expect(readFileSync(join(out, "web1.json"), "utf8")).toBe(single(...WEB1, "json"));
  });

  it("makes the -o directory, with its parents, when missing", () => {
    const out = join(scratch(), "a", "b");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], { cwd: TREE });
    expect(run.status).toBe(1);
    expect(readdirSync(out)).toHaveLength(3);
  });

  it("stops between two files on SIGINT: the file being replaced is finished, the next never started", async () => {
    const out = scratch();
    const running = startMerge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], {
      cwd: TREE,
      pause: "replacing",
    });
    await running.paused("replacing");
    running.child.kill("SIGINT");
    const end = await running.finished;
    expect(end.status).toBe(130);
    expect(readdirSync(out)).toEqual(["web1.yml"]);
    expect(readFileSync(join(out, "web1.yml"), "utf8")).toBe(single(...WEB1, "yaml"));
    expect(withoutPauses(end.stderr)).toBe("");
  });

  it("on SIGINT before a file is replaced leaves it as it was and removes the temporary file", async () => {
    const out = scratch();
    writeFileSync(join(out, "web1.yml"), "old\n");
    const running = startMerge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], {
      cwd: TREE,
      pause: "temp-written",
    });
    await running.paused("temp-written");
    running.child.kill("SIGINT");
    const end = await running.finished;
    expect(end.status).toBe(130);
    expect(readdirSync(out)).toEqual(["web1.yml"]);
    expect(readFileSync(join(out, "web1.yml"), "utf8")).toBe("old\n");
  });

  it("refuses -o naming something that is not a directory", () => {
    const file = join(scratch(), "plain");
    writeFileSync(file, "keep\n");
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", file], { cwd: TREE });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/plain: is not a directory .*\[OUTPUT_WRITE\]/);
    expect(readFileSync(file, "utf8")).toBe("keep\n");
  });

  it("lists every problem of the hosts file with its line and renders nothing", () => {
    const dir = scratch();
    const hosts = join(dir, "hosts.yml");
    writeFileSync(
      hosts,
      "- id: a/b\n- id: 3\n- nope\n- id: x\n  colour: red\n- id: x\n- id: y\n  grains: [1]\n",
    );
    const run = merge(["stack", "stack.cfg", "--minions", hosts], { cwd: TREE });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.map((line) => line.replace(`${hosts}:`, "hosts.yml:"))).toEqual([
      'error: hosts.yml:1:3: host 1: id "a/b" has a / or a NUL character [MINIONS_FILE]',
      'error: hosts.yml:2:3: host 2: id must be a string (quote it: id: "3") [MINIONS_FILE]',
      "error: hosts.yml:3:3: host 3 must be a mapping with id, grains and pillar [MINIONS_FILE]",
      'error: hosts.yml:5:3: host 4 has an unknown key "colour" (a host has id, grains and pillar) [MINIONS_FILE]',
      `error: hosts.yml:6:3: host 5: id "x" is also host 4's (ids name the output files) [MINIONS_FILE]`,
      "error: hosts.yml:8:3: host 6: grains must be a mapping (key: value lines) [MINIONS_FILE]",
    ]);
  });

  it("refuses a hosts file that is not a list", () => {
    const run = merge(["stack", "stack.cfg", "--minions", "-"], { cwd: TREE, input: "web1: {}\n" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("error: -:1:1: must be a list of hosts");
  });

  it("is a usage error together with --minion-id, --grains or --explain", () => {
    for (const extra of [["--minion-id", "web1"], ["--grains", "g.yml"], ["--explain"]]) {
      const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", ...extra], { cwd: TREE });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/\[USAGE\]\nRun 'merge stack --help' for usage\.\n$/);
      expect(run.stdout).toBe("");
    }
  });
});

describe("a failing host's report", () => {
  // Each host picks its file through its pillar. plain.yml's bad line is the author's text; in secret.yml the bad
  // line is where the host's password was rendered, so it is never quoted.
  const files: Record<string, string> = {
    "stack.cfg": "{{ pillar.file }}.yml\n",
    "plain.yml": "x: {{ pillar.file }}\nports: [80, 443\nother: 2\n",
    "secret.yml": "x: 1\nports: [80, 443\npassword: {{ pillar.pw }}\n",
    master: "ext_pillar:\n  - stack: stack.cfg\n",
    "hosts.yml":
      '- id: h1\n  pillar: {file: plain}\n- id: h2\n  pillar: {file: secret, pw: "*topsecretpw"}\n',
    "h1.yml": "file: plain\n",
    "h2.yml": 'file: secret\npw: "*topsecretpw"\n',
  };
  const dir = scratch();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const singleErr = (id: string, color: string) =>
    merge(["stack", "stack.cfg", "--minion-id", id, "--pillar", `${id}.yml`, color], { cwd: dir }).stderr;

  for (const color of ["--color", "--no-color"]) {
    it(`is the single run's report behind the id, caret line included (${color})`, () => {
      const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", color], { cwd: dir });
      expect(run.status).toBe(1);
      const h1 = singleErr("h1", color);
      expect(h1.replaceAll("\u001b[22m", "")).toContain("    3 | other: 2\n");
      const failed = color === "--color" ? "\u001b[31mmerge:\u001b[39m" : "merge:";
      expect(run.stderr).toBe(`h1: ${h1}h2: ${singleErr("h2", color)}${failed} 2 of 2 hosts failed\n`);
      expect(`${run.stdout}${run.stderr}`).not.toContain("topsecretpw");
    });
  }

  it("keeps its JSON line as it was, with the line and column", () => {
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml"], { cwd: dir });
    const [h1, h2] = jsonLines(run.stdout);
    expect(h1).toEqual({
      id: "h1",
      error: {
        code: "YAML_PARSE",
        message: expect.stringContaining("a line of the template's own text"),
        file: "plain.yml",
        line: 3,
        column: 6,
      },
    });
    expect(Object.keys(h2!.error!)).toEqual(["code", "message", "file", "line", "column"]);
  });

  it("is the single run's report in merge pillar --minions too", () => {
    const run = merge(["pillar", "--config", "master", "--minions", "hosts.yml", "--color"], { cwd: dir });
    expect(run.status).toBe(1);
    const lines = run.stderr.split("\n");
    expect(lines[0]!.startsWith("h1: \u001b[31merror:\u001b[39m plain.yml:3:6: ")).toBe(true);
    expect(lines.slice(1, 3)).toEqual([
      "\u001b[2m    3 |\u001b[22m other: 2",
      "\u001b[2m      |\u001b[22m      \u001b[31m^\u001b[39m",
    ]);
    expect(run.stderr).not.toContain("topsecretpw");
  });
});

describe("merge pillar --minions", () => {
  it("runs the master's ext_pillar list for every host, each starting from the host's pillar", () => {
    const run = merge(["pillar", "--config", "master.yml", "--minions", "hosts.yml"], { cwd: TREE });
    expect(run.status).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines.map((line) => line.id)).toEqual(["web1", "db1", "odd1", "bare1"]);
    const stack = JSON.parse(single(...WEB1, "json")) as Record<string, unknown>;
    // Salt merges the external pillar into the pillar compiled before it: the host's own keys come first.
    expect(lines[0]!.pillar).toEqual({ roles: ["web"], environment: "prod", ...stack });
    expect(lines[2]!.error).toMatchObject({ code: "YAML_PARSE", file: "roles/broken.yml" });
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe("merge: 1 of 4 hosts failed");
  });

  it("with -o DIR writes a file per host that renders", () => {
    const out = scratch();
    const run = merge(["pillar", "-c", "master.yml", "--minions", "hosts.yml", "-o", out], { cwd: TREE });
    expect(run.status).toBe(1);
    expect(readdirSync(out).sort()).toEqual(["bare1.yml", "db1.yml", "web1.yml"]);
    expect(readFileSync(join(out, "db1.yml"), "utf8")).toMatch(/^roles:\n- db\nntp:\n/);
  });
});

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

/**
 * Runs the CLI with a pseudo-terminal as its standard input, output and error (util-linux `script`): the bundle, or
 * another entry (`bin/merge.cjs`) with more environment.
 */
function onTerminal(
  args: readonly string[],
  entry = BIN,
  env: Record<string, string | undefined> = {},
): { status: number | null; screen: string } {
  const quoted = [process.execPath, entry, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const run = spawnSync("script", ["-q", "-e", "-c", quoted, "/dev/null"], {
    cwd: TREE,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", TERM: "dumb", ...env },
  });
  return { status: run.status, screen: run.stdout };
}

/** The screen of the batch of hosts.yml written to a directory: progress rewritten in place, odd1's error, the end. */
function expectProgress(run: { status: number | null; screen: string }): void {
  expect(run.status).toBe(1);
  expect(run.screen).toContain("\r[1/4] web1");
  // The error of odd1 is printed on a line of its own, the progress line erased first.
  expect(run.screen).toMatch(/\r +\rodd1: error: /);
  expect(
    run.screen
      .trimEnd()
      .split(/[\r\n]+/)
      .at(-1),
  ).toBe("merge: 1 of 4 hosts failed");
}

describe.skipIf(!hasScript)("merge stack --minions on a terminal", () => {
  it("shows the progress on standard error, rewritten in place and erased at the end", () => {
    const out = scratch();
    expectProgress(onTerminal(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out]));
    expect(existsSync(join(out, "web1.yml"))).toBe(true);
  });

  it("shows the same through `merge daemon`, which runs the batch with the terminal's flags", () => {
    const runtime = mkdtempSync(join(tmpdir(), "merge-cli-minions-daemon-"));
    chmodSync(runtime, 0o700);
    const entry = join(PACKAGE_DIR, "bin", "merge.cjs");
    const env = { XDG_RUNTIME_DIR: runtime, MERGE_NO_DAEMON: undefined };
    const daemon = (...args: string[]) =>
      spawnSync(process.execPath, [entry, "daemon", ...args], {
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", TERM: "dumb", ...env },
      });
    expect(daemon("start", "--idle-timeout", "10m").status).toBe(0);
    try {
      const out = scratch();
      const run = onTerminal(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], entry, env);
      expect(JSON.parse(daemon("status", "--format", "json").stdout)).toMatchObject({ served: 1 });
      expectProgress(run);
      expect(readdirSync(out).sort()).toEqual(["bare1.yml", "db1.yml", "web1.yml"]);
    } finally {
      daemon("stop");
    }
  });

  it("shows none when the JSON lines go to that terminal", () => {
    const run = onTerminal(["stack", "stack.cfg", "--minions", "hosts.yml"]);
    expect(run.status).toBe(1);
    expect(run.screen).toContain('{"id": "web1", "pillar": ');
    expect(run.screen).not.toContain("[1/4]");
  });

  it("shows none when standard error is not a terminal", () => {
    const out = scratch();
    const run = merge(["stack", "stack.cfg", "--minions", "hosts.yml", "-o", out], { cwd: TREE });
    expect(run.stderr).not.toContain("[1/4]");
    expect(run.stderr).not.toContain("\r");
  });
});
