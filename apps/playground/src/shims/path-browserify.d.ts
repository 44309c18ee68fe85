// path-browserify ships no types: it is Node's `path.posix`.
declare module "path-browserify" {
  import type { posix } from "node:path";
  const path: typeof posix;
  export default path;
}
