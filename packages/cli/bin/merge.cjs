#!/usr/bin/env node
"use strict";
// The installed `merge` command. It lives outside dist/ so package managers can link it before the first build.
// It runs the bundle, dist/bin.cjs (CommonJS), with V8's compiled code kept between runs (see README, "How it is
// built"): Node 22.1+ does that itself (module.enableCompileCache()), on an older Node bin/compile-cache.cjs does.
// MERGE_NO_COMPILE_CACHE=1, or Node's NODE_DISABLE_COMPILE_CACHE=1, turns either off.
const { join } = require("node:path");
const { enableCompileCache } = require("node:module");

const bundle = join(__dirname, "..", "dist", "bin.cjs");
const disabled = (name) => {
  const value = process.env[name];
  return value !== undefined && value !== "" && value !== "0";
};

if (disabled("MERGE_NO_COMPILE_CACHE") || disabled("NODE_DISABLE_COMPILE_CACHE")) {
  require(bundle);
} else if (typeof enableCompileCache === "function") {
  enableCompileCache();
  require(bundle);
} else {
  const { version } = require("../package.json");
  require("./compile-cache.cjs").runCached(bundle, version, process.env);
}
