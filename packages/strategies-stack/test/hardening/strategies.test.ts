import { createRegistry, isMergeError } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createStackAccumulator,
  STACK_STRATEGIES,
  type StackStrategy,
  stackMerge,
  stackMerger,
} from "../../src/index.js";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/strategies-stack", import.meta.url);

describe("prototype pollution through the stack strategies", () => {
  it("merges hostile keys as data with every default strategy, pure and accumulating", () => {
    let cases = 0;
    for (const text of hostileJsonTexts()) {
      for (const strategy of STACK_STRATEGIES) {
        const a = JSON.parse(text);
        const b = JSON.parse(text);
        const before = JSON.stringify([a, b]);
        const merged = stackMerge(a, b, { strategy });
        expect(JSON.stringify([a, b])).toBe(before);
        const accumulator = createStackAccumulator({ strategy });
        accumulator.merge(a);
        accumulator.merge(b);
        expect(JSON.stringify([a, b])).toBe(before);
        if (strategy !== "remove") {
          expect(ownHostileKeys(merged).length).toBeGreaterThan(0);
          expect(ownHostileKeys(accumulator.value).length).toBeGreaterThan(0);
        }
        expectPristine();
        cases += 2;
      }
    }
    tally("pollution", cases);
  });

  it("refuses hostile strategy names in `__` directives with UNKNOWN_STRATEGY and the key path", () => {
    const names = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty"];
    let cases = 0;
    for (const name of names) {
      const inMapping = { a: { b: { __: name, x: 1 } } };
      const inList = { a: { b: [{ __: name }, 1] } };
      for (const doc of [inMapping, inList]) {
        const error = failure(() => stackMerge({ a: { b: doc.a.b } }, doc));
        expect(error.code).toBe("UNKNOWN_STRATEGY");
        expect(error.path).toBe("a.b");
        const accumulator = createStackAccumulator({ initial: { a: { b: doc.a.b } } });
        expect(failure(() => accumulator.merge(doc)).code).toBe("UNKNOWN_STRATEGY");
        expectPristine();
        cases += 2;
      }
    }
    for (const option of ["__proto__", "constructor", "prototype"]) {
      expect(failure(() => createRegistry([stackMerger()]).resolve(`stack(${option})`)).code).toBe(
        "UNKNOWN_OPTION",
      );
      cases++;
    }
    tally("pollution", cases);
  });

  it("applies directives next to hostile keys without touching prototypes", () => {
    const stack = JSON.parse('{"__proto__": {"a": 1}, "constructor": {"prototype": {"b": 1}}, "l": [1, 2]}');
    const docs = [
      '{"__proto__": {"__": "remove", "a": null}}',
      '{"constructor": {"__": "overwrite", "prototype": {"isAdmin": true}}}',
      '{"l": [{"__": "remove"}, 1], "__proto__": {"__": "merge-first", "a": 2}}',
      '{"__": "overwrite", "__proto__": {"polluted": 1}}',
    ];
    for (const text of docs) {
      const merged = stackMerge(stack, JSON.parse(text));
      expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
      expect(ownHostileKeys(merged).length).toBeGreaterThan(0);
      expectPristine();
    }
    tally("pollution", docs.length);
  });
});

describe("size and shape", () => {
  it("turns 10^5 levels of nesting and cycles it has to copy into coded errors", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    let deepList: unknown = 1;
    for (let i = 0; i < 100_000; i++) deepList = { k: [deepList] };
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    const listCycle: Record<string, unknown> = { l: [] };
    (listCycle.l as unknown[]).push(listCycle);
    let cases = 0;
    const docs: [Record<string, unknown>, boolean][] = [
      [deep as Record<string, unknown>, false],
      [deepList as Record<string, unknown>, true],
      [cyclic, false],
      [listCycle, true],
    ];
    for (const [doc, throughList] of docs) {
      for (const base of [{}, { k: {}, a: {}, l: [] }]) {
        for (const strategy of STACK_STRATEGIES) {
          const accumulator = createStackAccumulator({ strategy, initial: base });
          if (strategy === "remove") {
            // remove only drops the document's keys from the base: nothing of the document is walked or kept.
            const kept = Object.fromEntries(Object.entries(base).filter(([key]) => !Object.hasOwn(doc, key)));
            expect(stackMerge(base, doc, { strategy })).toEqual(kept);
            accumulator.merge(doc);
            expect(accumulator.value).toEqual(kept);
            cases += 2;
            continue;
          }
          // A cycle is followed until the depth limit, whose message names a possible cycle.
          expect(failure(() => accumulator.merge(doc)).code).toMatch(/^(DEPTH_LIMIT|CYCLIC_INPUT)$/);
          cases++;
          if (!throughList) {
            expect(failure(() => stackMerge(base, doc, { strategy })).code).toMatch(
              /^(DEPTH_LIMIT|CYCLIC_INPUT)$/,
            );
            cases++;
          }
        }
      }
    }
    tally("size", cases);
  });

  it("merges 10^6-item lists, 10^5-key mappings and 100 MB strings", () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    const merged = stackMerge({ items }, { items: [-1] }) as { items: number[] };
    expect(merged.items.length).toBe(1_000_001);
    const removed = stackMerge({ items }, { items: [{ __: "remove" }, 5, 7] }) as { items: number[] };
    expect(removed.items.length).toBe(999_998);
    const keys: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) keys[`k${i}`] = i;
    const accumulator = createStackAccumulator();
    accumulator.merge(keys);
    accumulator.merge({ extra: "x".repeat(100 * 1024 * 1024) });
    expect(Object.keys(accumulator.value).length).toBe(100_001);
    expect(Object.keys(keys).length).toBe(100_000);
    tally("size", 3);
  });
});

