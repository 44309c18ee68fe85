import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stackMergeAll } from "./accumulator.js";
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
