import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import type { MergerPlugin, TraceEvent } from "./plugin.js";
import { createRegistry } from "./registry.js";
import { concatList, deepDict, explosive, replaceScalar } from "./test-plugins.js";
import { catchMergeError as caught } from "../../../test-kit/errors.js";

const registry = createRegistry([deepDict(), concatList(), replaceScalar(), explosive()]);
const standard = registry.resolve("deep()+concat()+scalar()");

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe("dispatch", () => {
  it("merges recursively through the root merger", () => {
    expect(
      standard.merge({ a: { b: [1], c: "x" }, keep: 1 }, { a: { b: [2], c: "y", d: true }, add: null }),
    ).toEqual({ a: { b: [1, 2], c: "y", d: true }, keep: 1, add: null });
  });

  it("dispatches on the kind of the base value", () => {
    // base list, incoming dict: the list plugin decides (and returns the incoming value as is)
    expect(standard.merge([1], { x: 1 })).toEqual({ x: 1 });
    // base dict, incoming list: the dict plugin keeps the base
    expect(standard.merge({ x: 1 }, [1])).toEqual({ x: 1 });
  });

  it("gives each kind to the first plugin in spec order that handles it", () => {
    const other: MergerPlugin = {
      name: "other_list",
      kinds: ["list"],
      options: {},
      create: () => ({ list: () => "second" }),
    };
    const local = createRegistry([concatList(), other]);
    expect(local.resolve("other_list()+concat()").merge([1], [2])).toBe("second");
    expect(local.resolve("concat()+other_list()").merge([1], [2])).toEqual([1, 2]);
    expect(local.resolve("concat()+other_list()").handlerFor("list")).toBe("concat()");
  });

  it("returns the base unchanged when no plugin handles its kind", () => {
    const onlyLists = registry.resolve("concat()");
    const base = { a: 1 };
    expect(onlyLists.merge(base, { a: 2 })).toBe(base);
    expect(onlyLists.merge(7, 8)).toBe(7);
    expect(onlyLists.merge(null, { a: 1 })).toBe(null);
    const date = new Date(0);
    expect(standard.merge(date, "x")).toBe(date);
    expect(standard.merge({ d: date }, { d: "x" })).toEqual({ d: "x" });
  });
});

describe("inputs", () => {
  it("are never mutated", () => {
    const base = deepFreeze({ a: { list: [1, { x: 1 }], s: "a" }, b: 2 });
    const incoming = deepFreeze({ a: { list: [3], s: "b", n: { deep: true } }, c: [1] });
    const snapshot = JSON.stringify([base, incoming]);
    const result = standard.merge(base, incoming);
    expect(JSON.stringify([base, incoming])).toBe(snapshot);
    expect(result).toEqual({ a: { list: [1, { x: 1 }, 3], s: "b", n: { deep: true } }, b: 2, c: [1] });
  });
});

describe("hostile keys", () => {
  const payloads = [
    '{"__proto__": {"polluted": true}, "a": 1}',
    '{"a": {"__proto__": {"polluted": true}}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"prototype": {"polluted": true}, "list": [{"__proto__": {"polluted": true}}]}',
  ];

  it.each(payloads)("keeps %s as data from JSON", (text) => {
    const incoming = JSON.parse(text);
    const base = JSON.parse('{"a": {"__proto__": {"other": 1}}, "constructor": {"x": 1}}');
    const result = standard.merge(base, incoming) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    for (const key of Object.keys(incoming)) expect(Object.hasOwn(result, key)).toBe(true);
  });

  it("keeps YAML __proto__ keys and merge keys as data", () => {
    const incoming = yaml.load(
      "base: &b\n  __proto__: {polluted: true}\nchild:\n  <<: *b\n  constructor: {prototype: {polluted: true}}\n",
    );
    const result = standard.merge({ child: { constructor: { keep: 1 } } }, incoming) as Record<
      string,
      unknown
    >;
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.keys(result.base as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(result.base)).toBe(Object.prototype);
    expect((result.child as Record<string, unknown>).constructor).toEqual({
      keep: 1,
      prototype: { polluted: true },
    });
  });

  it("does not treat inherited names as existing keys", () => {
    expect(standard.merge({}, { constructor: 1, toString: 2, hasOwnProperty: 3 })).toEqual({
      constructor: 1,
      toString: 2,
      hasOwnProperty: 3,
    });
  });
});

describe("limits", () => {
  it("reports a cycle as CYCLIC_INPUT, not a stack overflow", () => {
    const base: Record<string, unknown> = { name: "a" };
    base.self = base;
    const incoming: Record<string, unknown> = { name: "b" };
    incoming.self = incoming;
    const error = caught(() => standard.merge(base, incoming));
    expect(error.code).toBe("CYCLIC_INPUT");
    expect(error.path).toMatch(/^self\.self\.self/);
  });

  it("reports nesting beyond the limit as DEPTH_LIMIT", () => {
    const nest = (depth: number) => {
      let value: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < depth; i++) value = { n: value };
      return value;
    };
    const limited = registry.resolve("deep()+scalar()", { maxDepth: 50 });
    expect(limited.merge(nest(40), nest(40))).toEqual(nest(40));
    const error = caught(() => limited.merge(nest(60), nest(60)));
    expect(error.code).toBe("DEPTH_LIMIT");
    expect(error.details).toEqual({ maxDepth: 50 });
    expect(caught(() => standard.merge(nest(5000), nest(5000))).code).toBe("DEPTH_LIMIT");
  });
});

describe("plugin failures", () => {
  it("come out coded, with the plugin and the key path", () => {
    const merger = registry.resolve("deep()+concat()+boom()");
    const inner = caught(() =>
      merger.merge({ users: { tom: { name: "old" } } }, { users: { tom: { name: "boom" } } }),
    );
    expect(inner.plugin).toBe("boom()");
    expect(inner.path).toBe("users.tom.name");
    expect(inner.message).toContain("cannot merge boom");
    expect(inner.code).toBe("PLUGIN_FAILED");
    expect(inner.cause).toBeInstanceOf(TypeError);
  });

  it("keep a MergeError's own code and add the path", () => {
    const strict: MergerPlugin = {
      name: "strict",
      kinds: ["string"],
      options: {},
      create: (_options, ctx) => ({
        string: (_base, incoming) => ctx.fail("MERGE_TYPE", `cannot append ${typeof incoming}`),
      }),
    };
    const merger = createRegistry([deepDict(), strict]).resolve("deep()+strict()");
    const error = caught(() => merger.merge({ a: { "b.c": "x" } }, { a: { "b.c": 1 } }));
    expect(error.code).toBe("MERGE_TYPE");
    expect(error.path).toBe('a["b.c"]');
    expect(error.plugin).toBe("strict()");
  });
});

describe("trace", () => {
  it("records decisions with paths only when a sink is attached", () => {
    const events: TraceEvent[] = [];
    const traced = registry.resolve("deep()+concat()+scalar()", {
      trace: { record: (event) => events.push(event) },
    });
    traced.merge({ a: { b: 1 } }, { a: { c: 2 } });
    expect(events.map((event) => [event.path.join("."), event.action, event.merger])).toEqual([
      ["a.c", "added", "deep()"],
      ["a", "merged", "deep()"],
    ]);
  });
});
