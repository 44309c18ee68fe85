// `node:path` in the browser: POSIX paths from `path-browserify`, with `/` as the working directory (the in-memory
// stack is mounted there), so resolving a relative path never asks for a process's working directory.
import posix from "path-browserify";

export const sep = "/";
export const { basename, dirname, extname, isAbsolute, join, normalize } = posix;
export const resolve = (...paths: string[]): string => posix.resolve("/", ...paths);
export const relative = (from: string, to: string): string => posix.relative(resolve(from), resolve(to));

export default { sep, basename, dirname, extname, isAbsolute, join, normalize, resolve, relative, posix };
