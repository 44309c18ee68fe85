import {
  copyMapping,
  createRegistry,
  definePlugin,
  getItem,
  hasItem,
  isMapping,
  isMergeError,
  type Mapping,
  mappingKeys,
  mergeAll,
  setItem,
  type TraceEvent,
} from "@merge/core";
import { describe, expect, it } from "vitest";
import { keyedList } from "./index.js";

// A minimal mapping merger written for these tests: new keys added, existing keys merged through the root merger,
// and a new scalar replaces an old one one level up (there is no scalar merger in the spec).
const testDict = definePlugin({
  name: "tdict",
  kinds: ["dict"],
  options: {},
  create: (_options, context) => ({
    dict: (base: Mapping, incoming: unknown) => {
      if (!isMapping(incoming)) return base;
      const out = copyMapping(base);
      for (const key of mappingKeys(incoming)) {
        const value = getItem(incoming, key);
        const old = getItem(out, key);
        const mergeable = typeof old === "object" && old !== null;
        setItem(out, key, hasItem(out, key) && mergeable ? context.merge(old, value, key) : value);
        if (context.tracing && !mergeable) context.explain(hasItem(base, key) ? "replaced" : "added", key);
      }
      return out;
    },
  }),
});

function merger(spec: string, trace?: { record(event: TraceEvent): void }) {
  return createRegistry().use(keyedList(), testDict).resolve(spec, { trace });
}

const base = [
  { name: "web", port: 80, tags: ["a"] },
  { name: "db", port: 5432 },
];

describe("keyed(name)", () => {
  it("merges items with the same key and appends the others", () => {
    const result = merger("keyed(name)+tdict()").merge(base, [
      { name: "db", port: 6432 },
      { name: "cache", port: 6379 },
    ]);
    expect(result).toEqual([
      { name: "web", port: 80, tags: ["a"] },
      { name: "db", port: 6432 },
      { name: "cache", port: 6379 },
    ]);
  });

  it("uses name when no field is given and another field when one is", () => {
    expect(merger("keyed()+tdict()").merge([{ name: "x", v: 1 }], [{ name: "x", w: 2 }])).toEqual([
      { name: "x", v: 1, w: 2 },
    ]);
    expect(
      merger("keyed(id)+tdict()").merge(
        [{ id: 1, v: 1 }],
        [
          { id: 1, v: 2 },
          { id: "1", v: 3 },
        ],
      ),
    ).toEqual([
      { id: 1, v: 2 },
      { id: "1", v: 3 },
    ]);
  });

  it("merges matched items through the root merger, so nested lists are keyed too", () => {
    const result = merger("keyed(name)+tdict()").merge(
      [{ name: "web", users: [{ name: "tom", shell: "sh" }] }],
      [{ name: "web", users: [{ name: "tom", shell: "zsh" }, { name: "ann" }] }],
    );
    expect(result).toEqual([
      {
        name: "web",
        users: [{ name: "tom", shell: "zsh" }, { name: "ann" }],
      },
    ]);
  });

  it("replaces matched items with replace and puts new items first with prepend", () => {
    expect(merger("keyed(name,replace)+tdict()").merge(base, [{ name: "web" }])).toEqual([
      { name: "web" },
      { name: "db", port: 5432 },
    ]);
    expect(merger("keyed(name,prepend)+tdict()").merge(base, [{ name: "new" }])).toEqual([
      { name: "new" },
      ...base,
    ]);
  });

  it("appends items without the key field and scalars", () => {
    expect(merger("keyed(name)+tdict()").merge([{ name: "a" }], [{ other: 1 }, "x"])).toEqual([
      { name: "a" },
      { other: 1 },
      "x",
    ]);
  });

  it("keeps the old list for a null and takes a non-list new value as it is", () => {
    expect(merger("keyed(name)").merge(base, null)).toBe(base);
    expect(merger("keyed(name)").merge(base, "text")).toBe("text");
  });

  it("never changes its inputs", () => {
    const old = structuredClone(base);
    const incoming = [{ name: "web", port: 8080 }];
    const copy = structuredClone(incoming);
    merger("keyed(name)+tdict()").merge(old, incoming);
    expect(old).toEqual(base);
    expect(incoming).toEqual(copy);
  });

  it("keeps a __proto__ key field value as data", () => {
    const hostile = JSON.parse('[{"name": "__proto__", "polluted": true}]');
    const result = merger("keyed(name)+tdict()").merge(
      JSON.parse('[{"name": "__proto__", "x": 1}]'),
      hostile,
    );
    expect(result).toEqual([{ name: "__proto__", x: 1, polluted: true }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses two key fields with a coded error", () => {
    try {
      merger("keyed(name,id)").merge([], []);
      expect.unreachable();
    } catch (error) {
      expect(isMergeError(error) && error.code).toBe("KEYED_FIELDS");
    }
  });

  it("accepts any field name although it is not a listed option", () => {
    expect(() => merger("keyed(hostname)")).not.toThrow();
  });

  it("records which items it appended and which it merged when tracing", () => {
    const events: TraceEvent[] = [];
    merger("keyed(name)+tdict()", { record: (event) => events.push(event) }).merge(base, [
      { name: "db", port: 1 },
      { name: "new" },
    ]);
    expect(events.map((event) => [event.path, event.action, event.merger])).toEqual([
      [[1, "name"], "replaced", "tdict()"],
      [[1, "port"], "replaced", "tdict()"],
      [[2], "appended", "keyed(name)"],
    ]);
  });

  it("works in a sequence fold started from {}", () => {
    const result = mergeAll([{ users: [{ name: "a", uid: 1 }] }, { users: [{ name: "a", shell: "zsh" }] }], {
      registry: createRegistry().use(keyedList(), testDict),
      spec: "keyed(name)+tdict()",
    });
    expect(result).toEqual({ users: [{ name: "a", uid: 1, shell: "zsh" }] });
  });
});
