import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, PACKAGE_DIR, REPO, STACK_EXAMPLE_ARGS, upperPluginArgs } from "./helpers.js";

// bin/merge.cjs keeps V8's compiled code of the bundle between runs (README, "How it is built"): Node 22.1+ with its
// own compile cache, an older Node with bin/compile-cache.cjs, which these tests are about. Each run gets a cache
// home of its own (XDG_CACHE_HOME); nothing here depends on how long a run takes.
const ENTRY = join(PACKAGE_DIR, "bin", "merge.cjs");
const NODE_HAS_CACHE =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string })
  .version;
const SUFFIX = `-${VERSION}-${process.version}-${process.arch}`;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: readonly string[], env: Record<string, string | undefined>, cwd: string = FIXTURES): Run {
  const result = spawnSync(process.execPath, [ENTRY, ...args], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      NO_COLOR: "1",
      FORCE_COLOR: undefined,
      MERGE_NO_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: undefined,
      ...env,
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const stack = (env: Record<string, string | undefined>) =>
  run(STACK_EXAMPLE_ARGS, env, join(REPO, "examples", "stack"));

let uncachedRun: Run | undefined;
/** What `merge stack` prints without any cache (run once, on first use). */
function uncached(): Run {
  uncachedRun ??= stack({
    MERGE_NO_COMPILE_CACHE: "1",
    XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "merge-cc-none-")),
  });
  return uncachedRun;
}

/** The cache entries in a cache home: name, and the inode and modification time that show a rewrite. */
function entries(home: string): Map<string, { ino: number; mtimeMs: number; mode: number }> {
  const dir = join(home, "merge", "v8-cache");
  const found = new Map<string, { ino: number; mtimeMs: number; mode: number }>();
  for (const name of readdirSync(dir)) {
    const stat = statSync(join(dir, name));
    found.set(name, { ino: stat.ino, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o777 });
  }
  return found;
}

// An entry: the stamp of its file (16 bytes), then V8's data twice.
const STAMP_BYTES = 16;
/** The two copies of V8's data in an entry. */
function copies(entry: Buffer): [Buffer, Buffer] {
  const length = (entry.length - STAMP_BYTES) / 2;
  return [entry.subarray(STAMP_BYTES, STAMP_BYTES + length), entry.subarray(STAMP_BYTES + length)];
}

const freshHome = () => mkdtempSync(join(tmpdir(), "merge-cc-"));

