import { describe, expect, it } from "vitest";
import { createShaper, mergeExtPillar, shapeRows } from "../../src/index.js";
import { catchMergeError } from "../../../../test-kit/errors.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-mysql", import.meta.url);

/** `{k: {k: ... {k: leaf}}}` nested `levels` mappings deep, built without recursion. */
function nested(levels: number, leaf: unknown = 1): Record<string, unknown> {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = { k: value };
  return value as Record<string, unknown>;
}

// Input past the limits must come back as a coded error — never a RangeError, a stack trace or a hung process.
describe("mergeExtPillar on input it must refuse", () => {
  it("refuses 5,000-deep input on either side with DEPTH_LIMIT", () => {
    for (const levels of [1001, 5000, 100_000]) {
      expect(catchMergeError(() => mergeExtPillar(nested(levels), { a: 1 })).code).toBe("DEPTH_LIMIT");
      expect(catchMergeError(() => mergeExtPillar({ a: 1 }, nested(levels))).code).toBe("DEPTH_LIMIT");
      // The case a recursive merge would walk: both sides deep along the same keys.
      expect(catchMergeError(() => mergeExtPillar(nested(levels), nested(levels, 2))).code).toBe(
        "DEPTH_LIMIT",
      );
      tally("size", 3);
    }
  });

  it("refuses cyclic input on either side with CYCLIC_INPUT", () => {
    const cycle: Record<string, unknown> = { a: {} };
    (cycle.a as Record<string, unknown>).back = cycle;
    const listCycle: unknown[] = [];
    listCycle.push({ again: listCycle });
    for (const [base, incoming] of [
      [cycle, { a: { x: 1 } }],
      [{ a: { x: 1 } }, cycle],
      [cycle, cycle],
      [{ l: listCycle }, {}],
    ] as const) {
      expect(catchMergeError(() => mergeExtPillar(base, incoming)).code).toBe("CYCLIC_INPUT");
      tally("size");
    }
  });

  it("refuses a shared-subtree bomb with SIZE_LIMIT instead of walking it for ever", () => {
    let bomb: unknown = { leaf: 1 };
    for (let i = 0; i < 60; i++) bomb = { a: bomb, b: bomb };
    expect(catchMergeError(() => mergeExtPillar(bomb as Record<string, unknown>, {})).code).toBe(
      "SIZE_LIMIT",
    );
    tally("size");
  });

  it("still merges input at the limit", () => {
    const merged = mergeExtPillar(nested(999, 1), nested(999, 2));
    let leaf: unknown = merged;
    for (let i = 0; i < 999; i++) leaf = (leaf as Record<string, unknown>).k;
    expect(leaf).toBe(2);
    tally("size");
  });
});

describe("row shaping past the depth limit", () => {
  it("refuses rows of 1,001 to 5,000 columns with DEPTH_LIMIT at the first row, through every entry point", () => {
    for (const width of [1001, 3000, 5000]) {
      const fields = Array.from({ length: width }, (_, i) => `c${i}`);
      const row = fields.map((_, i) => `v${i}`);
      expect(catchMergeError(() => shapeRows(fields, [row])).code).toBe("DEPTH_LIMIT");
      const shaper = createShaper();
      shaper.enterRoot("named");
      const sink = shaper.begin(fields.slice(0, 1000));
      expect(catchMergeError(() => sink.push(row.slice(0, 1000))).code).toBe("DEPTH_LIMIT");
      tally("size", 2);
    }
  });
});
