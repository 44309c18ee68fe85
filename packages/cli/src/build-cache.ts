// What the bundled command keeps between runs, besides V8's compiled code (bin/compile-cache.cjs):
// - `templates`: compiled Jinja templates (`CompiledTemplateStore` of @merge/jinja). Compiling a PillarStack file's
//   Jinja into JavaScript costs about a millisecond while the compiler is still cold; a one-host `merge stack`
//   compiles five or six, a batch every file of the tree. A later run reads the code instead.
// - `documents`: parsed plain YAML files of a stack of 8 KB or more (`parsedDocuments` of @merge/source-stack). A
//   750 KB file takes 140 ms to parse and 21 ms to read back; smaller files are not worth an entry.
//
// Where: `$XDG_CACHE_HOME/merge/KIND` (else `~/.cache/merge/KIND`), one directory per build of the bundle, a file per
// entry. Every saved version of a file is an entry of its own (the key holds the whole text), so a `--watch` left
// running all day would add one per edit: past BUILD_CACHE_LIMITS, the oldest entries go (see `pruneEntries`).
// Template code is run as it is read, so the rules of bin/compile-cache.cjs hold here too: the directory must
// be the user's own and writable by no one else, entries are written whole (a temporary file renamed) and used only
// whole, and every failure to read or write only means compiling or parsing. MERGE_NO_COMPILE_CACHE=1 (or
// NODE_DISABLE_COMPILE_CACHE=1) turns both off with the V8 cache.
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { OTHERS_WRITE, ownDirectory } from "./own-directory.js";

/** A key-value store of texts: `CompiledTemplateStore` of @merge/jinja and `ParsedDocumentStore` of @merge/source-stack. */
export interface BuildCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** What a cache holds; each kind has a directory of its own under `merge/`. */
export type BuildCacheKind = "templates" | "documents";

/** A build directory nobody has written to for this long belongs to a release no longer run; it is removed. */
const UNUSED_BUILD_MS = 7 * 24 * 60 * 60 * 1000;

/** How much one build's cache of one kind may hold before its oldest entries are removed. */
export interface BuildCacheLimits {
  readonly entries: number;
  readonly bytes: number;
}

/**
 * Far above what one tree needs (a 40-file PillarStack tree makes about 45 template entries; a large plain file a
 * document entry of about twice its size), so a tree's own entries are not pushed out by each other.
 */
export const BUILD_CACHE_LIMITS: BuildCacheLimits = { entries: 5000, bytes: 256 * 1024 * 1024 };

/** A process checks the limits at its first write and then every this many writes. */
const WRITES_BETWEEN_CHECKS = 100;

/** A temporary file this old is a leftover of a process that was stopped between writing and renaming it. */
const LEFTOVER_MS = 60 * 60 * 1000;

/**
 * The cache of `kind` for the build the bundle `bundleFile` belongs to (dist/bin.cjs or one of its chunks), or
 * undefined when it is off: turned off by the environment, no cache home, or not running from the bundle (with
 * `--plugin` the unbundled modules run, and nothing ties their code to a build). Nothing is read or written before
 * the first use.
 */
export function openBuildCache(
  env: Readonly<Record<string, string | undefined>>,
  kind: BuildCacheKind,
  bundleFile: string = fileURLToPath(import.meta.url),
  limits: BuildCacheLimits = BUILD_CACHE_LIMITS,
): BuildCache | undefined {
  if (switchedOff(env.MERGE_NO_COMPILE_CACHE) || switchedOff(env.NODE_DISABLE_COMPILE_CACHE))
    return undefined;
  if (!bundleFile.endsWith(".cjs")) return undefined;
  const home = cacheHome(env);
  if (home === undefined) return undefined;
  const root = join(home, "merge", kind);
  // The build's directory, once known; null when the bundle cannot be identified.
  let dir: string | null | undefined;
  const buildDir = (): string | null => {
    if (dir === undefined) {
      const name = buildName(bundleFile);
      dir = name === undefined ? null : join(root, name);
    }
    return dir;
  };
  let readable: boolean | undefined;
  let writes = 0;
  return {
    get(key) {
      const at = buildDir();
      if (at === null) return undefined;
      readable ??= ownDirectory(at, OTHERS_WRITE);
      if (!readable) return undefined;
      try {
        return entryValue(readFileSync(join(at, entryName(key)), "utf8"), key);
      } catch {
        return undefined;
      }
    },
    set(key, value) {
      const at = buildDir();
      if (at === null) return;
      if (!ownDirectory(at, OTHERS_WRITE)) {
        try {
          mkdirSync(root, { recursive: true, mode: 0o700 });
          mkdirSync(at, { mode: 0o700 });
        } catch {
          return;
        }
        if (!ownDirectory(at, OTHERS_WRITE)) return;
        removeUnusedBuilds(root, basename(at));
      }
      readable = true;
      const file = join(at, entryName(key));
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        // The value twice: an entry is used only when both copies agree, so a damaged byte is never run or read.
        writeFileSync(temporary, JSON.stringify([key, value, value]), { mode: 0o600 });
        renameSync(temporary, file);
      } catch {
        rmSync(temporary, { force: true });
        return;
      }
      if (writes++ % WRITES_BETWEEN_CHECKS === 0) pruneEntries(at, limits, basename(file));
    },
  };
}

