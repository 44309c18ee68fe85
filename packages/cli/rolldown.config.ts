import { rmSync } from "node:fs";
import { defineConfig, type Plugin } from "rolldown";
import { parseAst } from "rolldown/parseAst";

// Chunk names carry a content hash: the last build's chunks go first (tsc's output next to them stays), and the
// ES-module bundle of earlier builds (dist/bin.js) with them.
rmSync(new URL("./dist/chunks", import.meta.url), { recursive: true, force: true });
rmSync(new URL("./dist/bin.js", import.meta.url), { force: true });

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
 * The import() calls left in the bundle (mysql2, `node:net`, a plugin, the unbundled modules for --plugin) go through
 * `require.import` where the module's `require` has one. bin/compile-cache.cjs compiles the chunks as scripts of its
 * own, and on Node 20 V8 cannot call Node's loader from a script compiled from a cache (nor, without an
 * experimental warning, from a fresh one): its `require` carries an import() made in a CommonJS module Node loaded
 * itself. Where Node loads the chunk (Node 22.1+, the cache turned off), the chunk's own import() is used.
 */
function importsThroughLoader(): Plugin {
  const name = "__mergeImport";
  return {
    name: "imports-through-loader",
    renderChunk(code, chunk) {
      const starts: number[] = [];
      const visit = (node: unknown): void => {
        if (typeof node !== "object" || node === null) return;
        if (Array.isArray(node)) {
          for (const item of node) visit(item);
          return;
        }
        const record = node as Record<string, unknown>;
        if (record.type === "ImportExpression") starts.push(record.start as number);
        for (const [key, value] of Object.entries(record)) if (key !== "type") visit(value);
      };
      visit(parseAst(code));
      if (starts.length === 0) return null;
      let rewritten = code;
      for (const start of starts.sort((a, b) => b - a)) {
        if (rewritten.slice(start, start + 7) !== "import(")
          throw new Error(`${chunk.fileName}: an import() this build cannot rewrite at ${start}`);
        rewritten = `${rewritten.slice(0, start)}${name}${rewritten.slice(start + 6)}`;
      }
      const loader = `const ${name}=typeof require.import==="function"?require.import:(specifier)=>import(specifier);\n`;
      // After the `#!` line of bin.cjs, which must stay the first.
      const hashbang = /^#!.*\n/.exec(rewritten)?.[0] ?? "";
      return { code: hashbang + loader + rewritten.slice(hashbang.length), map: null };
    },
  };
}

/**
 * The `merge` command as a bundle (see README, "How it is built"): `dist/bin.cjs` holds the start-up path (argument
 * parsing, help, the command table) and each command is a chunk in `dist/chunks/` loaded only when that command
 * runs. Each module costs Node a file read and a compilation of its own, so the modules every merging command needs
 * (@merge/core, the YAML reader and writer, output, --explain) are one chunk, and the template engine with the
 * PillarStack loader another. The chunks are CommonJS: bin/merge.cjs compiles them itself on Node 20 to keep V8's
 * compiled code between runs (bin/compile-cache.cjs), which only a script, not an ES module, can be given there.
 * The library entry (`dist/index.js`, `run()`) stays tsc's output.
 */
export default defineConfig([
  {
    input: { bin: "src/bin.ts" },
    platform: "node",
    // bin.cjs is run, never imported: its exports need not be kept as written (needed by the chunk groups below).
    preserveEntrySignatures: false,
    // mysql2 stays an import of the installed package (only MySQL entries load it, and it loads its parts itself).
    // @merge/core is bundled with everything that uses it, @merge/source-mysql included, so the exact model's PyDict is
    // one class for the whole command. With --plugin, bin.ts runs the unbundled modules instead (one @merge/core for
    // the command and the plugin). @merge/yaml loads the `yaml` parser on demand from the installed package.
    external: ["mysql2"],
    plugins: [nunjucksWithoutWatch(), importsThroughLoader()],
    output: {
      dir: "dist",
      // CommonJS in a `"type": "module"` package: the files are named .cjs. A chunk a command loads is a require()
      // (rolldown turns `import("./chunk")` into a promise of it), so it is read synchronously, and Node's built-ins
      // are require()d, which builds no ES-module face for them.
      format: "cjs",
      entryFileNames: "[name].cjs",
      chunkFileNames: "chunks/[name]-[hash].cjs",
      // MERGE_BUNDLE_PLAIN=1 builds it unminified, for CPU profiles whose function names can be read.
      minify: process.env.MERGE_BUNDLE_PLAIN !== "1",
      // Pure-ASCII chunks: one non-ASCII character makes Node decode a module's whole text the slow way and V8 scan it
      // as a two-byte string; escaped, the same text is read and parsed as one-byte.
      charset: "ascii",
      codeSplitting: {
        // Left to itself, rolldown puts the template engine into the chunk every merging command shares (it imports
        // @merge/yaml's emitter too), and `merge cloud-config` would load nunjucks for nothing.
        includeDependenciesRecursively: false,
        groups: [
          // What bin.cjs imports (argument parsing, help, the command table, what commands share with them): one chunk.
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
  },
  // What bin/merge.cjs loads first to send a command to a running `merge daemon`: one small file of its own, only
  // Node built-ins, so that without a daemon a command pays a file's read and little more.
  {
    input: { "daemon-client": "src/daemon/client.ts" },
    platform: "node",
    output: {
      dir: "dist",
      format: "cjs",
      entryFileNames: "[name].cjs",
      minify: process.env.MERGE_BUNDLE_PLAIN !== "1",
      charset: "ascii",
    },
  },
]);
