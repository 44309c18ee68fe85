#!/usr/bin/env node
import { main } from "./main.js";

const argv = process.argv.slice(2);

// No top-level await: the bundle is CommonJS (dist/bin.cjs, see rolldown.config.ts), which has none.
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
