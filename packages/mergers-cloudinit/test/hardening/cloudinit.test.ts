import { gzipSync } from "node:zlib";
import { isMergeError } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CloudConfigPart,
  createCloudInitRegistry,
  mergeCloudConfig,
  mergeUserData,
} from "../../src/index.js";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

const registry = createCloudInitRegistry();

const MODES = ["current", "stack"] as const;

describe("prototype pollution through cloud-config", () => {
  it("merges hostile keys from YAML parts as data, in both modes", () => {
    let cases = 0;
    for (const text of hostileJsonTexts()) {
      for (const mode of MODES) {
        const parts: CloudConfigPart[] = [
          { text: `#cloud-config\n${text}` },
          {
            text: `#cloud-config\n${text}`,
            headers: { "Merge-Type": "list(append)+dict(recurse_list)+str()" },
          },
        ];
        const result = mergeCloudConfig(parts, { mode });
        expect(result.errors).toEqual([]);
        expect(ownHostileKeys(result.value).length).toBeGreaterThan(0);
        expectPristine();
        cases++;
      }
    }
    tally("pollution", cases);
  });

  it("rejects hostile merger names in merge_how and headers with a coded error", () => {
    const declarations = [
      "merge_how: '__proto__()'",
      "merge_how: 'constructor(prototype)'",
      "merge_how: 'toString()+dict()'",
      "merge_how: [{name: __proto__, settings: [polluted]}]",
      "merge_how: [[constructor, prototype]]",
      "merge_how: [{name: dict, settings: {__proto__: {polluted: 1}}}]",
      "merge_how: {__proto__: {polluted: 1}}",
      "merge_type: 'prototype()'",
    ];
    let cases = 0;
    for (const declaration of declarations) {
      for (const mode of MODES) {
        const result = mergeCloudConfig(
          [{ text: "#cloud-config\nkeep: 1\n" }, { text: `#cloud-config\n${declaration}\nx: 1\n` }],
          { mode },
        );
        for (const error of result.errors) expect(isMergeError(error)).toBe(true);
        expect(result.value).toMatchObject({ keep: 1 });
        expectPristine();
        cases++;
      }
    }
    for (const header of ["__proto__()", "constructor()", "hasOwnProperty(x)"]) {
      const result = mergeCloudConfig([
        { text: "#cloud-config\nkeep: 1\n" },
        { text: "#cloud-config\nx: 1\n", headers: { "Merge-Type": header } },
      ]);
      expect(result.parts[1]?.status).toBe("rejected");
      expect(result.errors[0]?.code).toBe("UNKNOWN_MERGER");
      expectPristine();
      cases++;
    }
    tally("pollution", cases);
  });

  it("refuses JSON patch operations that would reach a prototype", () => {
    const patches = [
      [{ op: "add", path: "/__proto__/polluted", value: 1 }],
      [{ op: "add", path: "/constructor/prototype/polluted", value: 1 }],
      [{ op: "replace", path: "/a/__proto__/polluted", value: 1 }],
      [{ op: "copy", from: "/a", path: "/__proto__/polluted" }],
      [{ op: "move", from: "/a", path: "/constructor/prototype/isAdmin" }],
      [{ op: "add", path: "/list/0/__proto__/hacked", value: 1 }],
    ];
    for (const patch of patches) {
      const result = mergeCloudConfig([
        { text: "#cloud-config\na: {b: 1}\nlist: [{c: 1}]\n" },
        { text: `#cloud-config-jsonp\n${JSON.stringify(patch)}` },
      ]);
      expect(result.parts[1]?.status).toBe("rejected");
      expect(result.errors[0]?.code).toBe("JSON_PATCH");
      expect(result.value).toEqual({ a: { b: 1 }, list: [{ c: 1 }] });
      expectPristine();
    }
    tally("pollution", patches.length);
  });

  it("keeps hostile keys as data in a MIME multipart message and its headers", async () => {
    const boundary = "===BOUNDARY==";
    const mime = [
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "MIME-Version: 1.0",
      "",
      `--${boundary}`,
      'Content-Type: text/cloud-config; charset="us-ascii"',
      "Merge-Type: list(append)+dict(recurse_array)+str()",
      "__proto__: polluted",
      "",
      "#cloud-config",
      "__proto__: {polluted: 1}",
      "constructor: {prototype: {isAdmin: true}}",
      `--${boundary}`,
      "Content-Type: text/cloud-config",
      "Merge-Type: __proto__()",
      "",
      "#cloud-config",
      "x: 1",
      `--${boundary}--`,
      "",
    ].join("\n");
    const result = await mergeUserData(mime);
    expect(result.parts.map((p) => p.status)).toEqual(["merged", "rejected"]);
    expect(Object.keys(result.value as object)).toEqual(["__proto__", "constructor"]);
    expectPristine();
    tally("pollution", 2);
  });
});

