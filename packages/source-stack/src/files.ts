import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { TemplateFileSystem } from "@merge/jinja";
import type { GlobFs } from "./glob.js";
import { stackError } from "./problems.js";

/** What the loader asks of a path or a directory entry (Node's `Stats` and `Dirent` have these methods). */
export interface StackFileInfo {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** One entry of a directory listing. */
export interface StackDirEntry extends StackFileInfo {
  readonly name: string;
}

/**
 * The file system a stack is read from, as the loader uses it. Paths given to it are absolute POSIX paths. The
 * default is the local one (`node:fs`); the loader's `files` option takes another: an in-memory tree in a browser
 * (`createMemoryFileSystem`), an archive, a version-control snapshot. It is a `TemplateFileSystem` of
 * `@merge/jinja` too (`stat`, `realpath`, `readFile`): the loader's renderer reads the files templates import
 * (`import_yaml`, `include`, ...) and answers `file.file_exists` through it.
 */
export interface StackFileSystem extends TemplateFileSystem {
  /** The entries of a directory; throws when it cannot be listed. */
  readdir(path: string): readonly StackDirEntry[];
  /** What is at a path without following a final symlink; undefined when nothing is there. */
  lstat(path: string): StackFileInfo | undefined;
  /** What is at a path with symlinks followed; undefined when nothing is there (or a link leads nowhere). */
  stat(path: string): StackFileInfo | undefined;
  /** The path with symlinks, `.` and `..` resolved; throws when it cannot be resolved. */
  realpath(path: string): string;
  /** The bytes of a file; throws when it cannot be read. */
  readFile(path: string): Uint8Array;
}

/** The local file system through `node:fs`. */
export const nodeFileSystem: StackFileSystem = {
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  // throwIfNoEntry: a missing path (minions/<id>.yml for most hosts) is common, and a thrown error is costly
  lstat: (path) => lstatSync(path, { throwIfNoEntry: false }),
  stat: (path) => statSync(path, { throwIfNoEntry: false }),
  // The native realpath: Node's JavaScript one removes `..` as text first, where the OS resolves it after the link.
  realpath: (path) => realpathSync.native(path),
  readFile: (path) => readFileSync(path),
};

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
    private readonly fs: StackFileSystem = nodeFileSystem,
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
      let entries: readonly StackDirEntry[];
      try {
        entries = this.fs.readdir(abs);
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
      kind = this.cache && this.surelyMissing(abs) ? "missing" : probe(this.fs, abs);
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
        names = new Set(this.fs.readdir(dir).map((entry) => fold(entry.name)));
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
      real = this.fs.realpath(abs);
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
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(this.fs.readFile(abs));
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

function probe(fs: StackFileSystem, abs: string): FileKind {
  if (abs.includes("\0")) return "missing";
  let link: StackFileInfo | undefined;
  try {
    link = fs.lstat(abs);
  } catch {
    return "missing";
  }
  if (link === undefined) return "missing";
  if (!link.isSymbolicLink()) return link.isFile() ? "file" : link.isDirectory() ? "dir" : "other";
  try {
    const target = fs.stat(abs);
    if (target === undefined) return "dangling";
    return target.isFile() ? "file" : target.isDirectory() ? "dir" : "other";
  } catch {
    return "dangling";
  }
}
