import { createRegistry, MergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createStackAccumulator, stackMergeAll } from "./accumulator.js";
import { stackMerge } from "./merge.js";
import { stackMerger } from "./plugin.js";
import { catchMergeError as thrown } from "../../../test-kit/errors.js";

// Runs a case through both implementations so every rule is checked on each.
function both(stack: Record<string, unknown>, data: Record<string, unknown>): unknown {
  const pure = stackMerge(stack, data);
  const folded = stackMergeAll([stack, data]);
  expect(folded).toEqual(pure);
  return pure;
}

describe("values of different types", () => {
  it("lets a list replace a mapping and a mapping replace a list", () => {
    expect(both({ a: { x: 1 }, b: [1] }, { a: [2], b: { y: 2 } })).toEqual({ a: [2], b: { y: 2 } });
  });

  it("lets scalars of any type replace each other (1, 1.0, true, 'x', null)", () => {
    expect(
      both({ a: 1, b: 1.5, c: true, d: "x", e: null }, { a: 1.0, b: true, c: 1, d: null, e: "y" }),
    ).toEqual({
      a: 1,
      b: true,
      c: 1,
      d: null,
      e: "y",
    });
  });

  it("lets a scalar replace a mapping and cleans a mapping that replaces a scalar", () => {
    expect(
      both({ a: { x: 1 }, b: 3 }, { a: "flat", b: { __: "remove", y: [{ __: "overwrite" }, 1] } }),
    ).toEqual({
      a: "flat",
      b: { y: [1] },
    });
  });
});

describe("merge-first", () => {
  it("lets the old values win at every depth while new keys still arrive", () => {
    const stack = { app: { db: { host: "old", port: 1 }, tags: ["a"] } };
    const data = { __: "merge-first", app: { db: { host: "new", user: "u" }, tags: ["b"], extra: true } };
    expect(both(stack, data)).toEqual({
      app: { db: { host: "old", user: "u", port: 1 }, tags: ["b", "a"], extra: true },
    });
  });

  it("ignores directives nested in the new value, as Salt's swap cleans it first", () => {
    const stack = { app: { db: { host: "old" } } };
    const data = { __: "merge-first", app: { db: { __: "overwrite", user: "u" } } };
    expect(both(stack, data)).toEqual({ app: { db: { user: "u", host: "old" } } });
  });

  it("keeps the old value when the types differ", () => {
    expect(both({ a: [1] }, { __: "merge-first", a: { x: 1 } })).toEqual({ a: [1] });
  });
});

describe("remove", () => {
  it("removes list items by Python equality: true removes 1 and 1.0, 0 removes false", () => {
    expect(both({ l: [1, 1.0, true, 2, false, "1"] }, { l: [{ __: "remove" }, true, 0] })).toEqual({
      l: [2, "1"],
    });
  });

  it("removes a mapping item equal by value whatever the key order ({a: 1.0} removes {a: 1})", () => {
    const stack = { l: [{ a: 1, b: [true] }, { a: 2 }, [1, 2]] };
    expect(both(stack, { l: [{ __: "remove" }, { b: [1.0], a: 1.0 }, [1, 2]] })).toEqual({ l: [{ a: 2 }] });
  });

  it("does not treat null and the string 'None' or 0 as equal", () => {
    expect(both({ l: [null, "None", 0] }, { l: [{ __: "remove" }, null] })).toEqual({ l: ["None", 0] });
  });

  it("removes long lists of items linearly with the same equality", () => {
    const stack = { l: Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? i : String(i))) };
    const remove = [
      { __: "remove" },
      ...Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? i : String(i))),
      true,
    ];
    const expected = stack.l.filter(
      (item) => !remove.slice(1).some((r) => r === item || (r === true && item === 1)),
    );
    expect(both(stack, { l: remove })).toEqual({ l: expected });
  });

  it("removes mapping keys whatever value the new file gives them", () => {
    expect(both({ a: 1, b: { c: 1 }, d: 3 }, { __: "remove", a: "anything", b: { c: 2 }, zzz: 1 })).toEqual({
      d: 3,
    });
  });
});

describe("overwrite", () => {
  it("replaces the whole stack when it opens a file", () => {
    expect(both({ a: 1, b: { c: 2 } }, { __: "overwrite", b: { d: 3, e: { __: "remove", f: 1 } } })).toEqual({
      b: { d: 3, e: { f: 1 } },
    });
  });
});