const strategyArb = fc.constantFrom<StackStrategy>(...STACK_STRATEGIES);
const directive = fc.oneof(strategyArb, fc.constantFrom("merge-lst", "__proto__", "", null, 3));
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("list"), tie("dict")),
  leaf: fc.oneof(
    fc.integer({ min: -2, max: 2 }),
    fc.constantFrom(1.0, 0.5, "", "a", "__proto__"),
    fc.boolean(),
    fc.constant(null),
  ),
  list: fc.oneof(
    fc.array(tie("tree"), { maxLength: 4 }),
    fc.tuple(directive, fc.array(tie("tree"), { maxLength: 3 })).map(([d, rest]) => [{ __: d }, ...rest]),
  ),
  dict: fc.oneof(
    fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), tie("tree"), { maxKeys: 4 }),
    fc
      .tuple(directive, fc.dictionary(fc.constantFrom("a", "b", "__proto__"), tie("tree"), { maxKeys: 3 }))
      .map(([d, rest]) => ({ ...rest, __: d })),
  ),
}));
const plain = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("list"), tie("dict")),
  leaf: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null)),
  list: fc.array(tie("tree"), { maxLength: 4 }),
  dict: fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), tie("tree"), { maxKeys: 4 }),
})).tree;

function atoms(value: unknown, into: Set<unknown> = new Set()): Set<unknown> {
  if (Array.isArray(value)) for (const item of value) atoms(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      into.add(key);
      atoms((value as Record<string, unknown>)[key], into);
    }
  } else into.add(value);
  return into;
}

describe("properties of the stack strategies", () => {
  const RUNS = 3000;

  it("never change inputs, fail only with MergeError, and build results only from input values", () => {
    fc.assert(
      fc.property(strategyArb, tree, tree, fc.boolean(), (strategy, base, incoming, accumulate) => {
        const before = JSON.stringify([base, incoming]);
        const allowed = atoms(incoming, atoms(base));
        let result: unknown;
        try {
          if (
            accumulate &&
            typeof base === "object" &&
            base !== null &&
            !Array.isArray(base) &&
            typeof incoming === "object" &&
            incoming !== null &&
            !Array.isArray(incoming)
          ) {
            const accumulator = createStackAccumulator({
              strategy,
              initial: base as Record<string, unknown>,
            });
            accumulator.merge(incoming as Record<string, unknown>);
            result = accumulator.value;
          } else result = stackMerge(base, incoming, { strategy });
        } catch (error) {
          if (!isMergeError(error)) throw error;
          expect(error.code).toBe("UNKNOWN_STRATEGY");
          return;
        } finally {
          expect(JSON.stringify([base, incoming])).toBe(before);
          expectPristine();
        }
        for (const atom of atoms(result)) expect(allowed.has(atom)).toBe(true);
      }),
      { numRuns: RUNS },
    );
    tally("property", RUNS);
  });

  it("leaves a mapping as it is when {} is merged in, and copies a mapping merged into {}", () => {
    const dict = fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), plain, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.constantFrom<StackStrategy>("merge-last", "merge-first"), dict, (strategy, value) => {
        expect(stackMerge(value, {}, { strategy })).toEqual(value);
        expect(stackMerge({}, value, { strategy })).toEqual(value);
        const accumulator = createStackAccumulator({ strategy });
        accumulator.merge(value);
        expect(accumulator.value).toEqual(value);
      }),
      { numRuns: RUNS },
    );
    tally("property", RUNS);
  });

  it("agrees between the pure merge and the accumulator on directive-free mappings", () => {
    const dict = fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__"), plain, { maxKeys: 4 });
    fc.assert(
      fc.property(strategyArb, fc.array(dict, { maxLength: 5 }), (strategy, docs) => {
        const accumulator = createStackAccumulator({ strategy });
        let pure: unknown = {};
        for (const doc of docs) {
          accumulator.merge(doc);
          pure = stackMerge(pure, doc, { strategy });
        }
        expect(accumulator.value).toEqual(pure);
      }),
      { numRuns: RUNS },
    );
    tally("property", RUNS);
  });
});
