// Counts the hardening cases each test file really ran, for docs/security.md. A case is counted after its
// assertions passed; `MERGE_HARDENING_COUNTS=<dir>` makes each file write its counts there when it finishes.
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll } from "vitest";

export type Category = "pollution" | "size" | "odd-yaml" | "property" | "paths" | "sql" | "faults" | "load";

const counts = new Map<Category, number>();
const figures: Record<string, number | string> = {};

/** Adds `cases` to a category's count. */
export function tally(category: Category, cases = 1): void {
  counts.set(category, (counts.get(category) ?? 0) + cases);
}

/** Records a measured figure (a duration, a peak memory) for the report. */
export function figure(name: string, value: number | string): void {
  figures[name] = value;
}

/** Writes this file's counts when the file finishes, if asked to. */
export function reportCounts(pkg: string, file: string): void {
  afterAll(() => {
    const dir = process.env.MERGE_HARDENING_COUNTS;
    if (dir === undefined || dir === "") return;
    mkdirSync(dir, { recursive: true });
    const name = `${pkg.replace(/[@/]/g, "_")}--${basename(file)}.json`;
    const body = { package: pkg, file: basename(file), counts: Object.fromEntries(counts), figures };
    writeFileSync(join(dir, name), `${JSON.stringify(body, null, 2)}\n`);
  });
}
