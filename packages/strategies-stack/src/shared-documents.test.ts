import { isMergeError, isMapping, mappingKeys, getItem, PyDict, toExact } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackAccumulator } from "./accumulator.js";

// Documents merged `shared` join the stack as they are and are copied only where a later merge changes them. The
// stack must hold the same values as when every document is copied on entry, no document may ever change, and after
// `own()` the stack must share nothing with the documents and be shaped as the copying fold's (aliases shared where
// YAML shared them, nothing else).

const strategy = fc.constantFrom("merge-last", "merge-first", "remove", "overwrite");
const directive = fc.oneof({ weight: 8, arbitrary: strategy }, fc.constantFrom("merge-lst", 3));
const key = fc.constantFrom("a", "b", "c", "__");
const scalar = fc.oneof(
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("a", 1.5),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", maxDepth: 4 }, scalar, tie("dict"), tie("list")),
  dict: fc.dictionary(key, fc.oneof(tie("value"), directive), { maxKeys: 4 }),
  list: fc
    .tuple(fc.option(directive, { nil: undefined }), fc.array(tie("value"), { maxLength: 3 }))
    .map(([s, items]) => (s === undefined ? items : [{ __: s }, ...items])),
}));
const plainDoc = fc.tuple(
  fc.option(directive, { nil: undefined }),
  fc.dictionary(fc.constantFrom("a", "b", "c"), value, { maxKeys: 3 }),
);
// A document and how it is merged: shared (a tree, as a cached parse without aliases), or copied, in which case it
// may hold one value under two keys (a YAML alias).
const step = fc
  .tuple(plainDoc, fc.boolean(), fc.constantFrom("a", "b", "c"), fc.constantFrom("a", "b", "c"))
  .map(([[s, d], shared, from, to]) => {
    const doc: Record<string, unknown> = s === undefined ? d : { __: s, ...d };
    if (!shared && from !== to && typeof doc[from] === "object" && doc[from] !== null) doc[to] = doc[from];
    return { doc, shared };
  });

/** Freezes every container of a document, so that any change made to it throws. */
function freezeDeep(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  if (value instanceof PyDict) {
    for (const v of value.values()) freezeDeep(v);
    value.freeze();
  } else {
    for (const v of Object.values(value)) freezeDeep(v);
    Object.freeze(value);
  }
}

/** The containers of a value. */
function containers(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value !== "object" || value === null || into.has(value)) return into;
  into.add(value);
  if (Array.isArray(value)) for (const item of value) containers(item, into);
  else if (isMapping(value)) for (const k of mappingKeys(value)) containers(getItem(value, k), into);
  return into;
}

/** The value written out, with a container seen before written as a reference to its first sight. */
function shape(value: unknown, seen = new Map<object, number>()): unknown {
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return { ref: known };
  seen.set(value, seen.size);
  if (Array.isArray(value)) return value.map((item) => shape(item, seen));
  const out: [unknown, unknown][] = [];
  for (const k of mappingKeys(value as Record<string, unknown>))
    out.push([k, shape(getItem(value as Record<string, unknown>, k), seen)]);
  return { dict: out };
}

/** The value written out in full, however it shares its parts. */
function expanded(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(expanded);
  const out: [unknown, unknown][] = [];
  for (const k of mappingKeys(value as Record<string, unknown>))
    out.push([k, expanded(getItem(value as Record<string, unknown>, k))]);
  return { dict: out };
}

const text = (value: unknown): string => JSON.stringify(value, (_k, v) => (Number.isNaN(v) ? "NaN" : v));

type Step = { doc: Record<string, unknown>; shared: boolean };
type Owning = "never" | "at the end" | "after every step";

/** Folds the steps, the shared ones merged shared when `useShared`; the documents merged shared are frozen. */
function fold(steps: readonly Step[], exact: boolean, useShared: boolean, owning: Owning) {
  const docs = steps.map(({ doc, shared }) => {
    const d = (exact ? toExact(doc) : structuredClone(doc)) as Record<string, unknown>;
    if (shared && useShared) freezeDeep(d);
    return d;
  });
  const accumulator = createStackAccumulator({ exact });
  try {
    steps.forEach(({ shared }, i) => {
      accumulator.merge(docs[i]! as never, { shared: shared && useShared });
      if (owning === "after every step") accumulator.own();
    });
    if (owning === "at the end") accumulator.own();
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { code: error.code, docs, value: undefined };
  }
  return { code: undefined, docs, value: accumulator.value };
}

