import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_CACHE_LIMITS, entryValue, hashText, openBuildCache } from "./build-cache.js";

const fresh = (prefix: string) => mkdtempSync(join(tmpdir(), `merge-tc-${prefix}-`));

/** A bundle's layout: dist/bin.cjs and dist/chunks/ with one chunk; returns the chunk's path. */
function bundle(chunk = "startup-AbCd1234.cjs"): string {
  const dist = join(fresh("dist"), "dist");
  mkdirSync(join(dist, "chunks"), { recursive: true });
  writeFileSync(join(dist, "bin.cjs"), "// bin");
  writeFileSync(join(dist, "chunks", chunk), "// chunk");
  return join(dist, "chunks", chunk);
}

const KEY = 'prefix\n"/srv/stack/web.yml"\nrole: {{ pillar.role }}';
const CODE = "function root(env, context, frame, runtime, cb) {}\nreturn { root: root };";

/** The build directories under a cache home and the entries in each. */
function builds(home: string): Record<string, string[]> {
  const root = join(home, "merge", "templates");
  const out: Record<string, string[]> = {};
  for (const name of readdirSync(root)) out[name] = readdirSync(join(root, name));
  return out;
}

describe("openBuildCache", () => {
  it("gives back what was stored, from a 0700 directory of the build with 0600 entries", () => {
    const home = fresh("home");
    const chunk = bundle();
    const cache = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!;
    expect(cache.get(KEY)).toBeUndefined();
    expect(existsSync(join(home, "merge"))).toBe(false); // nothing is made by reading
    cache.set(KEY, CODE);
    expect(cache.get(KEY)).toBe(CODE);
    // Another process of the same build reads it.
    expect(openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.get(KEY)).toBe(CODE);
    const [build, files] = Object.entries(builds(home))[0]!;
    expect(build).toMatch(/^build-[0-9a-f]{16}$/);
    expect(files).toEqual([`${hashText(KEY)}-${KEY.length.toString(36)}.json`]); // no temporary file left
    expect(statSync(join(home, "merge")).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "merge", "templates", build)).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "merge", "templates", build, files[0]!)).mode & 0o777).toBe(0o600);
    // Another key is not there, whatever file it would be kept in; keys that meet in one file displace each other.
    expect(cache.get(`${KEY} `)).toBeUndefined();
    const long = (middle: string) => `${"a".repeat(400)}${middle}${"z".repeat(400)}`;
    cache.set(long("1"), CODE);
    expect(cache.get(long("1"))).toBe(CODE);
    expect(cache.get(long("2"))).toBeUndefined();
    cache.set(long("2"), `${CODE}\n`);
    expect([cache.get(long("1")), cache.get(long("2"))]).toEqual([undefined, `${CODE}\n`]);
  });

  it("keeps each kind in a directory of its own: a template's entry is not a document's", () => {
    const home = fresh("kinds");
    const chunk = bundle();
    openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.set(KEY, CODE);
    const documents = openBuildCache({ XDG_CACHE_HOME: home }, "documents", chunk)!;
    expect(documents.get(KEY)).toBeUndefined();
    documents.set(KEY, '["d", "a", 1]');
    expect(openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.get(KEY)).toBe(CODE);
    expect(openBuildCache({ XDG_CACHE_HOME: home }, "documents", chunk)!.get(KEY)).toBe('["d", "a", 1]');
    const [build] = Object.keys(builds(home));
    expect(readdirSync(join(home, "merge", "documents", build!))).toHaveLength(1);
    expect(statSync(join(home, "merge", "documents", build!)).mode & 0o777).toBe(0o700);
  });

  it("is under ~/.cache without an absolute XDG_CACHE_HOME, and off when asked or when not the bundle", () => {
    const chunk = bundle();
    const user = fresh("user");
    // The home directory is the process's (os.homedir() reads HOME from it).
    const home = process.env.HOME;
    process.env.HOME = user;
    try {
      openBuildCache({ XDG_CACHE_HOME: "relative" }, "templates", chunk)!.set(KEY, CODE);
    } finally {
      process.env.HOME = home;
    }
    expect(readdirSync(join(user, ".cache", "merge", "templates"))).toHaveLength(1);
    for (const name of ["MERGE_NO_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE"]) {
      expect(openBuildCache({ XDG_CACHE_HOME: user, [name]: "1" }, "templates", chunk)).toBeUndefined();
      expect(openBuildCache({ XDG_CACHE_HOME: user, [name]: "0" }, "templates", chunk)).toBeDefined();
    }
    // The unbundled modules (`--plugin`): nothing ties their code to a build.
    expect(
      openBuildCache({ XDG_CACHE_HOME: user }, "templates", "/usr/lib/merge/dist/main.js"),
    ).toBeUndefined();
  });

  it("another build (a chunk renamed by a change of its content, a rewritten bin.cjs) starts empty", () => {
    const home = fresh("home");
    const chunk = bundle("pillarstack-Aaaa1111.cjs");
    openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.set(KEY, CODE);
    const dist = join(chunk, "..", "..");
    renameSync(chunk, join(dist, "chunks", "pillarstack-Bbbb2222.cjs"));
    const rebuilt = join(dist, "chunks", "pillarstack-Bbbb2222.cjs");
    expect(openBuildCache({ XDG_CACHE_HOME: home }, "templates", rebuilt)!.get(KEY)).toBeUndefined();
    openBuildCache({ XDG_CACHE_HOME: home }, "templates", rebuilt)!.set(KEY, CODE);
    writeFileSync(join(dist, "bin.cjs"), "// bin, rebuilt");
    expect(
      openBuildCache({ XDG_CACHE_HOME: home }, "templates", join(dist, "bin.cjs"))!.get(KEY),
    ).toBeUndefined();
    expect(Object.keys(builds(home))).toHaveLength(2);
  });

  it("removes other builds' directories unused for a week when a new build starts, and keeps recent ones", () => {
    const home = fresh("home");
    const root = join(home, "merge", "templates");
    mkdirSync(join(root, "build-0000000000000old"), { recursive: true, mode: 0o700 });
    mkdirSync(join(root, "build-0000000000recent"), { mode: 0o700 });
    mkdirSync(join(root, "not-a-build"), { mode: 0o700 });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    utimesSync(join(root, "build-0000000000000old"), eightDaysAgo, eightDaysAgo);
    utimesSync(join(root, "not-a-build"), eightDaysAgo, eightDaysAgo);
    openBuildCache({ XDG_CACHE_HOME: home }, "templates", bundle())!.set(KEY, CODE);
    const left = readdirSync(root);
    expect(left).not.toContain("build-0000000000000old");
    expect(left).toContain("build-0000000000recent");
    expect(left).toContain("not-a-build");
    expect(left).toHaveLength(3);
  });

  it("uses an entry only whole: both copies of the code alike and the key its own", () => {
    expect(entryValue(JSON.stringify([KEY, CODE, CODE]), KEY)).toBe(CODE);
    expect(entryValue(JSON.stringify([KEY, CODE, CODE.replace("root", "r00t")]), KEY)).toBeUndefined();
    expect(entryValue(JSON.stringify([`${KEY}x`, CODE, CODE]), KEY)).toBeUndefined();
    expect(entryValue(JSON.stringify([KEY, CODE]), KEY)).toBeUndefined();
    expect(entryValue(JSON.stringify([KEY, 1, 1]), KEY)).toBeUndefined();
    expect(entryValue(JSON.stringify([KEY, CODE, CODE]).slice(0, -10), KEY)).toBeUndefined();
    // Through the cache: a damaged byte in the entry's file, and the entry is not used (and is written again).
    const home = fresh("home");
    const chunk = bundle();
    const cache = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!;
    cache.set(KEY, CODE);
    const [build, [file]] = Object.entries(builds(home))[0]!;
    const path = join(home, "merge", "templates", build, file!);
    const text = readFileSync(path, "utf8");
    const at = text.lastIndexOf("root");
    writeFileSync(path, `${text.slice(0, at)}R${text.slice(at + 1)}`);
    expect(openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.get(KEY)).toBeUndefined();
  });

  it("neither reads nor writes a directory others may write to or that is a link, and fails silently", () => {
    const chunk = bundle();
    const shared = fresh("shared");
    const cache = openBuildCache({ XDG_CACHE_HOME: shared }, "templates", chunk)!;
    cache.set(KEY, CODE);
    const [build] = Object.keys(builds(shared));
    const dir = join(shared, "merge", "templates", build!);
    chmodSync(dir, 0o777);
    expect(openBuildCache({ XDG_CACHE_HOME: shared }, "templates", chunk)!.get(KEY)).toBeUndefined();
    openBuildCache({ XDG_CACHE_HOME: shared }, "templates", chunk)!.set("another", CODE);
    expect(readdirSync(dir)).toHaveLength(1);

    const linked = fresh("linked");
    const target = fresh("target");
    mkdirSync(join(linked, "merge", "templates"), { recursive: true });
    symlinkSync(target, join(linked, "merge", "templates", build!));
    const throughLink = openBuildCache({ XDG_CACHE_HOME: linked }, "templates", chunk)!;
    throughLink.set(KEY, CODE);
    expect(throughLink.get(KEY)).toBeUndefined();
    expect(readdirSync(target)).toEqual([]);

    // The cache home is a file: nothing can be made there, and nothing is thrown.
    const file = join(fresh("file"), "file");
    writeFileSync(file, "");
    const nowhere = openBuildCache({ XDG_CACHE_HOME: file }, "templates", chunk)!;
    nowhere.set(KEY, CODE);
    expect(nowhere.get(KEY)).toBeUndefined();
  });

  describe("its size", () => {
    /** A cache home whose build directory holds `count` entries written a minute apart, oldest first. */
    function filled(count: number, chunk: string) {
      const home = fresh("home");
      const cache = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk, BUILD_CACHE_LIMITS)!;
      for (let i = 0; i < count; i++) cache.set(`${KEY}\nversion ${i}`, `${CODE}// ${i}`);
      const [build] = Object.keys(builds(home));
      const dir = join(home, "merge", "templates", build!);
      const start = Date.now() / 1000 - count * 60 - 60;
      for (let i = 0; i < count; i++) {
        const name = readdirSync(dir).find((file) =>
          readFileSync(join(dir, file), "utf8").includes(`version ${i}"`),
        )!;
        utimesSync(join(dir, name), start + i * 60, start + i * 60);
      }
      return { home, dir };
    }
    const versionsIn = (dir: string) =>
      readdirSync(dir)
        .filter((file) => file.endsWith(".json"))
        .map((file) => Number(/version (\d+)"/.exec(readFileSync(join(dir, file), "utf8"))![1]))
        .sort((a, b) => a - b);

    it("past the entry limit, a write removes the oldest entries until a quarter is free, the new one kept", () => {
      const chunk = bundle();
      const { home, dir } = filled(12, chunk);
      const small = { entries: 8, bytes: BUILD_CACHE_LIMITS.bytes };
      const cache = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk, small)!;
      expect(cache.get(`${KEY}\nversion 0`)).toBe(`${CODE}// 0`);
      cache.set(`${KEY}\nversion 12`, `${CODE}// 12`);
      // 13 entries, 8 allowed: down to 6, the newest (the one just written among them).
      expect(versionsIn(dir)).toEqual([7, 8, 9, 10, 11, 12]);
      expect(cache.get(`${KEY}\nversion 0`)).toBeUndefined();
      expect(cache.get(`${KEY}\nversion 12`)).toBe(`${CODE}// 12`);
    });

    it("past the byte limit, the same; within both limits nothing is removed", () => {
      const chunk = bundle();
      const { home, dir } = filled(10, chunk);
      const entrySize = statSync(join(dir, readdirSync(dir)[0]!)).size;
      const roomy = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk, {
        entries: 11,
        bytes: entrySize * 12,
      })!;
      roomy.set(`${KEY}\nversion 10`, `${CODE}// 10`);
      expect(versionsIn(dir)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const tight = openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk, {
        entries: 100,
        // Entries 10 and 11 are a few bytes longer than the others.
        bytes: entrySize * 8 + 100,
      })!;
      tight.set(`${KEY}\nversion 11`, `${CODE}// 11`);
      // At most 6 entries' bytes (three quarters of 8) are left.
      expect(versionsIn(dir)).toEqual([6, 7, 8, 9, 10, 11]);
    });

    it("removes temporary files a stopped process left an hour ago or more, not a fresh one", () => {
      const chunk = bundle();
      const { home, dir } = filled(2, chunk);
      writeFileSync(join(dir, "0123456789abcdef-1a.json.4242.tmp"), "[");
      writeFileSync(join(dir, "fedcba9876543210-1a.json.4343.tmp"), "[");
      const twoHoursAgo = Date.now() / 1000 - 2 * 60 * 60;
      utimesSync(join(dir, "0123456789abcdef-1a.json.4242.tmp"), twoHoursAgo, twoHoursAgo);
      openBuildCache({ XDG_CACHE_HOME: home }, "templates", chunk)!.set(`${KEY}\nversion 2`, CODE);
      expect(existsSync(join(dir, "0123456789abcdef-1a.json.4242.tmp"))).toBe(false);
      expect(existsSync(join(dir, "fedcba9876543210-1a.json.4343.tmp"))).toBe(true);
      expect(versionsIn(dir)).toEqual([0, 1, 2]);
    });
  });
});