function switchedOff(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0";
}

function cacheHome(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  try {
    const home = homedir();
    return home === "" ? undefined : join(home, ".cache");
  } catch {
    return undefined;
  }
}

/**
 * A name for the build the running bundle comes from: the names of its chunks (each carries a hash of its content,
 * and the template compiler is in one of them) and the change time and size of dist/bin.cjs (rewritten by every
 * build). Any rebuild or upgrade gets a directory of its own.
 */
function buildName(bundleFile: string): string | undefined {
  const here = dirname(bundleFile);
  const dist = basename(here) === "chunks" ? dirname(here) : here;
  try {
    const chunks = readdirSync(join(dist, "chunks")).sort();
    const bin = statSync(join(dist, "bin.cjs"));
    return `build-${hashText(`${chunks.join("\n")}\n${bin.ctimeMs}\n${bin.size}`)}`;
  } catch {
    return undefined;
  }
}

/** An entry's value when it is one for `key` and whole, else undefined. */
export function entryValue(text: string, key: string): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entry) || entry.length !== 3 || entry[0] !== key) return undefined;
  const [, value, copy] = entry as unknown[];
  return typeof value === "string" && value === copy ? value : undefined;
}

/**
 * The file an entry is kept in: its key's length and a hash of its start (the renderer's options, the template's
 * name, the text's first lines) and end. Hashing every character would cost more than the cache saves while the
 * hashing code is not yet compiled (about 2 ms for a one-host run); two keys that meet in one file only displace
 * each other, since an entry holds its whole key.
 */
function entryName(key: string): string {
  const sample = key.length <= SAMPLED ? key : `${key.slice(0, SAMPLED / 2)}${key.slice(-SAMPLED / 2)}`;
  return `${hashText(sample)}-${key.length.toString(36)}.json`;
}

const SAMPLED = 512;

/** 64 bits of two FNV-1a-style hashes with different multipliers, as 16 hex digits; not for security. */
export function hashText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** Removes the other builds' directories nothing was written to for a week (a new build is being started). */
function removeUnusedBuilds(root: string, current: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(root)) {
      if (name === current || !name.startsWith("build-")) continue;
      const path = join(root, name);
      if (now - lstatSync(path).mtimeMs > UNUSED_BUILD_MS) rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // A directory left behind costs only disk space.
  }
}

/**
 * Keeps a build's directory within `limits`: past either, the entries written longest ago are removed (never
 * `keep`, the one just written) until a quarter of both is free, so the next check is not due at once. Reading an
 * entry does not renew it (that would cost a write per template on every run): an old entry still in use is
 * compiled or parsed once more and written again. Temporary files a stopped process left are removed too.
 */
export function pruneEntries(dir: string, limits: BuildCacheLimits, keep: string): void {
  try {
    const now = Date.now();
    const entries: { name: string; mtimeMs: number; size: number }[] = [];
    let bytes = 0;
    for (const name of readdirSync(dir)) {
      // Another process may remove an entry between the listing and this.
      const stat = lstatSync(join(dir, name), { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (name.endsWith(".tmp")) {
        if (now - stat.mtimeMs > LEFTOVER_MS) rmSync(join(dir, name), { force: true });
        continue;
      }
      if (!name.endsWith(".json") || !stat.isFile()) continue;
      entries.push({ name, mtimeMs: stat.mtimeMs, size: stat.size });
      bytes += stat.size;
    }
    if (entries.length <= limits.entries && bytes <= limits.bytes) return;
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    let count = entries.length;
    for (const entry of entries) {
      if (count <= limits.entries * 0.75 && bytes <= limits.bytes * 0.75) break;
      if (entry.name === keep) continue;
      rmSync(join(dir, entry.name), { force: true });
      count--;
      bytes -= entry.size;
    }
  } catch {
    // An entry too many costs only disk space; the next check tries again.
  }
}
