import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { GlobFs } from "./glob.js";
import { stackError } from "./problems.js";

/**
 * The loader's view of the stack directory. With `cache` on, directory listings, file types and file texts are read
 * once per loader and reused for every host (a loader sees the tree as it was when first read; `clear()` forgets).
 */
export class StackFiles implements GlobFs {
  private readonly listings = new Map<string, { all: string[]; dirs: string[] }>();
  private readonly texts = new Map<string, string>();
  private readonly kinds = new Map<string, FileKind>();
  private readonly reals = new Map<string, string | undefined>();
  // Per directory: its entry names folded for comparison, or null when it cannot be listed.
  private readonly names = new Map<string, Set<string> | null>();

  private readonly cwd: string;

  constructor(
    cwd: string,
    private readonly cache: boolean,
  ) {
    this.cwd = resolve(cwd);
  }

  clear(): void {
    this.listings.clear();
    this.texts.clear();
    this.kinds.clear();
    this.reals.clear();
    this.names.clear();
  }

  /**
   * Absolute form of a path as written (relative to the loader's working directory), with its `.` and `..` left for
   * the operating system to resolve, as Python's `glob` and `open` leave them: `conf/sub/../b.yml` names nothing when
   * `sub` does not exist, and `link/../b.yml` is `b.yml` next to the link's target, not next to the link.
   */
  absolute(path: string): string {
    if (isAbsolute(path)) return path;
    return this.cwd.endsWith("/") ? this.cwd + path : `${this.cwd}/${path}`;
  }

  list(dir: string, dirsOnly: boolean): readonly string[] {
    const abs = this.absolute(dir);
    let listing = this.cache ? this.listings.get(abs) : undefined;
    if (listing === undefined) {
      let entries: Dirent[];
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        entries = [];
      }
      const all: string[] = [];
      const dirs: string[] = [];
      for (const entry of entries) {
        all.push(entry.name);
        if (entry.isDirectory() || (entry.isSymbolicLink() && this.isDir(`${abs}/${entry.name}`))) {
          dirs.push(entry.name);
        }
      }
      listing = { all, dirs };
      if (this.cache) this.listings.set(abs, listing);
    }
    return dirsOnly ? listing.dirs : listing.all;
  }

  lexists(path: string): boolean {
    return this.kind(path) !== "missing";
  }

  isDir(path: string): boolean {
    return this.kind(path) === "dir";
  }

  isFile(path: string): boolean {
    return this.kind(path) === "file";
  }

  /** What is at a path: a file or directory (symlinks followed), a dangling link, something else or nothing. */
  kind(path: string): FileKind {
    const abs = this.absolute(path);
    let kind = this.cache ? this.kinds.get(abs) : undefined;
    if (kind === undefined) {
      kind = this.cache && this.surelyMissing(abs) ? "missing" : probe(abs);
      if (this.cache) {
        // Paths probed per host (minions/<id>.yml) would grow this without end on a long-lived loader.
        if (this.kinds.size >= MAX_PROBES) this.kinds.clear();
        this.kinds.set(abs, kind);
      }
    }
    return kind;
  }

  /**
   * True when the cached listing of the path's directory has no entry of that name. Most hosts of a large fleet
   * have no `minions/<id>.yml`: one directory read then answers for all of them instead of one lstat per host.
   * Names are compared case-folded and NFC-normalised, so on a case- or normalisation-insensitive file system a
   * near match still goes to lstat (which knows that file system's rules).
   */
  private surelyMissing(abs: string): boolean {
    const name = basename(abs);
    // A listing never holds `.` or `..`, and a path ending in `/` names its directory.
    if (name === "." || name === ".." || abs.endsWith("/")) return false;
    const dir = dirname(abs);
    if (dir === abs) return false;
    let names = this.names.get(dir);
    if (names === undefined) {
      try {
        names = new Set(readdirSync(dir).map(fold));
      } catch {
        names = null;
      }
      if (this.names.size >= MAX_PROBES) this.names.clear();
      this.names.set(dir, names);
    }
    return names !== null && !names.has(fold(name));
  }

  /**
   * The real path (symlinks and `..` resolved by the operating system), or undefined when it cannot be resolved.
   * Node's JavaScript `realpathSync` would first remove `..` as text, so the native one is used.
   */
  real(path: string): string | undefined {
    const abs = this.absolute(path);
    if (this.cache && this.reals.has(abs)) return this.reals.get(abs);
    let real: string | undefined;
    try {
      real = realpathSync.native(abs);
    } catch {
      real = undefined;
    }
    if (this.cache) this.reals.set(abs, real);
    return real;
  }

  /** The text of a file: strict UTF-8 with a byte-order mark kept as a character, as Jinja's loader reads it. */
  read(path: string): string {
    const abs = this.absolute(path);
    let text = this.cache ? this.texts.get(abs) : undefined;
    if (text === undefined) {
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(abs));
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw stackError("STACK_READ", `cannot read ${path}: ${reason}`, { file: path }, cause);
      }
      if (this.cache) this.texts.set(abs, text);
    }
    return text;
  }
}

const MAX_PROBES = 50_000;

const fold = (name: string): string => name.normalize("NFC").toLowerCase();

export type FileKind = "file" | "dir" | "dangling" | "other" | "missing";

function probe(abs: string): FileKind {
  if (abs.includes("\0")) return "missing";
  let link: ReturnType<typeof lstatSync> | undefined;
  try {
    // throwIfNoEntry: a missing path (minions/<id>.yml for most hosts) is common, and a thrown error is costly
    link = lstatSync(abs, { throwIfNoEntry: false });
  } catch {
    return "missing";
  }
  if (link === undefined) return "missing";
  if (!link.isSymbolicLink()) return link.isFile() ? "file" : link.isDirectory() ? "dir" : "other";
  try {
    const target = statSync(abs, { throwIfNoEntry: false });
    if (target === undefined) return "dangling";
    return target.isFile() ? "file" : target.isDirectory() ? "dir" : "other";
  } catch {
    return "dangling";
  }
}
