import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fnmatch, loadStack } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-stack", import.meta.url);

const root = mkdtempSync(join(tmpdir(), "merge-hardening-glob-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Patterns that make a backtracking matcher try every way of sharing a name among its stars: with the old
// regular expression, seven `*?` against 49 characters took seconds and each further `*?` about five times longer.
describe("glob matching on patterns built to backtrack", () => {
  it("answers star-heavy patterns against long names, whatever the number of stars", () => {
    let cases = 0;
    for (const stars of [7, 10, 20, 40, 120]) {
      for (const length of [49, 100, 255]) {
        const pattern = `${"*?".repeat(stars)}x`;
        const miss = "a".repeat(length);
        const hit = `${"a".repeat(length - 1)}x`;
        expect(fnmatch(miss, pattern)).toBe(false);
        expect(fnmatch(hit, pattern)).toBe(length > stars);
        // a star-separated run that almost fits everywhere
        const near = `*${"a".repeat(20)}b*${"a".repeat(20)}c`;
        expect(fnmatch("a".repeat(length), near)).toBe(false);
        cases += 3;
      }
    }
    tally("size", cases);
  });

  it("lets a minion whose id is such a pattern be loaded (saltGlobs: its id is a pattern, as in Salt)", () => {
    mkdirSync(join(root, "minions"), { recursive: true });
    for (let i = 0; i < 20; i++)
      writeFileSync(join(root, "minions", `${"a".repeat(200)}${i}.yml`), `n${i}: 1\n`);
    writeFileSync(join(root, "stack.cfg"), "minions/{{ minion_id }}.yml\n");
    let cases = 0;
    for (const saltGlobs of [true, false]) {
      for (const stars of [8, 30, 100]) {
        const minionId = `${"*?".repeat(stars)}x`;
        const result = loadStack({ config: "stack.cfg", cwd: root, minionId, saltGlobs });
        expect(result.files).toEqual([]);
        expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
        cases++;
      }
    }
    tally("size", cases);
  });
});
