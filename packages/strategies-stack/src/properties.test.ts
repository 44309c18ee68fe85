import { createRegistry, isMergeError } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackAccumulator } from "./accumulator.js";
import { stackMerge } from "./merge.js";
import { stackMerger } from "./plugin.js";
import { STACK_STRATEGIES } from "./strategy.js";

// Any JSON-like data, with directive keys (valid or not) and hostile keys mixed in.
const key = fc.oneof(
  fc.constantFrom("__", "__proto__", "constructor", "prototype", "a", "b"),
  fc.string({ maxLength: 3 }),
);
const directive = fc.oneof(
  fc.constantFrom("merge-last", "merge-first", "remove", "overwrite"),
  fc.jsonValue(),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 3 })),
    tie("dict"),
    tie("list"),
  ),
  dict: fc.dictionary(key, fc.oneof(tie("value"), directive), { maxKeys: 4, noNullPrototype: false }),
  list: fc.array(fc.oneof(tie("value"), fc.record({ __: directive })), { maxLength: 4 }),
}));
const doc = fc.dictionary(key, value, { maxKeys: 4 }) as fc.Arbitrary<Record<string, unknown>>;

function scalars(input: unknown, into: Set<unknown>): Set<unknown> {
  if (Array.isArray(input)) for (const item of input) scalars(item, into);
  else if (typeof input === "object" && input !== null)
    for (const k of Object.keys(input)) scalars((input as Record<string, unknown>)[k], into);
  else into.add(Number.isNaN(input) ? "NaN" : input);
  return into;
}

describe("properties of the stack merge", () => {
  it("throws nothing but MergeErrors, never changes inputs and builds results only from input values", () => {
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const snapshot = structuredClone([a, b]);
        let pure: unknown;
        let folded: unknown;
        let pureError: unknown;
        let foldError: unknown;
        try {
          pure = stackMerge(a, b);
        } catch (error) {
          pureError = error;
        }
        try {
          const accumulator = createStackAccumulator({ initial: a });
          accumulator.merge(b);
          folded = accumulator.value;
        } catch (error) {
          foldError = error;
        }
        expect([a, b]).toEqual(snapshot);
        expect(Object.prototype).not.toHaveProperty("polluted");
        if (pureError !== undefined) {
          expect(isMergeError(pureError)).toBe(true);
          expect(isMergeError(foldError)).toBe(true);
          return;
        }
        expect(folded).toEqual(pure);
        const allowed = scalars([a, b], new Set());
        for (const s of scalars(pure, new Set())) expect(allowed.has(s)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves the stack unchanged when merging {} and is idempotent on directive-free data", () => {
    const plain = fc
      .jsonValue()
      .filter(
        (v) =>
          typeof v === "object" && v !== null && !Array.isArray(v) && !JSON.stringify(v).includes('"__"'),
      );
    fc.assert(
      fc.property(plain, (x) => {
        const data = x as Record<string, unknown>;
        expect(stackMerge(data, {})).toBe(data);
        expect(stackMerge({}, data)).toEqual(data);
        const merger = createRegistry([stackMerger()]).resolve("stack(overwrite)");
        expect(merger.merge({ any: 1 }, data)).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same result purely and in the accumulator for every default strategy", () => {
    fc.assert(
      fc.property(doc, doc, fc.constantFrom(...STACK_STRATEGIES), (a, b, strategy) => {
        let pure: unknown;
        try {
          pure = stackMerge(a, b, { strategy });
        } catch (error) {
          const accumulator = createStackAccumulator({ initial: a, strategy });
          expect(() => accumulator.merge(b)).toThrow();
          expect(isMergeError(error)).toBe(true);
          return;
        }
        const accumulator = createStackAccumulator({ initial: a, strategy });
        accumulator.merge(b);
        expect(accumulator.value).toEqual(pure);
      }),
      { numRuns: 300 },
    );
  });
});
