import { rmSync } from "node:fs";
import { defineConfig, type Plugin } from "rolldown";

// Chunk names carry a content hash: the last build's chunks go first (tsc's output next to them stays).
rmSync(new URL("./dist/chunks", import.meta.url), { recursive: true, force: true });

const NO_WATCH = "\0nunjucks-without-watch";

/**
 * nunjucks' file loaders `require("chokidar")` for their `watch` option, which @merge/jinja never sets (it has no
 * file loader at all). Left alone, the bundler resolves that to the CLI's own chokidar and the template engine's
 * chunk imports the watcher's chunk at start-up; this module stands in for it and fails as a missing chokidar would.
 */
function nunjucksWithoutWatch(): Plugin {
  return {
    name: "nunjucks-without-watch",
    resolveId(source, importer) {
      if (source === "chokidar" && importer !== undefined && /[\\/]nunjucks[\\/]/.test(importer))
        return NO_WATCH;
      return null;
    },
    load(id) {
      return id === NO_WATCH ? 'throw new Error("nunjucks\' watch option is not available in merge");' : null;
    },
  };
}

/**
 * Node builds an ES-module face for a built-in the first time an ES module imports it, and reads every export to do
 * so: `import { readFileSync } from "node:fs"` runs fs's lazy getters and loads Node's streams, `node:crypto` loads
 * WebCrypto — about 20 ms of a `merge cloud-config` run that uses neither. `process.getBuiltinModule` (Node 20.16+)
 * hands over the module itself, so each chunk takes its built-ins from it instead: `import{a as b}from"node:m"`
 * becomes `const{a:b}=process.getBuiltinModule("node:m")` in place, at the top of the chunk where the import was.
 * Any other static import from a built-in fails the build, so none is left on the slow path unnoticed (a dynamic
 * `import("node:net")` stays: it is paid only on the path that needs it).
 */
function builtinsWithoutFacade(): Plugin {
  const statement = /import(?:\s*\*\s*as\s+([\w$]+)|\s*\{([^}]*)\})\s*from\s*"(node:[\w/]+)";?/g;
  return {
    name: "builtins-without-facade",
    renderChunk(code, chunk) {
      const rewritten = code.replace(
        statement,
        (_, namespace: string | undefined, names: string | undefined, id) => {
          const module = `process.getBuiltinModule(${JSON.stringify(id)})`;
          if (namespace !== undefined) return `const ${namespace}=${module};`;
          const bindings = names!
            .split(",")
            .map((name) => name.trim())
            .filter((name) => name !== "")
            .map((name) => name.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, "$1:$2"));
          return `const{${bindings.join(",")}}=${module};`;
        },
      );
      if (/\bfrom\s*"node:/.test(rewritten))
        throw new Error(`${chunk.fileName}: an import from a Node built-in this build does not rewrite`);
      return { code: rewritten, map: null };
    },
  };
}

/**
 * A command's chunk is loaded when the command runs. Node's `import()` reads each module file through libuv's thread
 * pool and resolves it over several turns of the event loop; `require()` of an ES module (Node 20.19+) loads the
 * same module, with its static imports, synchronously, and the first command chunk with its dependencies costs a
 * few milliseconds less. Each `import("./chunk.js")` of a chunk becomes a call that does that where Node can, and is
 * still a promise (a failure to load rejects it, as `import()` does).
 */
function chunksLoadedSynchronously(): Plugin {
  const dynamicImport = /\bimport\(\s*"(\.\.?\/[^"]+)"\s*\)/g;
  const loader = [
    "const __mergeRequire = process.features.require_module === true",
    '  ? process.getBuiltinModule("node:module").createRequire(import.meta.url) : undefined;',
    "const __mergeLoad = (specifier) => __mergeRequire === undefined ? import(specifier)",
    "  : new Promise((resolve) => resolve(__mergeRequire(specifier)));",
    "",
  ].join("\n");
  return {
    name: "chunks-loaded-synchronously",
    renderChunk(code) {
      const rewritten = code.replace(
        dynamicImport,
        (_, specifier: string) => `__mergeLoad(${JSON.stringify(specifier)})`,
      );
      if (rewritten === code) return null;
      // After the `#!` line of bin.js, which must stay the first.
      const hashbang = /^#!.*\n/.exec(rewritten)?.[0] ?? "";
      return { code: hashbang + loader + rewritten.slice(hashbang.length), map: null };
    },
  };
}

/**
 * The `merge` command as a bundle (see README, "How it is built"): `dist/bin.js` holds the start-up path (argument
 * parsing, help, the command table) and each command is a chunk in `dist/chunks/` loaded only when that command
 * runs. Node's ESM loader costs about as much per module as V8 takes to read 20 kB of code, so the modules every
 * merging command needs (@merge/core, the YAML reader and writer, output, --explain) are one chunk, and the
 * template engine with the PillarStack loader another. The library entry (`dist/index.js`, `run()`) stays tsc's
 * output.
 */
export default defineConfig({
  input: { bin: "src/bin.ts" },
  platform: "node",
  // bin.js is run, never imported: its exports need not be kept as written (needed by the chunk groups below).
  preserveEntrySignatures: false,
  // mysql2 stays an import of the installed package (only MySQL entries load it, and it loads its parts itself).
  // @merge/core is bundled with everything that uses it, @merge/source-mysql included, so the exact model's PyDict is
  // one class for the whole command. With --plugin, bin.ts runs the unbundled modules instead (one @merge/core for
  // the command and the plugin). @merge/yaml loads the `yaml` parser on demand from the installed package.
  external: ["mysql2"],
  plugins: [nunjucksWithoutWatch(), builtinsWithoutFacade(), chunksLoadedSynchronously()],
  output: {
    dir: "dist",
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    minify: true,
    // Pure-ASCII chunks: one non-ASCII character makes Node decode a module's whole text the slow way and V8 scan it
    // as a two-byte string; escaped, the same text is read and parsed as one-byte.
    charset: "ascii",
    codeSplitting: {
      // Left to itself, rolldown puts the template engine into the chunk every merging command shares (it imports
      // @merge/yaml's emitter too), and `merge cloud-config` would load nunjucks for nothing.
      includeDependenciesRecursively: false,
      groups: [
        // What bin.js imports (argument parsing, help, the command table, what commands share with them): one chunk.
        // bin.ts stays the entry (bin/merge.cjs require()s it; the group's chunk is its first import), and
        // run.ts stays beside it in dist/, where `../package.json` is the package's (`merge --version`).
        { name: "startup", tags: ["$initial"], test: (id) => !/[\\/]src[\\/](bin|main|run)\.ts$/.test(id) },
        {
          name: "pillarstack",
          test: /[\\/](source-stack|jinja|nunjucks|asap|a-sync-waterfall)[\\/]|nunjucks-without-watch/,
        },
        {
          name: "cloudinit",
          test: /[\\/]packages[\\/]mergers-cloudinit[\\/]dist[\\/]|[\\/]cli[\\/]src[\\/]commands[\\/]cloud-init-common/,
        },
        {
          name: "merging",
          test: /rolldown[\\/]runtime|[\\/]packages[\\/](core|yaml|explain|strategies-stack)[\\/]dist[\\/]|[\\/]cli[\\/]src[\\/](commands[\\/](common|result|checks|builtins)|explain[\\/]|load-document|read-input|write-output|output-target|render|key-path|plugins)/,
        },
      ],
    },
  },
});
