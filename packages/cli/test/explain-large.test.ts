import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

/** A small seeded generator, so every run writes the same documents. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

const WORDS = ["red", "green", "blue", "web", "db", "yes", "0755", "on"];

/**
 * A configuration of `count` top-level keys starting at `first`: nested mappings, block lists of scalars (with
 * repeats) and of mappings, int keys, floats, quoted strings and strings YAML 1.1 reads as something else.
 */
function configuration(seed: number, first: number, count: number): string {
  const pick = seeded(seed);
  const word = () => WORDS[Math.floor(pick() * WORDS.length)]!;
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) {
    lines.push(
      `app_${i}:`,
      `  enabled: ${pick() < 0.5}`,
      `  replicas: ${Math.floor(pick() * 5)}`,
      `  ratio: ${(pick() * 4).toFixed(2)}`,
      `  owner: ${word()}`,
      `  label: "${word()} ${word()}"`,
      `  8080: ${word()}`,
      "  env:",
      `    LEVEL: ${word()}`,
      `    RETRIES: ${Math.floor(pick() * 9)}`,
      "  tags:",
      `    - ${word()}`,
      `    - ${word()}`,
      `    - ${word()}`,
      "  routes:",
      `    - name: r${Math.floor(pick() * 3)}`,
      `      weight: ${pick() < 0.5 ? "1.0" : "2.5"}`,
      "    - name: main",
      `      path: /${word()}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The exact `--explain` output for two generated documents of 150 top-level keys each (75 in common), as the
 * releases before `--explain` was made lighter on large inputs wrote it: SHA-256 of standard output. To see a
 * difference, run the same commands with the built binary of an older checkout (MERGE_CLI_BIN runs these suites
 * against another build) and diff the outputs.
 */
const EXPECTED: Record<string, string> = {
  "docs A B --explain": "a0363b4edb6d04fdad32a7645df88e1f67ef967d6732cd1b57c3c7e4963d0eec",
  "docs --yaml 1.1 A B --explain": "21129939ba555e8c33bbbff8f5eb58a8d96b62dcb1d33a500ab7319a75cc637b",
  "docs --yaml 1.1 A B --explain --format json":
    "69039c4464451654a1f7432d81306b739e2b5068261a9f1365ceb502d9d48136",
  "docs --spec 'list(append)+dict()+str()' A B --explain":
    "27a3ac2a9d12a1d05d758368eb063fb33f915958a380b71b2f2877f458fa7049",
  "cloud-config A B --explain": "d322d5e6ede7b28b99064e7d3bf9da05991a1dc67c42e202ee5ac08476955b9e",
  "cloud-config A B --explain --format json":
    "b148c44192ec097824a6ec7e3dc3973915ee4b61a4d2041b1e33ccbb4c3b55c4",
};

function argsOf(command: string): string[] {
  const words = command.replace(" --spec 'list(append)+dict()+str()'", " --spec=list(append)+dict()+str()");
  const cloud = words.startsWith("cloud-config");
  return words
    .split(" ")
    .map((word) =>
      word === "A" ? (cloud ? "a.cfg" : "a.yml") : word === "B" ? (cloud ? "b.cfg" : "b.yml") : word,
    );
}

describe("merge --explain on large inputs", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "merge-explain-large-"));
    const a = configuration(11, 0, 150);
    const b = configuration(23, 75, 150);
    writeFileSync(join(dir, "a.yml"), a);
    writeFileSync(join(dir, "b.yml"), b);
    writeFileSync(join(dir, "a.cfg"), `#cloud-config\n${a}`);
    writeFileSync(join(dir, "b.cfg"), `#cloud-config\n${b}`);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(EXPECTED))("writes what it always wrote: merge %s", (command) => {
    const run = merge(argsOf(command), { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(createHash("sha256").update(run.stdout).digest("hex")).toBe(EXPECTED[command]);
  });
});
