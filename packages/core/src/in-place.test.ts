import { describe, expect, it } from "vitest";
import { copyMapping, getItem, hasItem, isMapping, mappingKeys, setItem } from "./mapping.js";
import type { MergerPlugin } from "./plugin.js";
import { createRegistry } from "./registry.js";
import { mergeAll } from "./sequence.js";

// A merge-last plugin with in-place handlers that counts how often each path runs, so the tests can see which one
// the engine chose.
function countingPlugin(calls: { pure: number; inPlace: number }): MergerPlugin {
  return {
    name: "last",
    kinds: ["dict", "list", "string", "number", "boolean", "null"],
    options: {},
    create(_options, ctx) {
      const replace = (_base: unknown, incoming: unknown) => incoming;
      return {
        dict(base, incoming) {
          calls.pure++;
          if (!isMapping(incoming)) return incoming;
          if (hasItem(incoming, "boom")) ctx.fail("PLUGIN_FAILED", "boom");
          const out = copyMapping(base);
          for (const key of mappingKeys(incoming)) {
            const value = getItem(incoming, key);
            setItem(out, key, hasItem(base, key) ? ctx.merge(getItem(base, key), value, key) : value);
          }
          return out;
        },
        list(base, incoming) {
          calls.pure++;
          return Array.isArray(incoming) ? [...base, ...incoming] : incoming;
        },
        string: replace,
        number: replace,
        boolean: replace,
        null: replace,
        inPlace: {
          dict(target, incoming) {
            calls.inPlace++;
            if (!isMapping(incoming)) return incoming;
            if (hasItem(incoming, "boom")) ctx.fail("PLUGIN_FAILED", "boom");
            for (const key of mappingKeys(incoming)) {
              const value = getItem(incoming, key);
              setItem(
                target,
                key,
                hasItem(target, key) ? ctx.merge(getItem(target, key), value, key) : value,
              );
            }
            return target;
          },
          list(target, incoming) {
            calls.inPlace++;
            if (!Array.isArray(incoming)) return incoming;
            for (const item of incoming) target.push(item);
            return target;
          },
        },
      };
    },
  };
}

const docs = () => [
  { a: { x: 1, list: [1] }, b: "one" },
  { a: { y: 2, list: [2] }, c: { deep: { z: 1 } } },
  { a: { x: 3, list: [3] }, c: { deep: { w: 2 } } },
  { c: { deep: { z: 9 } }, b: ["now", "a", "list"] },
];
const expected = {
  a: { x: 3, y: 2, list: [1, 2, 3] },
  b: ["now", "a", "list"],
  c: { deep: { z: 9, w: 2 } },
};

describe("mergeAll with in-place handlers", () => {
  it("folds through the in-place handlers and gives the pure fold's result", () => {
    const calls = { pure: 0, inPlace: 0 };
    const registry = createRegistry([countingPlugin(calls)]);
    const input = docs();
    const snapshot = structuredClone(input);
    expect(mergeAll(input, { registry, spec: "last()" })).toEqual(expected);
    expect(calls.inPlace).toBeGreaterThan(0);
    expect(calls.pure).toBe(0);
    expect(input).toEqual(snapshot);
  });

  it("never changes the documents, even when a later document merges into a subtree taken from an earlier one", () => {
    const registry = createRegistry([countingPlugin({ pure: 0, inPlace: 0 })]);
    const first = { shared: { list: [1], map: { k: 1 } } };
    const result = mergeAll([first, { shared: { list: [2], map: { j: 2 } } }, { shared: { list: [3] } }], {
      registry,
      spec: "last()",
    }) as Record<string, unknown>;
    expect(first).toEqual({ shared: { list: [1], map: { k: 1 } } });
    expect(result).toEqual({ shared: { list: [1, 2, 3], map: { k: 1, j: 2 } } });
  });

  it("copies `initial` before changing it", () => {
    const registry = createRegistry([countingPlugin({ pure: 0, inPlace: 0 })]);
    const initial = { a: { list: [0] } };
    const result = mergeAll(docs(), { registry, spec: "last()", initial });
    expect(initial).toEqual({ a: { list: [0] } });
    expect(result).toEqual({ ...expected, a: { ...expected.a, list: [0, 1, 2, 3] } });
  });

  it("stays pure with onError, so a rejected document leaves no partial change", () => {
    const calls = { pure: 0, inPlace: 0 };
    const registry = createRegistry([countingPlugin(calls)]);
    const errors: number[] = [];
    // The rejected document changes `a` before its `c` fails; none of it may show.
    const result = mergeAll([...docs(), { a: { list: [4], x: 0 }, c: { boom: 1 } }], {
      registry,
      spec: "last()",
      onError: (failure) => errors.push(failure.index),
    });
    expect(calls.inPlace).toBe(0);
    expect(result).toEqual(expected);
    expect(errors).toEqual([4]);
  });

  it("uses the pure handlers of plugins without in-place ones", () => {
    const calls = { pure: 0, inPlace: 0 };
    const plugin = countingPlugin(calls);
    const pureOnly: MergerPlugin = {
      ...plugin,
      create: (options, ctx) => {
        const { inPlace: _dropped, ...handlers } = plugin.create(options, ctx);
        return handlers;
      },
    };
    const registry = createRegistry([pureOnly]);
    expect(mergeAll(docs(), { registry, spec: "last()" })).toEqual(expected);
    expect(calls.inPlace).toBe(0);
    expect(calls.pure).toBeGreaterThan(0);
  });
});