describe.skipIf(NODE_HAS_CACHE)(
  "the compile cache of bin/merge.cjs (Node without module.enableCompileCache)",
  () => {
    it("a first run writes an entry per file it loaded, 0600 in a 0700 directory, and prints the same", () => {
      const home = freshHome();
      const first = stack({ XDG_CACHE_HOME: home });
      expect(first).toEqual(uncached());
      expect(first.status).toBe(0);
      const written = entries(home);
      const names = [...written.keys()];
      expect(names).toContain(`bin.cjs${SUFFIX}`);
      expect(names.some((name) => /^merging-.*\.cjs/.test(name) && name.endsWith(SUFFIX))).toBe(true);
      expect(names.some((name) => /^pillarstack-.*\.cjs/.test(name))).toBe(true);
      expect(names.filter((name) => !name.endsWith(SUFFIX))).toEqual([]); // no temporary file left
      for (const [name, { mode }] of written) expect({ name, mode }).toEqual({ name, mode: 0o600 });
      expect(statSync(join(home, "merge")).mode & 0o777).toBe(0o700);
      expect(statSync(join(home, "merge", "v8-cache")).mode & 0o777).toBe(0o700);
      // With the cache home unset, the cache is ~/.cache/merge/v8-cache (a relative XDG_CACHE_HOME is ignored too).
      const user = freshHome();
      expect(stack({ XDG_CACHE_HOME: "relative", HOME: user }).stdout).toBe(first.stdout);
      expect(existsSync(join(user, ".cache", "merge", "v8-cache", `bin.cjs${SUFFIX}`))).toBe(true);
    });

    it("a second run reads the entries and leaves them as they are", () => {
      const home = freshHome();
      const first = stack({ XDG_CACHE_HOME: home });
      const before = entries(home);
      const second = stack({ XDG_CACHE_HOME: home });
      expect(second).toEqual(first);
      // V8 accepted every entry: one it rejected would have been written again (a new file renamed over it).
      expect(entries(home)).toEqual(before);
    });

    it("an entry V8 rejects is ignored and replaced, silently", () => {
      const home = freshHome();
      stack({ XDG_CACHE_HOME: home });
      const entry = join(home, "merge", "v8-cache", `bin.cjs${SUFFIX}`);
      writeFileSync(entry, "not a code cache");
      const damaged = stack({ XDG_CACHE_HOME: home });
      expect(damaged).toEqual(uncached());
      expect(readFileSync(entry, "latin1")).not.toBe("not a code cache");
      const replaced = entries(home);
      expect(stack({ XDG_CACHE_HOME: home }).status).toBe(0);
      expect(entries(home)).toEqual(replaced); // the new entry is accepted
    });

    it("an entry with a damaged byte in V8's data is not handed to V8, and is replaced", () => {
      // V8's release builds do not check a code cache and may run damaged data (and crash); an entry is used only
      // when its two copies of the data agree. The largest entry, with one byte of its first copy flipped.
      const home = freshHome();
      const first = stack({ XDG_CACHE_HOME: home });
      const dir = join(home, "merge", "v8-cache");
      const [name] = [...entries(home)].sort(
        ([a], [b]) => statSync(join(dir, b)).size - statSync(join(dir, a)).size,
      )[0]!;
      const entry = join(dir, name);
      const bytes = readFileSync(entry);
      const [data, copy] = copies(bytes);
      expect(data.length).toBeGreaterThan(100_000);
      expect(data.equals(copy)).toBe(true);
      const at = STAMP_BYTES + Math.floor(data.length / 2);
      bytes[at] = bytes[at]! ^ 0xff;
      writeFileSync(entry, bytes);
      const damaged = entries(home).get(name)!;
      expect(stack({ XDG_CACHE_HOME: home })).toEqual(first);
      // Written again (a new file renamed over the damaged one), whole.
      expect(entries(home).get(name)!.ino).not.toBe(damaged.ino);
      const [again, againCopy] = copies(readFileSync(entry));
      expect(again.equals(againCopy)).toBe(true);
    });

    it("removes this release's entries of chunks the bundle no longer has, and leaves other releases' alone", () => {
      const home = freshHome();
      const dir = join(home, "merge", "v8-cache");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(join(home, "merge"), 0o700);
      // A chunk of an earlier build of this release (its name's content hash is gone), and one of another release.
      const stale = `merging-0ld8u1ld.cjs${SUFFIX}`;
      const other = `merging-0ld8u1ld.cjs-0.0.1-${process.version}-${process.arch}`;
      writeFileSync(join(dir, stale), "stale");
      writeFileSync(join(dir, other), "other");
      expect(stack({ XDG_CACHE_HOME: home })).toEqual(uncached());
      const names = [...entries(home).keys()];
      expect(names).not.toContain(stale);
      expect(names).toContain(other);
      expect(names).toContain(`bin.cjs${SUFFIX}`);
      expect(names.some((name) => /^pillarstack-.*\.cjs/.test(name) && name.endsWith(SUFFIX))).toBe(true);
    });

    it("a rebuilt file of the same name and length is compiled afresh, not run from the old file's entry", () => {
      // A copy of the installed command whose bin.cjs then changes; its name carries no content hash.
      const copy = freshHome();
      mkdirSync(join(copy, "dist"));
      cpSync(join(PACKAGE_DIR, "package.json"), join(copy, "package.json"));
      cpSync(join(PACKAGE_DIR, "bin"), join(copy, "bin"), { recursive: true });
      cpSync(join(PACKAGE_DIR, "dist", "bin.cjs"), join(copy, "dist", "bin.cjs"));
      cpSync(join(PACKAGE_DIR, "dist", "chunks"), join(copy, "dist", "chunks"), { recursive: true });
      const home = freshHome();
      const unknown = () =>
        spawnSync(process.execPath, [join(copy, "bin", "merge.cjs"), "nosuch"], {
          encoding: "utf8",
          env: { ...process.env, XDG_CACHE_HOME: home, MERGE_NO_COMPILE_CACHE: undefined },
        }).stderr;
      expect(unknown()).toContain('merge: unknown command "nosuch"');
      const bin = join(copy, "dist", "bin.cjs");
      const code = readFileSync(bin, "utf8");
      const changed = code.replaceAll('unknown command "', 'UNKNOWN command "');
      expect(changed).not.toBe(code);
      writeFileSync(bin, changed);
      expect(unknown()).toContain('merge: UNKNOWN command "nosuch"');
    });

    it("MERGE_NO_COMPILE_CACHE=1 or NODE_DISABLE_COMPILE_CACHE=1 reads and writes nothing", () => {
      for (const name of ["MERGE_NO_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"]) {
        const home = freshHome();
        const result = stack({ XDG_CACHE_HOME: home, [name]: "1" });
        expect(result).toEqual(uncached());
        expect({ name, files: readdirSync(home) }).toEqual({ name, files: [] });
      }
    });

    it("writes nothing into a directory others may write to, or that is a link, and fails silently elsewhere", () => {
      const shared = freshHome();
      mkdirSync(join(shared, "merge", "v8-cache"), { recursive: true });
      chmodSync(join(shared, "merge", "v8-cache"), 0o777);
      expect(stack({ XDG_CACHE_HOME: shared })).toEqual(uncached());
      expect(readdirSync(join(shared, "merge", "v8-cache"))).toEqual([]);

      const linked = freshHome();
      const target = freshHome();
      mkdirSync(join(linked, "merge"));
      symlinkSync(target, join(linked, "merge", "v8-cache"));
      expect(stack({ XDG_CACHE_HOME: linked })).toEqual(uncached());
      expect(readdirSync(target)).toEqual([]);

      // The cache home is a file: no directory can be made there.
      const file = join(freshHome(), "file");
      writeFileSync(file, "");
      expect(stack({ XDG_CACHE_HOME: file })).toEqual(uncached());
    });

    it("keeps exit statuses, error messages and --plugin (its import() of the unbundled modules) from the cache", () => {
      const home = freshHome();
      for (const round of ["fresh", "cached"]) {
        const missing = run(["docs", "missing.yml"], { XDG_CACHE_HOME: home });
        expect({ round, status: missing.status, stdout: missing.stdout }).toEqual({
          round,
          status: 1,
          stdout: "",
        });
        expect(missing.stderr).toContain("missing.yml");
        const usage = run(["docs", "--no-such-option"], { XDG_CACHE_HOME: home });
        expect({ round, status: usage.status }).toEqual({ round, status: 2 });
        const plugin = run(upperPluginArgs(), { XDG_CACHE_HOME: home });
        expect({ round, ...plugin }).toEqual({
          round,
          status: 0,
          stdout: "service:\n  name: WORKER\n",
          stderr: "",
        });
      }
      expect(readdirSync(join(home, "merge", "v8-cache")).length).toBeGreaterThan(0);
    });
  },
);

