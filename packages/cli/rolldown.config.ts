import { rmSync } from "node:fs";
import { defineConfig } from "rolldown";

// Chunk names carry a content hash: the last build's chunks go first (tsc's output next to them stays).
rmSync(new URL("./dist/chunks", import.meta.url), { recursive: true, force: true });

/**
 * The `merge` command as a bundle (see README, "How it is built"): `dist/bin.js` holds the start-up path (argument
 * parsing, help, the command table) and each command, with the packages it uses, is a chunk in `dist/chunks/`
 * loaded only when that command runs. The library entry (`dist/index.js`, `run()`) stays tsc's output.
 */
export default defineConfig({
  input: { bin: "src/bin.ts" },
  platform: "node",
  // bin.js is run, never imported: its exports need not be kept as written (needed by the chunk groups below).
  preserveEntrySignatures: false,
  // @merge/source-mysql stays an import of the installed package: only MySQL entries need it, and its driver
  // (mysql2) is large and loads its parts itself. With --plugin, bin.ts runs the unbundled modules instead (one
  // @merge/core for the command and the plugin).
  // @merge/core is external too: source-mysql imports it, and the exact model's PyDict must be one class for the
  // command and for source-mysql (a PyDict of a second copy would read as a plain object). So is @merge/yaml: it loads
  // the `yaml` parser with a require from its own location, which a copy inside dist/chunks cannot resolve (this
  // package does not depend on `yaml`), so a text its fast path gives up on failed as PLUGIN_FAILED.
  external: ["@merge/source-mysql", "@merge/core", "@merge/yaml"],
  output: {
    dir: "dist",
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    minify: true,
    codeSplitting: {
      // Left to itself, rolldown puts the template engine into the chunk every merging command shares (it imports
      // @merge/yaml's emitter too), and `merge cloud-config` would load nunjucks for nothing.
      includeDependenciesRecursively: false,
      groups: [
        {
          name: "pillarstack",
          test: /[\\/](source-stack|jinja|nunjucks|asap|a-sync-waterfall)[\\/]/,
        },
      ],
    },
  },
});
