import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";
import { type Running, startMerge } from "./spawn.js";

let saves = 0;

/**
 * Saves a file as editors do, a new file renamed over the old one, so that the command never reads it half-written
 * (a truncated file is an empty document, which a stack skips with a warning).
 */
function save(path: string, text: string): void {
  const temp = `${path}.${++saves}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/**
 * Resolves once `text()` has `count` occurrences of `marker`, looked at whenever the process writes to standard error
 * or output (the two pipes are read in no fixed order: a result's output may arrive after the line that follows it);
 * rejects if the process ends first. No clock: it waits for the process, however long a busy machine makes it take.
 */
function until(text: () => string, marker: string, count: number, run: Running): Promise<void> {
  const enough = () => text().split(marker).length - 1 >= count;
  const streams = [run.child.stderr, run.child.stdout];
  return new Promise((resolve, reject) => {
    if (enough()) return resolve();
    const look = () => {
      if (!enough()) return;
      for (const stream of streams) stream?.off("data", look);
      resolve();
    };
    for (const stream of streams) stream?.on("data", look);
    run.finished.then(() => {
      for (const stream of streams) stream?.off("data", look);
      if (enough()) resolve();
      else reject(new Error(`merge ended before printing "${marker}" ${count} times: ${text()}`));
    });
  });
}

/** Starts `merge ARGS --watch` in `dir` and collects what it prints. */
function watching(args: readonly string[], dir: string) {
  const run = startMerge([...args, "--watch"], { cwd: dir });
  const seen = { stdout: "", stderr: "" };
  run.child.stdout?.on("data", (chunk: string) => {
    seen.stdout += chunk;
  });
  run.child.stderr?.on("data", (chunk: string) => {
    seen.stderr += chunk;
  });
  return {
    run,
    seen,
    /** Waits for the `count`th "merge: watching" line: that many runs are done. */
    runs: (count: number) => until(() => seen.stderr, "merge: watching", count, run),
    /** Waits until standard output has `marker` `count` times. */
    printed: (marker: string, count = 1) => until(() => seen.stdout, marker, count, run),
    stop: async () => {
      run.child.kill("SIGTERM");
      await run.finished;
    },
  };
}

/** A fresh directory holding `files` (by relative path). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "merge-watch-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("--watch", () => {
  it("renders again when an input changes, reports a bad edit without exiting, and watches the stack's files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-watch-"));
    writeFileSync(join(dir, "stack.cfg"), "base.yml\nhosts/{{ minion_id }}.yml\n");
    writeFileSync(join(dir, "base.yml"), "port: 22\n");
    const hosts = join(dir, "hosts");
    mkdirSync(hosts);
    writeFileSync(join(hosts, "web1.yml"), "role: web\n");
    const w = watching(["stack", "stack.cfg", "--minion-id", "web1"], dir);
    const { run, seen } = w;
    const err = () => seen.stderr;
    const out = () => seen.stdout;
    try {
      await until(err, "merge: watching 3 files (Ctrl-C to stop)\n", 1, run);
      await until(out, "role: web\n", 1, run);
      expect(seen.stdout).toBe("port: 22\nrole: web\n");

      // A file the stack config listed (not named on the command line) is watched.
      save(join(hosts, "web1.yml"), "role: db\n");
      await until(err, "merge: watching", 2, run);
      await until(out, "role: db\n", 1, run);
      expect(seen.stderr).toContain(`merge: ${join("hosts", "web1.yml")} changed, rendering again\n`);
      expect(seen.stdout).toBe("port: 22\nrole: web\nport: 22\nrole: db\n");

      // A bad edit prints the error (with its line: a file without template syntax is the author's text), never ends
      // the run, and keeps watching what the last good run read.
      // Salt (libyaml) marks the end of the text, where the `[` is still open: the line after it, which has no text
      // to quote.
      save(join(dir, "base.yml"), "port: [\n");
      await until(err, "merge: watching", 3, run);
      expect(seen.stderr).toMatch(/error: base\.yml:2:1: .*\[YAML_PARSE\]\nmerge: watching 3 files/);

      // So does a broken stack config, with the file before it still broken.
      save(join(dir, "stack.cfg"), "base.yml\n{% for x in %}\n");
      await until(err, "merge: watching", 4, run);
      expect(seen.stderr).toMatch(
        /error: .*stack\.cfg.*\]\n {4}2 \| \{% for x in %\}\n {6}\| +\^\nmerge: watching 3 files/,
      );

      // Fixing both renders again.
      save(join(dir, "base.yml"), "port: 2222\n");
      await until(err, "merge: watching", 5, run);
      save(join(dir, "stack.cfg"), "base.yml\nhosts/{{ minion_id }}.yml\n");
      await until(err, "merge: watching", 6, run);
      await until(out, "port: 2222\nrole: db\n", 1, run);
      expect(seen.stdout.endsWith("port: 2222\nrole: db\n")).toBe(true);
      expect(run.child.exitCode).toBe(null);
    } finally {
      await w.stop();
    }
  });

  it("renders again when a file the stack looked for appears: a missing per-minion file, a new glob match", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-watch-"));
    writeFileSync(join(dir, "stack.cfg"), "common/*.yml\nminions/{{ minion_id }}.yml\n");
    mkdirSync(join(dir, "common"));
    writeFileSync(join(dir, "common", "a.yml"), "a: 1\n");
    const w = watching(["stack", "stack.cfg", "--minion-id", "web1"], dir);
    const { run, seen } = w;
    const err = () => seen.stderr;
    const out = () => seen.stdout;
    try {
      // stack.cfg and common/a.yml are read; common/*.yml and the missing minions/web1.yml are watched for.
      await until(err, "merge: watching 2 files and 2 patterns (Ctrl-C to stop)\n", 1, run);
      expect(seen.stdout).toBe("a: 1\n");

      // The per-minion file is created later, in a directory that did not exist either.
      mkdirSync(join(dir, "minions"));
      save(join(dir, "minions", "web1.yml"), "role: web\n");
      await until(err, "merge: watching", 2, run);
      await until(out, "role: web\n", 1, run);
      expect(seen.stderr).toContain(`merge: ${join("minions", "web1.yml")} changed, rendering again\n`);
      expect(seen.stdout).toBe("a: 1\na: 1\nrole: web\n");

      // Another minion's file is not one this stack reads: nothing is rendered for it. A new match of the glob is.
      save(join(dir, "minions", "db1.yml"), "role: db\n");
      save(join(dir, "common", "b.yml"), "b: 2\n");
      await until(err, "merge: watching", 3, run);
      await until(out, "b: 2\n", 1, run);
      expect(seen.stderr).toContain(`merge: ${join("common", "b.yml")} changed, rendering again\n`);
      expect(seen.stderr).not.toContain("db1.yml");
      expect(seen.stdout.endsWith("a: 1\nb: 2\nrole: web\n")).toBe(true);
      expect(seen.stderr).toContain("merge: watching 4 files and 1 pattern (Ctrl-C to stop)\n");
      expect(run.child.exitCode).toBe(null);
    } finally {
      await w.stop();
    }
  });

  it("watches templates included by a computed name, and one a render looked for and missed", async () => {
    const dir = tree({
      "stack.cfg": "base.yml\n",
      // The role's template is named while rendering; the host's own defaults may not exist yet.
      "base.yml":
        "{% include 'roles/' ~ pillar.role ~ '.jinja' %}\n{% include 'hosts/' ~ minion_id ~ '.jinja' ignore missing %}\n",
      "roles/web.jinja": "port: 80\n",
      "pillar.yml": "role: web\n",
    });
    const w = watching(["stack", "stack.cfg", "--minion-id", "web1", "--pillar", "pillar.yml"], dir);
    try {
      // pillar.yml, stack.cfg, base.yml and roles/web.jinja; hosts/web1.jinja is watched for.
      await w.runs(1);
      expect(w.seen.stderr).toContain("merge: watching 4 files and 1 pattern (Ctrl-C to stop)\n");
      expect(w.seen.stdout).toBe("port: 80\n");
      save(join(dir, "roles", "web.jinja"), "port: 8080\n");
      await w.printed("port: 8080\n");
      expect(w.seen.stderr).toContain(`merge: ${join("roles", "web.jinja")} changed, rendering again\n`);
      await w.runs(2);
      mkdirSync(join(dir, "hosts"));
      save(join(dir, "hosts", "web1.jinja"), "tls: true\n");
      await w.printed("tls: true\n");
      expect(w.seen.stdout.endsWith("port: 8080\ntls: true\n")).toBe(true);
      expect(w.run.child.exitCode).toBe(null);
    } finally {
      await w.stop();
    }
  });

  it("watches the stack files of merge pillar, and a missing one, without --explain", async () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-watch-"));
    writeFileSync(join(dir, "master"), "ext_pillar:\n  - stack: stack.cfg\n");
    writeFileSync(join(dir, "stack.cfg"), "base.yml\nminions/{{ minion_id }}.yml\n");
    writeFileSync(join(dir, "base.yml"), "port: 22\n");
    const w = watching(["pillar", "--config", "master", "--minion-id", "web1"], dir);
    const { run, seen } = w;
    const err = () => seen.stderr;
    const out = () => seen.stdout;
    try {
      await until(err, "merge: watching 3 files and 1 pattern (Ctrl-C to stop)\n", 1, run);
      save(join(dir, "base.yml"), "port: 2222\n");
      await until(err, "merge: watching", 2, run);
      mkdirSync(join(dir, "minions"));
      save(join(dir, "minions", "web1.yml"), "role: web\n");
      await until(err, "merge: watching", 3, run);
      await until(out, "role: web\n", 1, run);
      expect(seen.stdout).toBe("port: 22\nport: 2222\nport: 2222\nrole: web\n");
    } finally {
      await w.stop();
    }
  });

  it("with --minions watches what every host read and looked for, the hosts file and --opts, and runs the batch again", async () => {
    const dir = tree({
      "stack.cfg": "base.yml\nroles/{{ pillar.role }}.yml\nminions/{{ minion_id }}.yml\n",
      "base.yml": '{% include "port.jinja" %}\nenv: {{ __opts__.env }}\n',
      "port.jinja": "port: 22\n",
      "roles/web.yml": "web: true\n",
      "roles/db.yml": "db: true\n",
      "hosts.yml": "- id: web1\n  pillar: {role: web}\n- id: db1\n  pillar: {role: db}\n",
      "opts.yml": "env: prod\n",
    });
    const w = watching(["stack", "stack.cfg", "--minions", "hosts.yml", "--opts", "opts.yml"], dir);
    try {
      // hosts.yml, opts.yml, stack.cfg, base.yml, the template it includes and both hosts' role files; each host's
      // missing minions/ID.yml is watched for.
      await w.runs(1);
      expect(w.seen.stderr).toContain("merge: watching 7 files and 2 patterns (Ctrl-C to stop)\n");
      await w.printed('"id": "db1"');
      expect(w.seen.stdout).toBe(
        '{"id": "web1", "pillar": {"port": 22, "env": "prod", "web": true}}\n' +
          '{"id": "db1", "pillar": {"port": 22, "env": "prod", "db": true}}\n',
      );

      // A file only one host reads, and a template included by a stack file.
      save(join(dir, "roles", "db.yml"), "db: 2\n");
      await w.runs(2);
      await w.printed('"db": 2}}\n');
      save(join(dir, "port.jinja"), "port: 2222\n");
      await w.runs(3);
      await w.printed('"port": 2222', 2);
      expect(w.seen.stderr).toContain(`merge: ${join("roles", "db.yml")} changed, rendering again\n`);
      expect(w.seen.stderr).toContain("merge: port.jinja changed, rendering again\n");

      // A host's missing per-minion file appears; then --opts and the hosts file change.
      mkdirSync(join(dir, "minions"));
      save(join(dir, "minions", "web1.yml"), "mine: yes\n");
      await w.runs(4);
      await w.printed('"mine": true}}\n');
      save(join(dir, "opts.yml"), "env: dev\n");
      await w.runs(5);
      await w.printed('"env": "dev"', 2);
      save(join(dir, "hosts.yml"), "- id: db1\n  pillar: {role: db}\n");
      await w.runs(6);
      expect(w.seen.stderr).toContain("merge: hosts.yml changed, rendering again\n");
      await w.printed('{"id": "db1", "pillar": {"port": 2222, "env": "dev", "db": 2}}\n', 2);
      expect(
        w.seen.stdout.endsWith('"db": 2}}\n{"id": "db1", "pillar": {"port": 2222, "env": "dev", "db": 2}}\n'),
      ).toBe(true);
      expect(w.run.child.exitCode).toBe(null);
    } finally {
      await w.stop();
    }
  });

  it("with --minions keeps watching after a host fails, and renders the batch again when the file is fixed", async () => {
    const dir = tree({
      "stack.cfg": "base.yml\nroles/{{ pillar.role }}.yml\n",
      "base.yml": "port: 22\n",
      "roles/web.yml": "web: [1\n",
      "roles/db.yml": "db: true\n",
      "hosts.yml": "- id: web1\n  pillar: {role: web}\n- id: db1\n  pillar: {role: db}\n",
    });
    const w = watching(["stack", "stack.cfg", "--minions", "hosts.yml"], dir);
    try {
      await w.runs(1);
      expect(w.seen.stderr).toMatch(/^web1: error: roles\/web\.yml:2:1: .*\[YAML_PARSE\]\nmerge: 1 of 2/m);
      expect(w.seen.stderr).toContain(
        "merge: 1 of 2 hosts failed\nmerge: watching 5 files (Ctrl-C to stop)\n",
      );
      save(join(dir, "roles", "web.yml"), "web: [1]\n");
      await w.runs(2);
      await w.printed('{"id": "web1", "pillar": {"port": 22, "web": [1]}}\n');
    } finally {
      await w.stop();
    }
  });

  it("with merge pillar --minions watches the master config and every host's stack files", async () => {
    const dir = tree({
      master: "ext_pillar:\n  - stack: stack/stack.cfg\n",
      "stack/stack.cfg": "base.yml\nminions/{{ minion_id }}.yml\n",
      "stack/base.yml": "port: 22\n",
      "stack/minions/db1.yml": "db: true\n",
      "hosts.yml": "- id: web1\n- id: db1\n",
    });
    const w = watching(["pillar", "--config", "master", "--minions", "hosts.yml"], dir);
    try {
      // master, hosts.yml, stack.cfg, base.yml and db1's file; web1's missing file is watched for.
      await w.runs(1);
      expect(w.seen.stderr).toContain("merge: watching 5 files and 1 pattern (Ctrl-C to stop)\n");
      save(join(dir, "stack", "minions", "db1.yml"), "db: 2\n");
      await w.runs(2);
      await w.printed('{"id": "db1", "pillar": {"port": 22, "db": 2}}\n');
      save(join(dir, "stack", "minions", "web1.yml"), "web: true\n");
      await w.runs(3);
      await w.printed('{"id": "web1", "pillar": {"port": 22, "web": true}}\n');
      save(join(dir, "master"), "ext_pillar: []\n");
      await w.runs(4);
      await w.printed('{"id": "db1", "pillar": {}}\n');
    } finally {
      await w.stop();
    }
  });

  it("watches the file a first run failed in, with what it read before, and renders when it is fixed", async () => {
    const dir = tree({
      "stack.cfg": "base.yml\ncommon/*.yml\nhosts/{{ minion_id }}.yml\n",
      "base.yml": "port: 22\n",
      "common/x.yml": "x: {{ 1 + }}\n",
      "hosts/web1.yml": "role: web\n",
    });
    const w = watching(["stack", "stack.cfg", "--minion-id", "web1"], dir);
    try {
      // A template error in common/x.yml: stack.cfg, base.yml and x.yml are watched, and the glob.
      await w.runs(1);
      expect(w.seen.stderr).toMatch(
        /^error: common\/x\.yml:1:\d+: .*\[TEMPLATE_SYNTAX\]\n {4}1 \| x: \{\{ 1 \+ \}\}\n {6}\| +\^\nmerge: watching 3 files and 1 pattern \(Ctrl-C to stop\)\n$/,
      );
      save(join(dir, "common", "x.yml"), "x: 1\n");
      await w.runs(2);
      await w.printed("role: web\n");
      expect(w.seen.stdout).toBe("port: 22\nx: 1\nrole: web\n");
      expect(w.seen.stderr).toContain("merge: watching 4 files and 1 pattern (Ctrl-C to stop)\n");

      // A later run that fails earlier (in base.yml) keeps every file watched: hosts/web1.yml, which that run never
      // reached, still renders again, and so does the fix.
      save(join(dir, "base.yml"), "port: [\n");
      await w.runs(3);
      expect(w.seen.stderr).toMatch(/error: base\.yml:\d+:\d+: .*\[YAML_PARSE\]\n/);
      save(join(dir, "hosts", "web1.yml"), "role: db\n");
      await w.runs(4);
      expect(w.seen.stderr).toContain(`merge: ${join("hosts", "web1.yml")} changed, rendering again\n`);
      save(join(dir, "base.yml"), "port: 2222\n");
      await w.runs(5);
      await w.printed("port: 2222\nx: 1\nrole: db\n");
      expect(w.seen.stderr.match(/merge: watching 4 files and 1 pattern/g)).toHaveLength(4);
    } finally {
      await w.stop();
    }
  });

  it("watches a docs or cloud-config input whose first run has a syntax error, and renders when it is fixed", async () => {
    for (const args of [["docs"], ["cloud-config", "--strict"]]) {
      const dir = tree({ "a.yml": "#cloud-config\npackages: [vim\n" });
      const w = watching([...args, "a.yml"], dir);
      try {
        await w.runs(1);
        expect(w.seen.stderr).toMatch(/\[YAML_PARSE\]\n/);
        expect(w.seen.stderr).toContain("merge: watching 1 file (Ctrl-C to stop)\n");
        save(join(dir, "a.yml"), "#cloud-config\npackages: [vim]\n");
        await w.runs(2);
        await w.printed("packages:\n- vim\n");
      } finally {
        await w.stop();
      }
    }
  });

  it("merge diff --watch compares again when a file of either side changes, and survives a bad edit", async () => {
    const dir = tree({
      "stack.cfg": "base.yml\nhosts/{{ minion_id }}.yml\n",
      "base.yml": "port: 22\n",
      "hosts/web1.yml": "role: web\n",
      "hosts/web2.yml": "role: db\n",
    });
    const w = watching(["diff", "stack", "stack.cfg", "--minion-id", "web1", "--minion-id", "web2"], dir);
    try {
      await w.runs(1);
      await w.printed("1 difference: 0 added, 0 removed, 1 changed\n");
      // The config and base.yml, and each host's own file.
      expect(w.seen.stderr).toContain("merge: watching 4 files (Ctrl-C to stop)\n");

      // A file only the second side read.
      save(join(dir, "hosts", "web2.yml"), "role: web\n");
      await w.runs(2);
      await w.printed("no differences\n");

      // A bad edit in a file both sides read is reported, and the watch goes on.
      save(join(dir, "base.yml"), "port: [\n");
      await w.runs(3);
      expect(w.seen.stderr).toMatch(/base\.yml:2:1: .*\[YAML_PARSE\]/);
      save(join(dir, "base.yml"), "port: 2222\nextra: 1\n");
      await w.runs(4);
      await w.printed("no differences\n", 2);
      expect(w.run.child.exitCode).toBe(null);
    } finally {
      await w.stop();
    }
  });

  it("watches system-config's files when a conf.d file stops the first run, and renders when it is fixed", async () => {
    const dir = tree({ "cloud.cfg": "a: 1\n", "cloud.cfg.d/20.cfg": 'merge_how: "lst()"\nb: 2\n' });
    const w = watching(["system-config", "cloud.cfg"], dir);
    try {
      await w.runs(1);
      expect(w.seen.stderr).toMatch(
        /\[UNKNOWN_MERGER\]\nmerge: watching 2 files and 2 patterns \(Ctrl-C to stop\)\n$/,
      );
      save(join(dir, "cloud.cfg.d", "20.cfg"), 'merge_how: "list()+dict()"\nb: 2\n');
      await w.runs(2);
      await w.printed("b: 2\na: 1\n");
      // A new conf.d file (a dotfile too, as cloud-init reads it) renders again; another name does not count.
      save(join(dir, "cloud.cfg.d", "README"), "c: 3\n");
      save(join(dir, "cloud.cfg.d", ".30.cfg"), "c: 3\n");
      await w.printed("b: 2\nc: 3\na: 1\n");
      expect(w.seen.stderr).toContain(`merge: ${join("cloud.cfg.d", ".30.cfg")} changed, rendering again\n`);
      expect(w.seen.stderr).not.toContain("README");
    } finally {
      await w.stop();
    }
  });

  it("ends with the run's status when the command read no file it could watch", () => {
    const run = merge(["docs", "-", "--watch"], { binary: true, input: "x: 1\n", cwd: tmpdir() });
    expect(run.stdout).toBe("x: 1\n");
    expect(run.stderr).toBe("merge: nothing to watch: the command read no file\n");
    expect(run.status).toBe(0);
  });
});
