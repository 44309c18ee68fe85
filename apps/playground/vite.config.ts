import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const require = createRequire(import.meta.url);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

// Node built-ins reached by the packages and the libraries under them, and what stands in for each in the browser
// (the README says why). Bare names are mapped too: under pnpm a library cannot resolve a package it does not
// declare (nunjucks asks for `events`, mailsplit for `stream`), so each points at this app's copy.
const builtins: Record<string, string> = {
  fs: here("./src/shims/fs.ts"),
  path: here("./src/shims/path.ts"),
  zlib: here("./src/shims/zlib.ts"),
  stream: packageDir("readable-stream"),
  events: packageDir("events"),
  string_decoder: packageDir("string_decoder"),
  os: here("./src/shims/unavailable.ts"),
  url: here("./src/shims/unavailable.ts"),
  worker_threads: here("./src/shims/unavailable.ts"),
};

export default defineConfig({
  // Relative asset paths: the built folder works from any static host and any sub-path.
  base: "./",
  resolve: {
    alias: [
      { find: /^node:buffer$/, replacement: here("./src/shims/buffer.ts") },
      { find: /^buffer$/, replacement: `${packageDir("buffer")}/index.js` },
      ...Object.entries(builtins).flatMap(([name, target]) => [
        { find: new RegExp(`^(node:)?${name}$`), replacement: target },
      ]),
    ],
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  worker: { format: "es" },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    // The size a first visit downloads is measured and reported by scripts/sizes.mjs.
    reportCompressedSize: true,
  },
});
