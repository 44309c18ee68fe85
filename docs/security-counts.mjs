#!/usr/bin/env node
// Runs every package's hardening suite (packages/*/test/hardening) and prints the table of docs/security.md from the
// counts the tests themselves record (test-kit/tally.ts): a case is counted only after its assertions passed.
// `node docs/security-counts.mjs --write` also replaces the table between the markers in docs/security.md.
// Needs built packages and, for the MySQL cases, the MERGE_TEST_MYSQL_* variables of scripts/mariadb.sh.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CATEGORIES = ["pollution", "size", "odd-yaml", "property", "paths", "sql", "faults", "load"];
const LABELS = {
  pollution: "Prototype pollution",
  size: "Size and shape",
  "odd-yaml": "Odd YAML",
  property: "Property-based (fast-check runs)",
  paths: "Stack paths",
  sql: "SQL injection",
  faults: "Faults",
  load: "Load (hosts / fetches)",
};

const out = mkdtempSync(join(tmpdir(), "merge-hardening-counts-"));
const outcome = {};
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const cwd = join(root, "packages", dir);
  if (!existsSync(join(cwd, "test", "hardening"))) continue;
  const run = spawnSync("pnpm", ["exec", "vitest", "run", "test/hardening"], {
    cwd,
    // The hardening suites are the stress tier (vitest.shared.ts), and the CLI's cases run the built binary.
    env: {
      ...process.env,
      MERGE_TEST_TIER: "stress",
      MERGE_CLI_TESTS: "binary",
      MERGE_HARDENING_COUNTS: out,
      NO_COLOR: "1",
    },
    encoding: "utf8",
  });
  outcome[dir] = run.status === 0 ? "pass" : "FAIL";
  process.stderr.write(`${dir}: ${outcome[dir]}\n`);
}

const counts = {};
const figures = {};
for (const name of readdirSync(out).sort()) {
  const body = JSON.parse(readFileSync(join(out, name), "utf8"));
  const dir = body.package.replace("@merge/", "");
  counts[dir] ??= {};
  for (const [category, n] of Object.entries(body.counts))
    counts[dir][category] = (counts[dir][category] ?? 0) + n;
  Object.assign(figures, body.figures);
}
rmSync(out, { recursive: true, force: true });

const packages = Object.keys(outcome);
const lines = [
  `| Category | ${packages.join(" | ")} | Total |`,
  `|---|${packages.map(() => "--:").join("|")}|--:|`,
];
for (const category of CATEGORIES) {
  const cells = packages.map((dir) => counts[dir]?.[category] ?? 0);
  const total = cells.reduce((a, b) => a + b, 0);
  if (total === 0) continue;
  lines.push(
    `| ${LABELS[category]} | ${cells.map((n) => (n === 0 ? "–" : String(n))).join(" | ")} | ${total} |`,
  );
}
lines.push(`| **Result** | ${packages.map((dir) => outcome[dir]).join(" | ")} | |`);
const figureLines = Object.entries(figures)
  .filter(([name]) => !name.startsWith("yaml: bomb"))
  .map(([name, value]) => `- ${name}: ${value}`);
const table = `${lines.join("\n")}\n\nMeasured in the same run:\n\n${figureLines.join("\n")}\n`;
process.stdout.write(table);

if (process.argv.includes("--write")) {
  const doc = join(root, "docs", "security.md");
  const text = readFileSync(doc, "utf8");
  const begin = "<!-- counts:begin -->";
  const end = "<!-- counts:end -->";
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`docs/security.md has no ${begin} ... ${end} markers`);
  writeFileSync(doc, `${text.slice(0, start + begin.length)}\n${table}${text.slice(stop)}`);
}
process.exitCode = Object.values(outcome).every((r) => r === "pass") ? 0 : 1;
