// The file system templates read their imports from (`include`, `import`, `from`, `import_yaml`, `import_json`,
// `import_text`) and `__salt__['file.file_exists']` / `file.directory_exists` ask. The local one by default; a
// renderer given another (an in-memory tree in a browser, a test, an archive) never touches the disk.
import { readFileSync, realpathSync, statSync } from "node:fs";

/** What the renderer asks of a path (Node's `Stats` has all of these). */
export interface TemplateFileInfo {
  isFile(): boolean;
  isDirectory(): boolean;
  /**
   * Modification time and size. When both are given, a template file already compiled is reused while they stay
   * the same; without them its text is read again in each config run and compared.
   */
  readonly mtimeMs?: number;
  readonly size?: number;
}

/**
 * The file system a renderer reads template files from. Paths given to it are absolute, `/`-separated and hold no
 * `.` or `..` (the renderer refuses `..` in a template name before asking). `@merge/source-stack`'s
 * `StackFileSystem` (and its `createMemoryFileSystem`) has this shape, so a stack loader's file system serves its
 * templates too.
 */
export interface TemplateFileSystem {
  /** What is at a path with symlinks followed; undefined (or a throw) when nothing is there. */
  stat(path: string): TemplateFileInfo | undefined;
  /**
   * The path with symlinks resolved; throws when it cannot be resolved. A template file is refused when its real
   * path is not inside the real path of the config's directory (a symlink leading out of it).
   */
  realpath(path: string): string;
  /** The bytes of a file (decoded as UTF-8, invalid bytes replaced, a byte-order mark kept); throws on failure. */
  readFile(path: string): Uint8Array;
}

/** The local file system through `node:fs`: the default of `createRenderer`. */
export const nodeTemplateFiles: TemplateFileSystem = Object.freeze({
  // ENOENT gives undefined; other failures (ENOTDIR, EACCES) throw, and the renderer reads both as "not there".
  stat: (path: string) => statSync(path, { throwIfNoEntry: false }),
  realpath: (path: string) => realpathSync(path),
  readFile: (path: string) => readFileSync(path),
});

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** A template file's text, decoded as `readFileSync(path, "utf8")` decodes it. */
export function readTemplateText(files: TemplateFileSystem, path: string): string {
  return utf8.decode(files.readFile(path));
}

/** True when `path` is inside directory `dir` (both absolute and normalised; `dir` may be the root). */
export function isInside(path: string, dir: string, sep: string): boolean {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  return path.startsWith(prefix) && path.length > prefix.length;
}
