import { createRequire } from "node:module";

type YamlLibrary = typeof import("yaml");

let library: YamlLibrary | undefined;

/**
 * The `yaml` package's parser, loaded on first use (Node). Most configuration files are read by the fast path
 * alone (fastpath.ts), so a program that never meets a text it gives up on never loads the package: `merge stack`
 * starts about as fast as `node` itself. Loading is synchronous because `loadYaml` is; the package's Node entry is
 * CommonJS, the same module an `import` would give. Browsers and other runtimes get yaml-library-static.ts (see the
 * `#yaml-library` entry of package.json's `imports`).
 */
export function yamlLibrary(): YamlLibrary {
  library ??= createRequire(import.meta.url)("yaml") as YamlLibrary;
  return library;
}
