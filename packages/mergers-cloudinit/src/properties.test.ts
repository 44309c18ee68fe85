import { isMergeError } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeCloudConfig } from "./parts.js";
import { createCloudInitRegistry } from "./plugins.js";

const registry = createCloudInitRegistry();

const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("list"), tie("dict")),
  leaf: fc.oneof(
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom("", "a", "bc", "__proto__"),
    fc.boolean(),
    fc.constant(null),
  ),
  list: fc.array(tie("tree"), { maxLength: 4 }),
  dict: fc.dictionary(
    fc.constantFrom("a", "b", "c", "0", "__proto__", "constructor", "merge_how"),
    tie("tree"),
    {
      maxKeys: 4,
    },
  ),
}));

const listOptions = fc.subarray([
  "append",
  "prepend",
  "replace",
  "no_replace",
  "recurse_dict",
  "recurse_list",
  "recurse_str",
]);
const dictOptions = fc.subarray(["replace", "no_replace", "allow_delete", "recurse_list", "recurse_str"]);
const strOptions = fc.subarray(["append"]);
const spec = fc
  .tuple(
    listOptions,
    dictOptions,
    strOptions,
    fc.subarray(["list", "dict", "str"], { minLength: 1 }),
    fc.boolean(),
  )
  .map(([l, d, s, names, reverse]) => {
    const options: Record<string, string[]> = { list: l, dict: d, str: s };
    const ordered = reverse ? [...names].reverse() : names;
    return ordered.map((name) => `${name}(${options[name]!.join(",")})`).join("+");
  });

/** Every scalar, mapping key and character found in a value. */
function atoms(value: unknown, into: Set<unknown>): Set<unknown> {
  if (Array.isArray(value)) for (const item of value) atoms(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) {
      into.add(key);
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
    for (const key of Object.keys(value)) leaves((value as Record<string, unknown>)[key], out);
  } else out.push(value);
  return out;
}

describe("properties of the cloud-init mergers", () => {
  it("never change their inputs and fail only with MergeError", () => {
    fc.assert(
      fc.property(spec, tree, tree, (text, base, incoming) => {
        const before = JSON.stringify([base, incoming]);
        try {
          registry.resolve(text).merge(base, incoming);
        } catch (error) {
          expect(isMergeError(error)).toBe(true);
        }
        expect(JSON.stringify([base, incoming])).toBe(before);
        expect(({} as Record<string, unknown>).a).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it("make results only of values found in the inputs", () => {
    fc.assert(
      fc.property(spec, tree, tree, (text, base, incoming) => {
        let result: unknown;
        try {
          result = registry.resolve(text).merge(base, incoming);
        } catch {
          return;
        }
        const known = atoms(incoming, atoms(base, new Set()));
        // str(append) makes new strings by concatenation; everything else must come from the inputs.
        const concatenates = /str\([^)]*append/.test(text);
        for (const leaf of leaves(result)) {
          if (concatenates && typeof leaf === "string") continue;
          expect(known.has(leaf)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("give the new mapping when merging into {} and keep the old one when merging {} in", () => {
    fc.assert(
      fc.property(
        spec.filter((text) => text.includes("dict(")),
        fc.dictionary(fc.string(), tree),
        (text, doc) => {
          const merger = registry.resolve(text);
          expect(merger.merge({}, doc)).toEqual(doc);
          expect(merger.merge(doc, {})).toEqual(doc);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("mergeCloudConfig never throws for any sequence of documents and leaves them unchanged", () => {
    fc.assert(
      fc.property(
        fc.array(tree, { maxLength: 4 }),
        fc.constantFrom("current", "stack" as const),
        (docs, mode) => {
          const before = JSON.stringify(docs);
          const result = mergeCloudConfig(
            docs.map((data) => ({ data })),
            { mode: mode as "current" | "stack" },
          );
          expect(JSON.stringify(docs)).toBe(before);
          expect(result.merged.length + result.errors.length).toBe(docs.length);
          if (docs.length > 0) expect(typeof result.value).toBe("object");
        },
      ),
      { numRuns: 300 },
    );
  });
});
