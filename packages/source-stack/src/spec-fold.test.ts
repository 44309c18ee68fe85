import { createRegistry, isMergeError } from "@merge/core";
import { stackMerger } from "@merge/strategies-stack";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadStack } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";

// With a registry (as `merge stack --explain` and `--spec` run it) the loader folds through the resolved stack
// merger instead of its own accumulator. Both must give the same stack: Salt's, where what a template put in `stack`
// (a mapping under two keys, a value of the stack under a new key) is changed in place by later merges and every
// list merge makes a new list.

function run(files: Record<string, string>, withRegistry: boolean) {
  try {
    const { data } = loadStack({
      config: "stack.cfg",
      cwd: "/srv",
      files: createMemoryFileSystem(files, "/srv"),
      minionId: "web1",
      ...(withRegistry ? { spec: "stack()", registry: createRegistry([stackMerger()]) } : {}),
    });
    return { data: JSON.stringify(data) };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { code: error.code };
  }
}

const key = fc.constantFrom("a", "b", "c");
const scalar = fc.constantFrom("1", "x", "null", "true");
const { node } = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", maxDepth: 3 }, scalar, tie("dict"), tie("list")),
  dict: fc
    .tuple(
      fc.option(fc.constantFrom("merge-first", "remove", "overwrite"), { nil: undefined }),
      fc.uniqueArray(fc.tuple(key, tie("node")), { selector: ([k]) => k, maxLength: 3 }),
    )
    .map(([s, entries]) => {
      const parts = entries.map(([k, v]) => `${k}: ${v}`);
      if (s !== undefined) parts.unshift(`__: ${s}`);
      return `{${parts.join(", ")}}`;
    }),
  list: fc
    .tuple(
      fc.option(fc.constantFrom("merge-first", "remove", "overwrite"), { nil: undefined }),
      fc.array(tie("node"), { maxLength: 3 }),
    )
    .map(([s, items]) => `[${[...(s === undefined ? [] : [`{__: ${s}}`]), ...items].join(", ")}]`),
}));
const doc = fc
  .uniqueArray(fc.tuple(key, node), { selector: ([k]) => k, maxLength: 3 })
  .map((entries) =>
    entries.length === 0 ? "{}\n" : `${entries.map(([k, v]) => `${k}: ${v}`).join("\n")}\n`,
  );
// What a template does to `stack` before its own document merges.
const change = fc.oneof(
  key.map((k) => `{% set t = {'q': 1} %}{% do stack.update({'${k}': t, 'm': t}) %}`),
  fc
    .tuple(key, key)
    .map(([k, j]) => `{% if '${k}' in stack %}{% do stack.update({'${j}': stack['${k}']}) %}{% endif %}`),
  key.map((k) => `{% set t = [1] %}{% do stack.update({'${k}': t, 'm': t}) %}`),
  fc.constant(""),
);

describe("the fold through a registry (--explain, --spec)", () => {
  it("gives the accumulator's stack when templates put values in `stack` and later files merge into them", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(change, doc), { minLength: 2, maxLength: 4 }), (steps) => {
        const files: Record<string, string> = { "stack.cfg": steps.map((_, i) => `f${i}.yml\n`).join("") };
        steps.forEach(([template, text], i) => {
          files[`f${i}.yml`] = `${template}\n${text}`;
        });
        expect(run(files, true)).toEqual(run(files, false));
      }),
      { numRuns: 600, seed: 1204 },
    );
  });
});