describe("size and shape", () => {
  it("rejects a part nesting too deep and an alias bomb, and keeps merging", () => {
    let bomb = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      bomb += `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(",")}]\n`;
    const cases: [CloudConfigPart, string][] = [
      [{ text: `#cloud-config\nd:\n  ${"[".repeat(100_000)}` }, "DEPTH_LIMIT"],
      [
        {
          text: `#cloud-config\nd:\n${Array.from({ length: 600 }, (_, i) => `${" ".repeat(i + 2)}k:`).join("\n")}`,
        },
        "DEPTH_LIMIT",
      ],
      [{ text: `#cloud-config\n${bomb}` }, "SIZE_LIMIT"],
    ];
    let count = 0;
    for (const [part, code] of cases) {
      for (const mode of MODES) {
        // Base has the same keys so the merge really descends into the hostile part.
        const result = mergeCloudConfig(
          [{ data: { k: { k: {} }, a: { back: {} }, keep: 1 } }, part, { text: "#cloud-config\nafter: 2\n" }],
          { mode },
        );
        expect(result.parts.map((p) => p.status)).toEqual(["merged", "rejected", "merged"]);
        expect(result.errors[0]?.code).toBe(code);
        expect(result.value).toMatchObject({ keep: 1, after: 2 });
        count++;
      }
    }
    tally("size", count);
  });

  it("merges 10^6-item lists and 10^5-key mappings, and a 100 MB string", () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    const merger = registry.resolve("list(append)+dict(recurse_list,recurse_str)+str(append)");
    const merged = merger.merge({ items }, { items: [-1] }) as { items: number[] };
    expect(merged.items.length).toBe(1_000_001);
    expect(items.length).toBe(1_000_000);
    const keys: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) keys[`k${i}`] = i;
    expect(Object.keys(merger.merge(keys, { extra: 1 }) as object).length).toBe(100_001);
    const big = "x".repeat(50 * 1024 * 1024);
    expect((merger.merge({ s: big }, { s: big }) as { s: string }).s.length).toBe(100 * 1024 * 1024);
    tally("size", 3);
  });

  it("stops a gzip bomb at the inflate limit with SIZE_LIMIT", async () => {
    const bomb = gzipSync(Buffer.alloc(128 * 1024 * 1024, "a"), { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(mergeUserData(new Uint8Array(bomb))).rejects.toMatchObject({ code: "SIZE_LIMIT" });
    tally("size", 1);
  });
});

// Arbitrary specs over the three mergers, with every option each accepts, in any order.
const listOptions = fc.subarray([
  "append",
  "prepend",
  "replace",
  "no_replace",
  "recurse_dict",
  "recurse_list",
  "recurse_array",
  "recurse_str",
  "extend",
]);
const dictOptions = fc.subarray([
  "replace",
  "no_replace",
  "overwrite",
  "allow_delete",
  "recurse_list",
  "recurse_array",
  "recurse_str",
]);
const strOptions = fc.subarray(["append"]);
const specArb = fc
  .tuple(listOptions, dictOptions, strOptions, fc.shuffledSubarray(["list", "dict", "str"], { minLength: 1 }))
  .map(([l, d, s, names]) => {
    const options: Record<string, string[]> = { list: l, dict: d, str: s };
    return names.map((name) => `${name}(${options[name]!.join(",")})`).join("+");
  });

