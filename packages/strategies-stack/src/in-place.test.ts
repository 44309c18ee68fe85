import { createRegistry, isMergeError, mergeAll, type TraceEvent } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stackMerger } from "./plugin.js";

// `mergeAll` without `onError` folds through the plugin's in-place handlers (it owns its accumulator); with
// `onError` every step is the pure merge. Both must give the same data, the same errors and the same trace.

const registry = createRegistry([stackMerger()]).freeze();
const SPECS = ["stack()", "stack(merge_first)", "stack(remove)", "stack(overwrite)"] as const;

const strategy = fc.constantFrom("merge-last", "merge-first", "remove", "overwrite");
// Mostly valid directives, sometimes a wrong one (both paths must then fail alike).
const directive = fc.oneof({ weight: 6, arbitrary: strategy }, fc.constantFrom("merge-lst", 3, null));
const key = fc.constantFrom("a", "b", "c", "__", "__proto__", "constructor");
const scalar = fc.oneof(
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("a", "b", 1.5),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", maxDepth: 4 }, scalar, tie("dict"), tie("list")),
  dict: fc.dictionary(key, fc.oneof(tie("value"), directive), { maxKeys: 4, noNullPrototype: false }),
  list: fc
    .tuple(fc.option(directive, { nil: undefined }), fc.array(tie("value"), { maxLength: 4 }))
    .map(([s, items]) => (s === undefined ? items : [{ __: s }, ...items])),
}));
// Documents, sometimes with one value placed under two keys (a YAML alias): shared parts must stay untouched.
const doc = fc
  .tuple(
    fc.option(directive, { nil: undefined }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__"), value, { maxKeys: 4 }),
    fc.constantFrom("a", "b", "c"),
    fc.constantFrom("a", "b", "c"),
  )
  .map(([s, d, from, to]) => {
    const out = s === undefined ? d : ({ __: s, ...d } as Record<string, unknown>);
    if (from !== to && typeof out[from] === "object" && out[from] !== null) out[to] = out[from];
    return out;
  });

interface Outcome {
  readonly value?: unknown;
  readonly code?: string;
  readonly events: TraceEvent[];
}

function fold(docs: readonly unknown[], spec: string, pure: boolean): Outcome {
  const events: TraceEvent[] = [];
  const trace = { record: (event: TraceEvent) => events.push(event) };
  try {
    if (pure) {
      let code: string | undefined;
      const value = mergeAll(docs, {
        registry,
        spec,
        trace,
        onError: ({ error }) => {
          code ??= error.code;
        },
      });
      return code === undefined ? { value, events } : { code, events };
    }
    return { value: mergeAll(docs, { registry, spec, trace }), events };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { code: error.code, events };
  }
}

describe("in-place handlers (mergeAll's owned accumulator)", () => {
  it("give the pure handlers' result, errors and trace on random documents, for every default strategy", () => {
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 5 }), fc.constantFrom(...SPECS), (docs, spec) => {
        const snapshot = structuredClone(docs);
        const pure = fold(docs, spec, true);
        const inPlace = fold(docs, spec, false);
        expect(docs).toEqual(snapshot);
        if (pure.code !== undefined) {
          // The pure fold skipped the failing document; the owned fold stops at it with the same code.
          expect(inPlace.code).toBe(pure.code);
          return;
        }
        expect(inPlace.code).toBeUndefined();
        expect(inPlace.value).toEqual(pure.value);
        expect(JSON.stringify(inPlace.value)).toBe(JSON.stringify(pure.value));
        expect(inPlace.events).toEqual(pure.events);
      }),
      { numRuns: 1500 },
    );
  });

  it("never changes documents or the initial value, even when later documents merge into what they gave", () => {
    fc.assert(
      fc.property(doc, fc.array(doc, { minLength: 1, maxLength: 4 }), (initial, docs) => {
        const snapshot = structuredClone([initial, docs]);
        let pure: unknown;
        try {
          pure = docs.reduce<unknown>((acc, d) => registry.resolve("stack()").merge(acc, d), initial);
        } catch (error) {
          expect(isMergeError(error)).toBe(true);
          expect(() => mergeAll(docs, { registry, spec: "stack()", initial })).toThrow();
          expect([initial, docs]).toEqual(snapshot);
          return;
        }
        expect(mergeAll(docs, { registry, spec: "stack()", initial })).toEqual(pure);
        expect([initial, docs]).toEqual(snapshot);
      }),
      { numRuns: 500 },
    );
  });

  it("grows owned mappings and lists in place across documents and leaves the documents as written", () => {
    const first = { app: { tags: ["a"], db: { host: "h1", port: 1 } }, gone: 1 };
    const second = { app: { tags: ["b"], db: { port: 2 } } };
    const third = {
      __: "merge-last",
      app: { tags: [{ __: "merge-first" }, "z"], db: { __: "remove", host: null } },
      gone: { __: "overwrite", now: true },
    };
    const fourth = { app: { tags: [{ __: "remove" }, "a"] } };
    const docs = [first, second, third, fourth];
    const snapshot = structuredClone(docs);
    const result = mergeAll(docs, { registry, spec: "stack()" });
    expect(result).toEqual({ app: { tags: ["z", "b"], db: { port: 2 } }, gone: { now: true } });
    expect(docs).toEqual(snapshot);
    expect((result as { app: unknown }).app).not.toBe(first.app);
  });

  it("keeps a __proto__ key as data when it is added or merged in place", () => {
    const docs = [JSON.parse('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"y": 2}}')];
    const result = mergeAll(docs, { registry, spec: "stack()" }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(result, "__proto__")?.value).toEqual({ x: 1, y: 2 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
