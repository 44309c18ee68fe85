#!/usr/bin/env node
// Fails when a test carries a clock of its own. Tests assert behaviour, never speed: every package's
// vitest.config.ts starts from the root vitest.shared.ts, whose only limits stop a run that hangs for good, and no
// test, hook or suite passes a numeric timeout that a busy machine could reach (`it("…", fn, 60_000)`,
// `{ timeout: 5000 }`, `vi.setConfig({ testTimeout })`).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SKIPPED = new Set(["node_modules", "dist", ".turbo", "coverage", "fixtures"]);

const clockPatterns = [
  // A timeout as the last argument of it/test/describe/beforeAll…, after a body that ends its line (`}, 60_000);`)
  // or a one-line body (`() => {}, 5000)`).
  [/^\s*\}\)?,\s*[0-9][0-9_]*\s*\);?\s*$|=>\s*\{[^{}\n]*\},\s*[0-9][0-9_]*\s*\)/gm, "a timeout argument"],
  // An options object with a timeout before the test's function, as `it("x", { timeout: 5000 }, fn)` takes it.
  [/\{\s*timeout:\s*[0-9][0-9_]*\s*\}\s*,\s*(?:async\s*)?(?:\(|function\b)/g, "a { timeout } option"],
  [/\b(?:testTimeout|hookTimeout)\s*:/g, "a testTimeout/hookTimeout setting"],
];

// The checker's own test spells out what it must find.
const OWN_TEST = "test-clocks.test.mjs";

/** The clocks a test file sets, as `line: what` strings. */
export function clocksIn(text) {
  const found = [];
  for (const [pattern, what] of clockPatterns) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push(`${line}: ${what}`);
    }
  }
  return found.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
}

/** Whether a vitest config builds on the shared settings. */
export function usesSharedConfig(text) {
  return /\bpackageTestConfig\b/.test(text) && /vitest\.shared/.test(text);
}

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const problems = [];
  for (const area of ["packages", "apps", "examples", "bench", "scripts"]) {
    for (const path of files(join(root, area))) {
      const name = relative(root, path);
      if (/\.test\.(?:ts|mts|mjs|js)$/.test(path) && !path.endsWith(OWN_TEST)) {
        for (const clock of clocksIn(readFileSync(path, "utf8"))) problems.push(`${name}:${clock}`);
      } else if (/\/vitest\.config\.(?:ts|mts|mjs|js)$/.test(path)) {
        if (!usesSharedConfig(readFileSync(path, "utf8")))
          problems.push(`${name}: does not build on vitest.shared.ts (packageTestConfig)`);
      }
    }
  }
  if (problems.length > 0) {
    console.error("Tests must not carry clocks of their own (see vitest.shared.ts):");
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
