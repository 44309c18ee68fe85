#!/usr/bin/env node
// The installed `merge` command. It lives outside dist/ so package managers can link it before the first build.
// A CommonJS file that require()s the ES-module bundle (Node 20.19+, 22.12+): Node then loads the bundle's start-up
// modules synchronously, without the ES-module loader's asynchronous reads, which a short command pays for
// (about 14 ms of `merge stack`). A Node that cannot require() an ES module imports it.
if (process.features.require_module === true) require("../dist/bin.js");
else import("../dist/bin.js");
