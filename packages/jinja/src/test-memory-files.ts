// A small in-memory `TemplateFileSystem` for the tests (not part of the build): files by `/`-separated name under
// an absolute root, directories implied by the files in them, no dates (so the renderer compares texts), and a
// `write` to change a file between renders. `@merge/source-stack`'s `createMemoryFileSystem` is the published one.
import type { TemplateFileInfo, TemplateFileSystem } from "./files.js";

const FILE: TemplateFileInfo = { isFile: () => true, isDirectory: () => false };
const DIR: TemplateFileInfo = { isFile: () => false, isDirectory: () => true };

export interface TestFiles extends TemplateFileSystem {
  write(name: string, text: string): void;
  /** The absolute paths read so far, in order. */
  readonly reads: string[];
}

export function memoryFiles(files: Record<string, string | Uint8Array>, root: string): TestFiles {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const bytes = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  const encode = (text: string | Uint8Array) =>
    typeof text === "string" ? new TextEncoder().encode(text) : text;
  const write = (name: string, text: string | Uint8Array) => {
    bytes.set(prefix + name, encode(text));
    // Every ancestor up to the root is a directory.
    const parts = (prefix + name).split("/").slice(1, -1);
    dirs.add("/");
    for (let i = 1; i <= parts.length; i++) dirs.add(`/${parts.slice(0, i).join("/")}`);
  };
  for (const [name, text] of Object.entries(files)) write(name, text);
  // Paths with `.` and `..` resolved as text (enough here: the tree has no symlinks).
  const normal = (path: string): string | undefined => {
    const out: string[] = [];
    const parts = path.split("/");
    for (const [i, part] of parts.entries()) {
      if (part === "" || part === ".") continue;
      if (part === "..") out.pop();
      else {
        // Anything after a file asks for a directory, which a file is not.
        if (bytes.has(`/${[...out, part].join("/")}`) && i < parts.length - 1) return undefined;
        out.push(part);
      }
    }
    return `/${out.join("/")}`;
  };
  const reads: string[] = [];
  return {
    reads,
    write,
    stat(path) {
      const p = normal(path);
      if (p === undefined) return undefined;
      return bytes.has(p) ? FILE : dirs.has(p) ? DIR : undefined;
    },
    realpath(path) {
      const p = normal(path);
      if (p === undefined || (!bytes.has(p) && !dirs.has(p))) throw new Error(`ENOENT: ${path}`);
      return p;
    },
    readFile(path) {
      const p = normal(path);
      const found = p === undefined ? undefined : bytes.get(p);
      if (found === undefined) throw new Error(`ENOENT: ${path}`);
      reads.push(path);
      return found;
    },
  };
}
