import { getItem, type PyDict, toExact } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackAccumulator } from "./accumulator.js";

// Containers in the stack that the accumulator did not make: a template put them there (`stack.update(...)`). Salt
// changes everything in its stack in place; with `inPlace` the accumulator does too, and by default it copies them
// before a change. Documents are never changed either way.

/** The stack after a template put one mapping under `a` and `b`, then the merge of `doc`. */
function twoKeys(inPlace: boolean, doc: Record<string, unknown>) {
  const accumulator = createStackAccumulator({ exact: true, inPlace });
  const made = toExact({ k: 1 }) as PyDict;
  (accumulator.value as PyDict).set("a", made);
  (accumulator.value as PyDict).set("b", made);
  accumulator.merge(toExact(doc) as PyDict);
  return { made, value: accumulator.value as PyDict };
}

describe("a container a template put in the stack", () => {
  it("is copied before a change by default, so its holder never sees the merge", () => {
    const { made, value } = twoKeys(false, { a: { k2: 2 } });
    expect(made.toJSON()).toEqual({ k: 1 });
    expect((getItem(value, "a") as PyDict).toJSON()).toEqual({ k: 1, k2: 2 });
    expect((getItem(value, "b") as PyDict).toJSON()).toEqual({ k: 1 });
  });

  it("is changed in place with inPlace, as in Salt: the merge shows under both keys", () => {
    const { made, value } = twoKeys(true, { a: { k2: 2 } });
    expect(getItem(value, "a")).toBe(made);
    expect(getItem(value, "b")).toBe(made);
    expect(made.toJSON()).toEqual({ k: 1, k2: 2 });
  });

  it("loses its directive in place when merge-first swaps it in (Salt pops `__` from it)", () => {
    const accumulator = createStackAccumulator({ exact: true, inPlace: true });
    const made = toExact({ __: "remove", k: 1 }) as PyDict;
    (accumulator.value as PyDict).set("x", made);
    (accumulator.value as PyDict).set("y", made);
    accumulator.merge(toExact({ __: "merge-first", x: { k: 2, m: 3 } }) as PyDict);
    expect((getItem(accumulator.value, "x") as PyDict).toJSON()).toEqual({ m: 3 });
    expect(made.toJSON()).toEqual({ k: 1 });
    expect(getItem(accumulator.value, "y")).toBe(made);
  });

  it("is moved itself by merge-first with inPlace, so it stays one value with its other key", () => {
    const accumulator = createStackAccumulator({ exact: true, inPlace: true });
    const made = toExact({ q: 1 }) as PyDict;
    (accumulator.value as PyDict).set("a", toExact({ k: made }));
    (accumulator.value as PyDict).set("b", made);
    accumulator.merge(toExact({ __: "merge-first", a: { z: 1 } }) as PyDict);
    const a = getItem(accumulator.value, "a") as PyDict;
    expect([...a.keys()]).toEqual(["z", "k"]);
    expect(a.get("k")).toBe(made);
    accumulator.merge(toExact({ b: { q2: 2 } }) as PyDict);
    expect(made.toJSON()).toEqual({ q: 1, q2: 2 });
  });

  it("is still copied when frozen, with inPlace", () => {
    const accumulator = createStackAccumulator({ exact: true, inPlace: true });
    const frozen = (toExact({ k: 1 }) as PyDict).freeze();
    (accumulator.value as PyDict).set("a", frozen);
    accumulator.merge(toExact({ a: { k2: 2 } }) as PyDict);
    expect(frozen.toJSON()).toEqual({ k: 1 });
    expect((getItem(accumulator.value, "a") as PyDict).toJSON()).toEqual({ k: 1, k2: 2 });
  });

  it("never lets a merge change a document, with inPlace", () => {
    const scalar = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(null), fc.constant("s"));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small", maxDepth: 3 }, scalar, tie("dict"), tie("list")),
      dict: fc.dictionary(
        fc.constantFrom("a", "b", "__"),
        fc.oneof(tie("value"), fc.constantFrom("merge-first", "remove", "overwrite")),
        { maxKeys: 3 },
      ),
      list: fc.array(tie("value"), { maxLength: 3 }),
    }));
    const doc = fc.dictionary(fc.constantFrom("a", "b", "__"), value, { maxKeys: 3 });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 4 }), value, (docs, made) => {
        const exactDocs = docs.map((d) => toExact(d) as PyDict);
        const before = JSON.stringify(exactDocs);
        const accumulator = createStackAccumulator({ exact: true, inPlace: true });
        (accumulator.value as PyDict).set("a", toExact(made));
        try {
          for (const d of exactDocs) accumulator.merge(d);
        } catch {
          // A wrong directive fails the merge; the documents must still be as they were.
        }
        expect(JSON.stringify(exactDocs)).toBe(before);
      }),
      { numRuns: 1000, seed: 42 },
    );
  });
});
