#!/usr/bin/env node
// Fails when an error or warning code used in a package's sources is not documented in docs/errors.md.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const prefixes =
  "SPEC|UNKNOWN|DUPLICATE|INVALID|REGISTRY|PLUGIN|MERGE|CYCLIC|DEPTH|SIZE|YAML|TEMPLATE|STACK|SQL|CLOUD|JSON|MIME|FILE|OUTPUT|USAGE|MASTER|INPUT|KEYED|INTERNAL|SYSTEM|INSTANCE|SCHEMA|STRICT";
const codePattern = new RegExp(`"((?:${prefixes})(?:_[A-Z]+)*)"`, "g");

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.startsWith("test-")) yield path;
  }
}

const documented = readFileSync(join(root, "docs/errors.md"), "utf8");
const missing = new Map();
const dirs = [
  ...readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "src")),
  ...readdirSync(join(root, "examples"))
    .filter((name) => name.startsWith("plugin-"))
    .map((name) => join(root, "examples", name, "src")),
];
for (const dir of dirs) {
  for (const file of sources(dir)) {
    for (const match of readFileSync(file, "utf8").matchAll(codePattern)) {
      if (!documented.includes(`\`${match[1]}\``)) missing.set(match[1], file.slice(root.length));
    }
  }
}
if (missing.size > 0) {
  for (const [code, file] of missing)
    console.error(`docs/errors.md does not document ${code} (used in ${file})`);
  process.exit(1);
}
console.log("docs/errors.md documents every error code used in the sources");