describe("documents merged shared", () => {
  it.each([false, true])(
    "give the copying fold's values and errors, and never change (exact model: %s)",
    (exact) => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
          const copied = fold(steps, exact, false, "never");
          // A change made to a frozen document throws, and fails the property.
          const shared = fold(steps, exact, true, "never");
          expect(shared.code).toBe(copied.code);
          if (copied.code === undefined)
            expect(text(expanded(shared.value))).toBe(text(expanded(copied.value)));
        }),
        { numRuns: 1500, seed: 312 },
      );
    },
  );

  it.each([false, true])(
    "after own(), share nothing with the documents and are shaped alike (exact: %s)",
    (exact) => {
      fc.assert(
        fc.property(
          fc.array(step, { minLength: 1, maxLength: 5 }),
          fc.constantFrom<Owning>("at the end", "after every step"),
          (steps, owning) => {
            const copied = fold(steps, exact, false, "never");
            const shared = fold(steps, exact, true, owning);
            expect(shared.code).toBe(copied.code);
            if (copied.code !== undefined) return;
            const fromDocs = new Set(shared.docs.flatMap((d) => [...containers(d)]));
            for (const c of containers(shared.value)) expect(fromDocs.has(c)).toBe(false);
            expect(text(shape(shared.value))).toBe(text(shape(copied.value)));
          },
        ),
        { numRuns: 1500, seed: 1203 },
      );
    },
  );

  it("lets the stack be changed after own() without changing a document", () => {
    const doc = toExact({ a: { b: [1, { c: 2 }] }, d: { e: 1 } }) as PyDict;
    freezeDeep(doc);
    const accumulator = createStackAccumulator({ exact: true });
    accumulator.merge(doc, { shared: true });
    // Shared until owned: the stack holds the document's own mapping.
    expect(getItem(accumulator.value, "a")).toBe(doc.get("a"));
    accumulator.own();
    const a = getItem(accumulator.value, "a") as PyDict;
    expect(a).not.toBe(doc.get("a"));
    a.set("x", 1);
    ((a.get("b") as unknown[])[1] as PyDict).set("c", 3);
    expect((doc.get("a") as PyDict).has("x")).toBe(false);
    expect((((doc.get("a") as PyDict).get("b") as unknown[])[1] as PyDict).get("c")).toBe(2);
  });

  it("copies a value the stack holds twice into two values, as two parses would have made them", () => {
    const doc = toExact({ a: { l: [{ k: 1 }] } }) as PyDict;
    freezeDeep(doc);
    const accumulator = createStackAccumulator({ exact: true });
    // The same cached document twice (a file listed twice): its list's item is in the joined list twice.
    accumulator.merge(doc, { shared: true });
    accumulator.merge(doc, { shared: true });
    accumulator.own();
    const list = (getItem(accumulator.value, "a") as PyDict).get("l") as PyDict[];
    expect(list).toHaveLength(2);
    expect(list[0]).not.toBe(list[1]);
    expect(list[0]!.get("k")).toBe(1);
  });

  it("keeps a value a template put in two places one value through own(), as in Salt", () => {
    const accumulator = createStackAccumulator({ exact: true });
    const first = toExact({ x: 1 }) as PyDict;
    freezeDeep(first);
    accumulator.merge(first, { shared: true });
    accumulator.own();
    // What `{% set t = {'q': 1} %}{% do stack.update({'a': t, 'b': t}) %}` leaves in `stack`.
    const made = toExact({ q: 1 }) as PyDict;
    (accumulator.value as PyDict).set("a", made);
    (accumulator.value as PyDict).set("b", made);
    const second = toExact({ y: 2 }) as PyDict;
    freezeDeep(second);
    accumulator.merge(second, { shared: true });
    // Before the next template: a later `stack.b.update(...)` must show under `a` too.
    accumulator.own();
    expect(getItem(accumulator.value, "a")).toBe(getItem(accumulator.value, "b"));
  });

  it("copies a value a template made that merge-first moves, as the copying fold does", () => {
    // `stack` holds {a: {k: t}, b: t} (t made by a template), then `{__: merge-first, a: {z: 1}}` moves the old `a`'s
    // `k` into the new `a`: both folds must give the same shape, before and after own().
    const run = (shared: boolean) => {
      const accumulator = createStackAccumulator({ exact: true });
      const made = toExact({ q: 1 }) as PyDict;
      const value = accumulator.value as PyDict;
      value.set("a", toExact({ k: made }));
      value.set("b", made);
      const doc = toExact({ __: "merge-first", a: { z: 1 } }) as PyDict;
      if (shared) freezeDeep(doc);
      accumulator.merge(doc, { shared });
      const merged = text(shape(accumulator.value));
      accumulator.own();
      return [merged, text(shape(accumulator.value))];
    };
    const copied = run(false);
    expect(run(true)).toEqual(copied);
    expect(copied[1]).not.toContain("ref");
  });
});