const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("list"), tie("dict")),
  leaf: fc.oneof(
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom("", "a", "bc", "__proto__", "constructor"),
    fc.boolean(),
    fc.constant(null),
    fc.double({ noNaN: true }),
  ),
  list: fc.array(tie("tree"), { maxLength: 4 }),
  dict: fc.dictionary(
    fc.constantFrom("a", "b", "0", "__proto__", "constructor", "prototype", "merge_how"),
    tie("tree"),
    {
      maxKeys: 4,
    },
  ),
}));

/** Every scalar, key and character of a value (a merged string may be a concatenation or a character). */
function atoms(value: unknown, into: Set<unknown> = new Set()): Set<unknown> {
  if (Array.isArray(value)) for (const item of value) atoms(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      into.add(key);
      for (const ch of key) into.add(ch);
      atoms((value as Record<string, unknown>)[key], into);
    }
  } else {
    into.add(value);
    if (typeof value === "string") for (const ch of value) into.add(ch);
  }
  return into;
}

function leaves(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) leaves(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      out.push(key);
      leaves((value as Record<string, unknown>)[key], out);
    }
  } else out.push(value);
  return out;
}

describe("properties of every spec of list, dict and str", () => {
  const RUNS = 3000;

  it("never change inputs, fail only with MergeError, and build results from input values only", () => {
    fc.assert(
      fc.property(specArb, tree, tree, (spec, base, incoming) => {
        const before = JSON.stringify([base, incoming]);
        const allowed = atoms(incoming, atoms(base));
        let result: unknown;
        try {
          result = registry.resolve(spec).merge(base, incoming);
        } catch (error) {
          if (!isMergeError(error)) throw error;
          expect(error.code).toMatch(/^[A-Z_]+$/);
          return;
        } finally {
          expect(JSON.stringify([base, incoming])).toBe(before);
          expectPristine();
        }
        for (const leaf of leaves(result)) {
          if (typeof leaf === "string" && !allowed.has(leaf)) {
            // str(append) concatenates: every character still comes from the inputs.
            for (const ch of leaf) expect(allowed.has(ch)).toBe(true);
          } else expect(allowed.has(leaf)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    tally("property", RUNS);
  });

  it("keeps a mapping unchanged when {} is merged into it, and gives a copy of a mapping merged into {}", () => {
    const dict = fc.dictionary(fc.constantFrom("a", "b", "__proto__", "constructor"), tree, { maxKeys: 4 });
    fc.assert(
      fc.property(specArb, dict, (spec, value) => {
        const merger = registry.resolve(spec);
        if (merger.handlerFor("dict") === undefined) {
          // No dict merger: the base is returned as it is.
          expect(merger.merge(value, {})).toBe(value);
          return;
        }
        expect(merger.merge(value, {})).toEqual(value);
        expect(merger.merge({}, value)).toEqual(value);
      }),
      { numRuns: RUNS },
    );
    tally("property", RUNS);
  });

  it("merges whole cloud-config parts in both modes without throwing, and reports only coded errors", () => {
    const runs = 500;
    const part = fc.tuple(
      fc.dictionary(fc.constantFrom("a", "b", "__proto__", "runcmd"), tree, { maxKeys: 3 }),
      fc.option(specArb),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), fc.constantFrom(...MODES), (items, mode) => {
        const parts = items.map(([data, spec]) => ({
          data: spec === null ? data : { ...data, merge_how: spec },
        }));
        const before = JSON.stringify(parts);
        const result = mergeCloudConfig(parts, { mode });
        expect(JSON.stringify(parts)).toBe(before);
        for (const error of result.errors) expect(isMergeError(error)).toBe(true);
        expect(result.parts.length).toBe(parts.length);
        expectPristine();
      }),
      { numRuns: runs },
    );
    tally("property", runs);
  });

  it("reports an unknown mode with a coded error", () => {
    expect(failure(() => mergeCloudConfig([], { mode: "__proto__" as "stack" })).code).toBe(
      "CLOUD_CONFIG_MODE",
    );
    tally("pollution", 1);
  });
});
