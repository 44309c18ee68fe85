import { statSync } from "node:fs";
import { dirname } from "node:path";
import { globMatches } from "@merge/source-stack";
import type { SearchedPath } from "./io.js";

/**
 * Where `--watch` looks for new files: the places a command searched (a missing file, a stack's glob line). Each is
 * watched from the deepest directory that exists and that every match lies in, and only down the directories that
 * can lead to a match, so `common/*.yml` watches `common/` alone and a missing `minions/web9.yml` watches the stack's
 * directory until `minions/` appears.
 */
export interface SearchWatch {
  /** Directories to hand to the watcher. */
  readonly roots: readonly string[];
  /** True for a path the watcher need not look at: neither a root, nor a match, nor on the way to one. */
  ignored(path: string): boolean;
  /** Whether a file at `path` is one a search would find. */
  finds(path: string): boolean;
}

export function searchWatch(searches: Iterable<SearchedPath>): SearchWatch {
  const list = [...searches];
  const roots = new Set(list.map(rootOf));
  const leadsTo = (path: string) =>
    list.some((search) =>
      search.glob
        ? globMatches(search.pattern, path, true)
        : search.pattern === path || search.pattern.startsWith(`${path}/`),
    );
  const finds = (path: string) =>
    list.some((search) => (search.glob ? globMatches(search.pattern, path) : search.pattern === path));
  return { roots: [...roots], ignored: (path) => !roots.has(path) && !leadsTo(path), finds };
}

/** A key that names a search in a set. */
export function searchKey(search: SearchedPath): string {
  return `${search.glob ? "glob" : "path"}:${search.pattern}`;
}

/** The directory above the search's first wildcard segment, or the nearest existing directory above that. */
function rootOf(search: SearchedPath): string {
  let dir = dirname(search.pattern);
  if (search.glob) {
    const segments = dir.split("/");
    const wild = segments.findIndex((segment) => /[*?[]/.test(segment));
    if (wild >= 0) dir = segments.slice(0, wild).join("/") || "/";
  }
  while (!isDirectory(dir)) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return dir;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