describe("directives", () => {
  it("apply only to the mapping they sit in: children use the default again", () => {
    const stack = { a: { b: { x: 1 }, l: [1] } };
    expect(both(stack, { a: { __: "merge-first", b: { y: 2 }, l: [2] } })).toEqual({
      a: { b: { y: 2, x: 1 }, l: [2, 1] },
    });
    expect(both(stack, { a: { __: "overwrite", b: { y: 2 } }, c: { d: 1 } })).toEqual({
      a: { b: { y: 2 } },
      c: { d: 1 },
    });
  });

  it("drop the whole first list item that holds __, other keys included", () => {
    expect(both({ l: ["a"] }, { l: [{ __: "merge-last", name: "lost" }, "b"] })).toEqual({ l: ["a", "b"] });
  });

  it("treat {__: x} later in a list as ordinary data", () => {
    expect(both({ l: ["a"] }, { l: ["b", { __: "remove" }] })).toEqual({ l: ["a", "b", { __: "remove" }] });
  });

  it("are stripped from new values through mappings but not inside mappings held by lists (Salt's cleanup)", () => {
    const data = {
      fresh: { __: "remove", inner: { __: "overwrite", keep: 1 }, l: [{ __: "remove" }, { __: "x", v: 1 }] },
    };
    expect(both({}, data)).toEqual({ fresh: { inner: { keep: 1 }, l: [{ __: "x", v: 1 }] } });
  });

  it("leave a second directive item in place once the first is dropped", () => {
    expect(both({}, { l: [{ __: "remove" }, { __: "overwrite" }, 1] })).toEqual({
      l: [{ __: "overwrite" }, 1],
    });
  });
});

describe("unknown strategies", () => {
  it("are a coded error naming the key path when used on a mapping", () => {
    const error = thrown(() => stackMerge({ a: { b: { c: 1 } } }, { a: { b: { __: "merge-lst", c: 2 } } }));
    expect(error.code).toBe("UNKNOWN_STRATEGY");
    expect(error.path).toBe("a.b");
    expect(error.message).toContain("'merge-lst'");
    const owned = thrown(() =>
      stackMergeAll([{ a: { b: { c: 1 } } }, { a: { b: { __: "merge-lst", c: 2 } } }]),
    );
    expect(owned.code).toBe("UNKNOWN_STRATEGY");
    expect(owned.path).toBe("a.b");
  });

  it("are a coded error on a list and at the top of a file", () => {
    expect(thrown(() => stackMerge({ l: [1] }, { l: [{ __: null }, 2] })).path).toBe("l");
    expect(thrown(() => stackMerge({}, { __: "replace" })).code).toBe("UNKNOWN_STRATEGY");
  });

  it("are dropped silently where Salt never reads them (a key new to the stack)", () => {
    expect(both({ a: 1 }, { b: { __: "bogus", c: 1 }, l: [{ __: "bogus" }, 1] })).toEqual({
      a: 1,
      b: { c: 1 },
      l: [1],
    });
  });
});

describe("the stack() spec", () => {
  it("takes a default strategy: stack(merge-first) keeps old values", () => {
    const registry = createRegistry([stackMerger()]);
    const merger = registry.resolve("stack(merge-first)");
    expect(merger.merge({ a: 1, l: [1], d: { x: 1 } }, { a: 2, l: [2], d: { x: 2, y: 2 }, n: 3 })).toEqual({
      a: 1,
      l: [2, 1],
      d: { x: 1, y: 2 },
      n: 3,
    });
    expect(stackMerge({ a: 1 }, { a: 2 }, { strategy: "merge-first" })).toEqual({ a: 1 });
  });

  it("lets a directive override the default strategy", () => {
    const merger = createRegistry([stackMerger()]).resolve("stack(overwrite)");
    expect(merger.merge({ a: { x: 1 } }, { a: { y: 1 } })).toEqual({ a: { y: 1 } });
    expect(merger.merge({ a: { x: 1 } }, { __: "merge-last", a: { y: 1 } })).toEqual({ a: { y: 1 } });
    expect(merger.merge({ a: { x: 1 } }, { __: "merge-last", a: { __: "merge-last", y: 1 } })).toEqual({
      a: { x: 1, y: 1 },
    });
  });

  it("rejects unknown and conflicting options", () => {
    const registry = createRegistry([stackMerger()]);
    // @ts-expect-error: a compile-time error too (typed specs); a spec read from a file meets it at run time
    expect(thrown(() => registry.resolve("stack(append)")).code).toBe("UNKNOWN_OPTION");
    expect(thrown(() => registry.resolve("stack(remove,overwrite)")).code).toBe("SPEC_SYNTAX");
  });

  it("composes with other mergers: the first merger handling a kind wins", () => {
    const replaceLists = {
      name: "keep_lists",
      kinds: ["list" as const],
      options: {},
      create: () => ({ list: (base: readonly unknown[]) => base }),
    };
    const merger = createRegistry([stackMerger(), replaceLists]).resolve("keep_lists()+stack()");
    expect(merger.merge({ l: [1], d: { a: 1 } }, { l: [2], d: { b: 2 } })).toEqual({
      l: [1],
      d: { a: 1, b: 2 },
    });
  });
});

