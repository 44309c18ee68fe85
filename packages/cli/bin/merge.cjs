#!/usr/bin/env node
"use strict";
// The installed `merge` command. It lives outside dist/ so package managers can link it before the first build.
// When the user's `merge daemon` runs, the command line goes there (dist/daemon-client.cjs; see docs/cli.md,
// "merge daemon"); MERGE_NO_DAEMON=1 bypasses it. Otherwise, or when the daemon declines, it runs the bundle,
// dist/bin.cjs (CommonJS), with V8's compiled code kept between runs (see README, "How it is built"): Node 22.1+
// does that itself (module.enableCompileCache()), on an older Node bin/compile-cache.cjs does.
// MERGE_NO_COMPILE_CACHE=1, or Node's NODE_DISABLE_COMPILE_CACHE=1, turns either off.
const { join } = require("node:path");

const dist = join(__dirname, "..", "dist");
const bundle = join(dist, "bin.cjs");
const disabled = (name) => {
  const value = process.env[name];
  return value !== undefined && value !== "" && value !== "0";
};

function runHere() {
  const { enableCompileCache } = require("node:module");
  if (disabled("MERGE_NO_COMPILE_CACHE") || disabled("NODE_DISABLE_COMPILE_CACHE")) {
    require(bundle);
  } else if (typeof enableCompileCache === "function") {
    enableCompileCache();
    require(bundle);
  } else {
    const { version } = require("../package.json");
    require("./compile-cache.cjs").runCached(bundle, version, process.env);
  }
}

const argv = process.argv.slice(2);
let client;
let socket;
if (!disabled("MERGE_NO_DAEMON") && argv[0] !== "daemon") {
  try {
    client = require(join(dist, "daemon-client.cjs"));
    socket = client.daemonSocketIfAny(process.env);
  } catch {
    // No client (a build without one): no daemon either.
  }
}
if (socket === undefined) runHere();
else client.runThroughDaemon(socket, argv, bundle).then(runHere);
