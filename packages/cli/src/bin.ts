#!/usr/bin/env node
import * as nodeModule from "node:module";
import { main } from "./main.js";

const argv = process.argv.slice(2);
// Node 22.1+ keeps V8's compiled code between runs (as tsc does); the next start skips most of the compiling.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node 20 has no such cache and this does nothing there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// No top-level await: bin/merge.cjs require()s this module, and a module that awaits at its top level cannot be.
async function start(): Promise<void> {
  if (argv.some((arg) => arg === "--plugin" || arg.startsWith("--plugin="))) {
    // This file is a bundle with its own copy of @merge/core. A plugin imports the installed @merge/core, and
    // values and errors must come from one copy: with --plugin the command runs from the unbundled modules, which
    // import the installed packages as the plugin does. The computed URL keeps the bundler from inlining them.
    const unbundled = new URL("./main.js", import.meta.url).href;
    const { main: unbundledMain } = (await import(unbundled)) as typeof import("./main.js");
    await unbundledMain(argv);
  } else {
    await main(argv);
  }
}
void start();