describe("purity and safety", () => {
  it("never changes its inputs and shares untouched subtrees", () => {
    const stack = { keep: { deep: [1, 2] }, change: { a: 1 }, l: [1] };
    const data = { __: "merge-last", change: { __: "merge-last", b: 2 }, l: [{ __: "merge-first" }, 0] };
    const before = structuredClone({ stack, data });
    const merged = stackMerge(stack, data) as typeof stack;
    expect({ stack, data }).toEqual(before);
    expect(merged.keep).toBe(stack.keep);
    expect(merged).toEqual({ keep: { deep: [1, 2] }, change: { a: 1, b: 2 }, l: [0, 1] });
    expect(stackMergeAll([stack, data])).toEqual(merged);
    expect({ stack, data }).toEqual(before);
  });

  it("returns the stack itself when the file adds nothing", () => {
    const stack = { a: { b: 1 } };
    expect(stackMerge(stack, { a: { b: 1 } })).toBe(stack);
    expect(stackMerge(stack, {})).toBe(stack);
  });

  it("keeps __proto__ and constructor keys as data", () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
    const merged = stackMerge({ constructor: { a: 1 } }, data) as Record<string, unknown>;
    const folded = stackMergeAll([{}, data]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(merged)).toEqual(["constructor", "__proto__"]);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(folded, "__proto__")).toBe(true);
  });

  it("gives the accumulator's value to the caller to change without reaching any document", () => {
    const doc = { a: { b: { c: 1 } }, l: [{ x: 1 }] };
    const accumulator = createStackAccumulator();
    accumulator.merge(doc);
    const live = accumulator.value as { a: { b: { c: number; d?: number } }; l: { x: number }[] };
    live.a.b.d = 2;
    live.l[0]!.x = 9;
    expect(doc).toEqual({ a: { b: { c: 1 } }, l: [{ x: 1 }] });
    // a mapping put in by the caller is copied before the accumulator changes it
    const foreign = { y: 1 };
    (accumulator.value as Record<string, unknown>).f = foreign;
    accumulator.merge({ f: { z: 2 } });
    expect(foreign).toEqual({ y: 1 });
    expect((accumulator.value as Record<string, unknown>).f).toEqual({ y: 1, z: 2 });
  });

  it("turns nesting beyond the limit into DEPTH_LIMIT", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 1500; i++) deep = { n: deep };
    expect(thrown(() => stackMerge({ n: { n: {} } }, deep)).code).toBe("DEPTH_LIMIT");
    expect(thrown(() => stackMergeAll([{}, deep])).code).toBe("DEPTH_LIMIT");
    expect(thrown(() => stackMerge(deep, deep)).code).toBe("DEPTH_LIMIT");
  });

  it("rejects a document that is not a mapping in a fold", () => {
    expect(thrown(() => stackMergeAll([{}, [1] as unknown as Record<string, unknown>])).code).toBe(
      "MERGE_TYPE",
    );
  });

  it("wraps nothing: errors are MergeErrors", () => {
    expect(thrown(() => stackMerge({ a: [1] }, { a: [{ __: 3 }] }))).toBeInstanceOf(MergeError);
  });
});
