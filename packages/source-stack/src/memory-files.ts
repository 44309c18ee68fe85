import type { StackDirEntry, StackFileInfo, StackFileSystem } from "./files.js";
import { stackError } from "./problems.js";

type Node =
  | { readonly kind: "file"; readonly bytes: Uint8Array }
  | { readonly kind: "dir"; readonly entries: Map<string, Node> };

const FILE_INFO: StackFileInfo = {
  isFile: () => true,
  isDirectory: () => false,
  isSymbolicLink: () => false,
};
const DIR_INFO: StackFileInfo = { isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false };

/**
 * A read-only file system holding the given files, for the loader's `files` option: a stack kept in memory (a
 * browser, a test, files taken from a database). Paths are `/`-separated and relative to `root` (default `/`);
 * directories exist because files are in them. `.` and `..` in the paths the loader asks for are resolved one
 * component at a time, as an operating system does: `sub/../a.yml` names nothing when `sub` does not exist.
 * A path given with an empty, `.` or `..` component, or naming both a file and a directory, is a `STACK_PATH` error.
 */
export function createMemoryFileSystem(
  files: Readonly<Record<string, string | Uint8Array>>,
  root = "/",
): StackFileSystem {
  const top: Node = { kind: "dir", entries: new Map() };
  const encoder = new TextEncoder();
  const base = components(root);
  for (const [path, content] of Object.entries(files)) {
    const parts = path.split("/");
    if (parts.some((part) => part === "" || part === "." || part === "..")) {
      throw stackError(
        "STACK_PATH",
        `in-memory file "${path}": a path is names joined by "/", without . or ..`,
      );
    }
    let dir = top;
    const full = [...base, ...parts];
    for (const [index, name] of full.entries()) {
      const last = index === full.length - 1;
      const found = dir.entries.get(name);
      if (last) {
        if (found !== undefined) {
          throw stackError("STACK_PATH", `in-memory file "${path}" is given twice or is also a directory`);
        }
        const bytes = typeof content === "string" ? encoder.encode(content) : content;
        dir.entries.set(name, { kind: "file", bytes });
      } else if (found === undefined) {
        const sub: Node = { kind: "dir", entries: new Map() };
        dir.entries.set(name, sub);
        dir = sub;
      } else if (found.kind === "dir") {
        dir = found;
      } else {
        throw stackError("STACK_PATH", `in-memory file "${path}" is inside "${name}", which is a file`);
      }
    }
  }

  // The node at an absolute path and its real path, or undefined when the walk fails as it would on disk.
  const walk = (path: string): { node: Node; real: string } | undefined => {
    const trail: Node[] = [top];
    const names: string[] = [];
    const parts = path.split("/");
    for (const [index, part] of parts.entries()) {
      if (part === "" || part === ".") continue;
      const here = trail[trail.length - 1]!;
      if (here.kind !== "dir") return undefined;
      if (part === "..") {
        if (trail.length > 1) {
          trail.pop();
          names.pop();
        }
        continue;
      }
      const next = here.entries.get(part);
      if (next === undefined) return undefined;
      // Anything after a file ("a.yml/", "a.yml/..") asks for a directory: "not a directory", as on disk.
      if (next.kind === "file" && index < parts.length - 1) return undefined;
      trail.push(next);
      names.push(part);
    }
    return { node: trail[trail.length - 1]!, real: `/${names.join("/")}` };
  };
  const info = (path: string): StackFileInfo | undefined => {
    const found = walk(path);
    if (found === undefined) return undefined;
    return found.node.kind === "file" ? FILE_INFO : DIR_INFO;
  };
  const missing = (path: string, what: string): Error =>
    new Error(`${what}: no such ${what === "readdir" ? "directory" : "file"}: ${path}`);

  return {
    readdir(path) {
      const found = walk(path);
      if (found?.node.kind !== "dir") throw missing(path, "readdir");
      const out: StackDirEntry[] = [];
      for (const [name, node] of found.node.entries)
        out.push({ name, ...(node.kind === "file" ? FILE_INFO : DIR_INFO) });
      return out;
    },
    lstat: info,
    stat: info,
    realpath(path) {
      const found = walk(path);
      if (found === undefined) throw missing(path, "realpath");
      return found.real;
    },
    readFile(path) {
      const found = walk(path);
      if (found?.node.kind !== "file") throw missing(path, "open");
      return found.node.bytes;
    },
  };
}

function components(root: string): string[] {
  if (!root.startsWith("/")) {
    throw stackError("STACK_PATH", `the root of an in-memory file system must be absolute, not "${root}"`);
  }
  return root.split("/").filter((part) => part !== "" && part !== ".");
}
