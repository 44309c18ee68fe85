#!/usr/bin/env node
// The installed `merge` command. It lives outside dist/ so package managers can link it before the first build.
import "../dist/bin.js";
