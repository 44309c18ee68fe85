import { lstatSync } from "node:fs";

/** Others may write into it (a cache's rule: what is read from it is run). */
export const OTHERS_WRITE = 0o022;
/** Others may do anything in it, even enter or list it (the daemon's rule: its socket receives whole commands). */
export const OTHERS_ANY = 0o077;

/**
 * Whether `dir` is a directory of this user's own, not a link to one, where no one else has the rights in
 * `forbidden`. A directory someone else controls could hold their code, or their socket. Where there are no Unix
 * users (Windows), any directory.
 */
export function ownDirectory(dir: string, forbidden: number): boolean {
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (typeof process.getuid !== "function") return true;
    return stat.uid === process.getuid() && (stat.mode & forbidden) === 0;
  } catch {
    return false;
  }
}
