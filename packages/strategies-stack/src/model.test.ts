import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStackAccumulator, stackMergeAll } from "./accumulator.js";
import { stackMerge } from "./merge.js";
import { modelMergeDict } from "./test-salt-model.js";

// Values shaped like PillarStack YAML: few keys (so they collide), directives sprinkled in mappings and lists.
const strategy = fc.constantFrom("merge-last", "merge-first", "remove", "overwrite");
const key = fc.constantFrom("a", "b", "c", "__");
const scalar = fc.oneof(
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(0.5, 1.5),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("a", "b"),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", maxDepth: 4 }, scalar, tie("dict"), tie("list")),
  dict: fc.dictionary(key, fc.oneof(tie("value"), strategy), { maxKeys: 4 }).map((d) => {
    // a `__` key always carries a valid strategy here; unknown strategies have their own tests
    if ("__" in d && typeof d.__ !== "string") d.__ = "merge-last";
    if (typeof d.__ === "string" && !["merge-last", "merge-first", "remove", "overwrite"].includes(d.__))
      delete d.__;
    return d;
  }),
  list: fc
    .tuple(fc.option(strategy, { nil: undefined }), fc.array(tie("value"), { maxLength: 4 }))
    .map(([s, items]) => (s === undefined ? items : [{ __: s }, ...items])),
}));
const doc = fc
  .tuple(
    fc.option(strategy, { nil: undefined }),
    fc.dictionary(fc.constantFrom("a", "b", "c"), value, { maxKeys: 4 }),
  )
  .map(([s, d]) => (s === undefined ? d : { __: s, ...d }) as Record<string, unknown>);

describe("agreement with a step-by-step model of Salt's code", () => {
  it("stackMerge and the accumulator equal Salt's result and leave inputs untouched", () => {
    fc.assert(
      fc.property(doc, doc, doc, (first, second, third) => {
        const snapshot = structuredClone([first, second, third]);
        let model: Record<string, unknown> = {};
        for (const d of [first, second, third]) model = modelMergeDict(model, structuredClone(d));
        let pure: unknown = {};
        for (const d of [first, second, third]) pure = stackMerge(pure, d);
        expect(pure).toEqual(model);
        expect(stackMergeAll([first, second, third])).toEqual(model);
        expect([first, second, third]).toEqual(snapshot);
      }),
      { numRuns: 1500 },
    );
  });
});

describe("shared values (YAML aliases), as Salt's in-place merge treats them", () => {
  it("changes every place a shared mapping sits when one of them is merged into", () => {
    const defaults = { timeout: 30, retries: [1] };
    const first = { defaults, web: defaults, api: defaults };
    const second = { web: { timeout: 60, retries: [2] } };
    const model = modelMergeDict(modelMergeDict({}, structuredClone(first)), structuredClone(second));
    const folded = stackMergeAll([first, second]);
    expect(folded).toEqual(model);
    expect(folded).toEqual({
      defaults: { timeout: 60, retries: [1, 2] },
      web: { timeout: 60, retries: [1, 2] },
      api: { timeout: 60, retries: [1, 2] },
    });
    expect(first.defaults).toEqual({ timeout: 30, retries: [1] });
  });

  it("lets a directive popped through one alias be gone for the other, as in Salt", () => {
    const shared = { __: "overwrite", p: 1 };
    const base = { x: { z: 1 }, y: { z: 2 } };
    const doc = { x: shared, y: shared };
    const model = modelMergeDict(structuredClone(base), structuredClone(doc));
    const accumulator = createStackAccumulator({ initial: base });
    accumulator.merge(doc);
    expect(accumulator.value).toEqual(model);
    expect(model).toEqual({ x: { p: 1 }, y: { z: 2, p: 1 } });
    expect(doc.x).toEqual({ __: "overwrite", p: 1 });
  });

  it("agrees with the model on random documents with shared parts", () => {
    const withAliases = fc
      .tuple(doc, fc.constantFrom("a", "b", "c"), fc.constantFrom("a", "b", "c"))
      .map(([d, from, to]) => {
        if (typeof d[from] === "object" && d[from] !== null && from !== to) d[to] = d[from];
        return d;
      });
    fc.assert(
      fc.property(withAliases, withAliases, withAliases, (first, second, third) => {
        let model: Record<string, unknown> = {};
        for (const d of [first, second, third]) model = modelMergeDict(model, structuredClone(d));
        expect(stackMergeAll([first, second, third])).toEqual(model);
      }),
      { numRuns: 1000 },
    );
  });
});
