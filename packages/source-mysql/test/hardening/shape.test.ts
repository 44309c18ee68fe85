import { isMergeError, PyDict } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shapeRows } from "../../src/index.js";
import { expectPristine } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-mysql", import.meta.url);

// Column names and values as a hostile database could hold them; numbers and NULLs as the driver gives them.
const text = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "a",
  "b",
  "",
  "null",
  "1",
  "\u0000",
  "%s",
);
const cell = fc.oneof(text, fc.integer({ min: -3, max: 3 }), fc.constant(null), fc.double({ noNaN: true }));

/** Every key and scalar of a value. */
function atoms(value: unknown, into: Set<unknown> = new Set()): Set<unknown> {
  if (Array.isArray(value)) for (const item of value) atoms(item, into);
  else if (value instanceof PyDict) {
    for (const [key, item] of value) {
      into.add(key);
      atoms(item, into);
    }
  } else into.add(value);
  return into;
}

describe("properties of row shaping (no server needed)", () => {
  it("builds results only from field names and values, never changes rows, fails only with MergeError", () => {
    const runs = 2000;
    const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
      fc.tuple(
        fc.array(text, { minLength: width, maxLength: width }),
        fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 6 }),
        fc.record({
          depth: fc.integer({ min: -1, max: 6 }),
          asList: fc.boolean(),
          ignoreNull: fc.boolean(),
          withLists: fc.oneof(
            fc.constant(undefined),
            fc.subarray([1, 2, 3, 4, 5]),
            fc.constantFrom("1,3", " 2", "x,1"),
          ),
        }),
      ),
    );
    fc.assert(
      fc.property(table, ([fields, rows, options]) => {
        const before = JSON.stringify([fields, rows]);
        // Keys are the values themselves (as in Salt) or field names; values come from the cells.
        const allowed = new Set<unknown>(fields);
        for (const row of rows)
          for (const value of row) {
            allowed.add(value);
            allowed.add(String(value));
          }
        try {
          const result = shapeRows(fields, rows, options);
          for (const atom of atoms(result)) expect(allowed.has(atom), String(atom)).toBe(true);
          expect(result).toBeInstanceOf(PyDict);
        } catch (error) {
          if (!isMergeError(error)) throw error;
          expect(error.code).toMatch(/^SQL_/);
        }
        expect(JSON.stringify([fields, rows])).toBe(before);
        expectPristine();
      }),
      { numRuns: runs },
    );
    tally("property", runs);
  });
});