describe.runIf(NODE_HAS_CACHE)("bin/merge.cjs on a Node with module.enableCompileCache", () => {
  it("leaves the caching of its own code to Node (only compiled templates are its own)", () => {
    const home = freshHome();
    expect(stack({ XDG_CACHE_HOME: home })).toEqual(uncached());
    expect(readdirSync(join(home, "merge"))).toEqual(["templates"]);
  });
});

/** The compiled-template entries of a cache home (src/build-cache.ts): path, and template name from the key. */
function templateEntries(home: string): { path: string; name: string; key: string; code: string }[] {
  const root = join(home, "merge", "templates");
  return readdirSync(root).flatMap((build) =>
    readdirSync(join(root, build)).map((file) => {
      const path = join(root, build, file);
      const [key, code] = JSON.parse(readFileSync(path, "utf8")) as [string, string, string];
      return { path, name: JSON.parse(key.split("\n")[1]!) as string, key, code };
    }),
  );
}

describe("compiled templates kept between runs", () => {
  it("a first run stores each template it compiled; the next one runs the stored code", () => {
    const home = freshHome();
    expect(stack({ XDG_CACHE_HOME: home })).toEqual(uncached());
    const stored = templateEntries(home);
    // The config and the two templated YAML files of examples/stack; plain YAML is never compiled.
    expect(stored.map((entry) => entry.name).sort()).toEqual([
      "common/xxx.yml",
      "common/yyy.yml",
      "config.cfg",
    ]);
    expect(statSync(join(home, "merge", "templates")).mode & 0o777).toBe(0o700);
    for (const { path } of stored) expect(statSync(path).mode & 0o777).toBe(0o600);
    // Stored code is what runs: the same entry with one literal changed (both copies) changes the output.
    const monitoring = stored.find((entry) => entry.name === "common/xxx.yml")!;
    const changed = monitoring.code.replace("agent: node_exporter", "agent: from_the_cache");
    expect(changed).not.toBe(monitoring.code);
    writeFileSync(monitoring.path, JSON.stringify([monitoring.key, changed, changed]));
    const second = stack({ XDG_CACHE_HOME: home });
    expect(second.stdout).toBe(uncached().stdout.replace("agent: node_exporter", "agent: from_the_cache"));
  });

  it("an entry whose copies differ (a damaged byte) is compiled afresh and written again whole", () => {
    const home = freshHome();
    stack({ XDG_CACHE_HOME: home });
    const monitoring = templateEntries(home).find((entry) => entry.name === "common/xxx.yml")!;
    const damaged = monitoring.code.replace("agent: node_exporter", "agent: node_exp0rter");
    writeFileSync(monitoring.path, JSON.stringify([monitoring.key, damaged, monitoring.code]));
    expect(stack({ XDG_CACHE_HOME: home })).toEqual(uncached());
    const [, code, copy] = JSON.parse(readFileSync(monitoring.path, "utf8")) as string[];
    expect([code, copy]).toEqual([monitoring.code, monitoring.code]);
  });

  it("MERGE_NO_COMPILE_CACHE=1 stores no template; --plugin (the unbundled modules) neither", () => {
    const home = freshHome();
    expect(stack({ XDG_CACHE_HOME: home, MERGE_NO_COMPILE_CACHE: "1" })).toEqual(uncached());
    expect(existsSync(join(home, "merge", "templates"))).toBe(false);
    const plugin = run(
      [...STACK_EXAMPLE_ARGS, "--plugin", join(FIXTURES, "plugins", "factory.mjs")],
      { XDG_CACHE_HOME: home },
      join(REPO, "examples", "stack"),
    );
    expect(plugin.stdout).toBe(uncached().stdout);
    expect(existsSync(join(home, "merge", "templates"))).toBe(false);
  });
});

