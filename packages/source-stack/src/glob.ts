/*
 * Python's `glob.glob()` (non-recursive, hidden files excluded), which PillarStack runs on every line of a config.
 * Its rules differ from fast-glob/micromatch in ways a stack notices: `{a,b}` and `(...)` are literal, `**` is just
 * `*`, `[^x]` is not a negation (only `[!x]` is), a backslash is an ordinary character, reversed ranges match
 * nothing, a literal path (no `*?[`) is returned when it exists (even a dotfile, a directory or a dangling link),
 * and wildcards never match a leading dot. So the globbing is done here, over a small directory-listing interface;
 * names are matched by `@merge/jinja`'s `fnmatch` (Salt's `grains.filter_by` matches its keys with it too).
 */

import { compileFnmatch } from "@merge/jinja";

export { fnmatch, fnmatchRegex } from "@merge/jinja";

/** The file system as glob needs it; paths are as written (relative ones resolved by the implementation). */
export interface GlobFs {
  /** Entry names of a directory (empty when it cannot be read); with `dirsOnly`, only those that are directories. */
  list(dir: string, dirsOnly: boolean): readonly string[];
  /** `os.path.lexists`: anything at this path, a dangling symlink included. */
  lexists(path: string): boolean;
  /** `os.path.isdir` (follows symlinks). */
  isDir(path: string): boolean;
}

const MAGIC = /[*?[]/;

export function hasMagic(pattern: string): boolean {
  return MAGIC.test(pattern);
}

/** `os.path.split`. */
export function splitPath(path: string): [string, string] {
  const cut = path.lastIndexOf("/") + 1;
  let head = path.slice(0, cut);
  const tail = path.slice(cut);
  if (head !== "" && !/^\/+$/.test(head)) head = head.replace(/\/+$/, "");
  return [head, tail];
}

/** `os.path.join` of two parts: an absolute second part discards the first. */
export function joinPath(a: string, b: string): string {
  if (b.startsWith("/")) return b;
  if (a === "" || a.endsWith("/")) return a + b;
  return `${a}/${b}`;
}

/** All paths matching `pattern`, in discovery order (Salt sorts them afterwards). */
export function pyGlob(pattern: string, fs: GlobFs): string[] {
  return [...iglob(pattern, false, fs)];
}

function* iglob(pathname: string, dirsOnly: boolean, fs: GlobFs): Generator<string> {
  const [dirname, basename] = splitPath(pathname);
  if (!hasMagic(pathname)) {
    if (basename !== "") {
      if (fs.lexists(pathname)) yield pathname;
    } else if (fs.isDir(dirname)) {
      // a pattern ending with "/" matches directories only
      yield pathname;
    }
    return;
  }
  if (dirname === "") {
    yield* glob1("", basename, dirsOnly, fs);
    return;
  }
  const dirs = dirname !== pathname && hasMagic(dirname) ? iglob(dirname, true, fs) : [dirname];
  const inDir = hasMagic(basename) ? glob1 : glob0;
  for (const dir of dirs) {
    for (const name of inDir(dir, basename, dirsOnly, fs)) yield joinPath(dir, name);
  }
}

function glob1(dir: string, pattern: string, dirsOnly: boolean, fs: GlobFs): string[] {
  let names = fs.list(dir === "" ? "." : dir, dirsOnly);
  if (!pattern.startsWith(".")) names = names.filter((name) => !name.startsWith("."));
  const matcher = compileFnmatch(pattern);
  return names.filter((name) => matcher(name));
}

function glob0(dir: string, basename: string, _dirsOnly: boolean, fs: GlobFs): string[] {
  if (basename === "") return fs.isDir(dir) ? [basename] : [];
  return fs.lexists(joinPath(dir, basename)) ? [basename] : [];
}

/**
 * Whether `pyGlob(pattern)` would name `path` were it there, deciding segment by segment as glob does: a segment
 * without `*?[` is compared as it is, a wildcard never matches a leading dot unless the segment starts with one. Both
 * are written alike (both absolute, or both relative to one directory; no `//`, `.` or `..`). With `leading`, a path
 * with fewer segments matches when it matches the pattern's first ones: a directory the pattern descends into.
 */
export function globMatches(pattern: string, path: string, leading = false): boolean {
  const want = pattern.split("/");
  const have = path.split("/");
  if (leading ? have.length > want.length : have.length !== want.length) return false;
  return have.every((name, index) => {
    const segment = want[index]!;
    if (!hasMagic(segment)) return segment === name;
    if (name.startsWith(".") && !segment.startsWith(".")) return false;
    return compileFnmatch(segment)(name);
  });
}