/** A stack whose one file is plain YAML large enough to be kept parsed (8 KB or more), and a small templated one. */
function bigPlainTree(): string {
  const dir = mkdtempSync(join(tmpdir(), "merge-cc-docs-"));
  const lines = Array.from(
    { length: 400 },
    (_, i) => `  pkg_${i}: {version: '1.${i}', pinned: ${i % 2 === 0}}`,
  );
  writeFileSync(join(dir, "stack.cfg"), "packages.yml\nhost.yml\n");
  writeFileSync(join(dir, "packages.yml"), `packages:\n${lines.join("\n")}\nrelease: 2024-01-02\n`);
  writeFileSync(join(dir, "host.yml"), "host: {{ minion_id }}\nsecret: {{ pillar['secret'] }}\n");
  writeFileSync(join(dir, "pillar.json"), JSON.stringify({ secret: "hunter2" }));
  return dir;
}

/** The parsed-document entries of a cache home: path, key (whose end is the text) and the stored value. */
function documentEntries(home: string): { path: string; key: string; value: string }[] {
  const root = join(home, "merge", "documents");
  return readdirSync(root).flatMap((build) =>
    readdirSync(join(root, build)).map((file) => {
      const path = join(root, build, file);
      const [key, value] = JSON.parse(readFileSync(path, "utf8")) as [string, string, string];
      return { path, key, value };
    }),
  );
}

describe("parsed YAML kept between runs", () => {
  const args = ["stack", "stack.cfg", "--minion-id", "web1", "--pillar", "pillar.json", "--format", "json"];

  it("a large plain file is stored once parsed and read back by the next run; a rendered one never is", () => {
    const tree = bigPlainTree();
    const home = freshHome();
    const plain = run(args, { XDG_CACHE_HOME: home, MERGE_NO_COMPILE_CACHE: "1" }, tree);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('"pkg_399"');
    expect(run(args, { XDG_CACHE_HOME: home }, tree)).toEqual(plain);
    const stored = documentEntries(home);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.key.endsWith("release: 2024-01-02")).toBe(true);
    expect(statSync(join(home, "merge", "documents")).mode & 0o777).toBe(0o700);
    expect(statSync(stored[0]!.path).mode & 0o777).toBe(0o600);
    const all = readdirSync(join(home, "merge", "documents"), { recursive: true, encoding: "utf8" })
      .map((name) => join(home, "merge", "documents", name))
      .filter((path) => statSync(path).isFile())
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(all).not.toContain("hunter2");
    // The stored value is what the next run reads: one changed by hand (both copies) shows in the output.
    const changed = stored[0]!.value.replace('"1.7"', '"from the store"');
    expect(changed).not.toBe(stored[0]!.value);
    writeFileSync(stored[0]!.path, JSON.stringify([stored[0]!.key, changed, changed]));
    const again = run(args, { XDG_CACHE_HOME: home }, tree);
    expect(again.stdout).toBe(plain.stdout.replace('"1.7"', '"from the store"'));
    // A damaged entry (copies that differ) is parsed afresh and written again whole.
    writeFileSync(stored[0]!.path, JSON.stringify([stored[0]!.key, changed, stored[0]!.value]));
    expect(run(args, { XDG_CACHE_HOME: home }, tree)).toEqual(plain);
    expect(documentEntries(home)[0]!.value).toBe(stored[0]!.value);
  });

  it("MERGE_NO_COMPILE_CACHE=1 stores nothing", () => {
    const tree = bigPlainTree();
    const home = freshHome();
    expect(run(args, { XDG_CACHE_HOME: home, MERGE_NO_COMPILE_CACHE: "1" }, tree).status).toBe(0);
    expect(existsSync(join(home, "merge", "documents"))).toBe(false);
  });
});
