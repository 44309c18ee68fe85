import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMergeError } from "../errors.js";
import { DEFAULT_MAX_DEPTH } from "../engine.js";
import { type FrozenText, formatJson } from "./json.js";
import { PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

// formatJson's `frozenTexts` writes a frozen value met again from the text it wrote the first time. The output must
// be exactly what writing it afresh gives, and only values that cannot change may be kept.

/** Freezes a value all the way down (what a loader sharing its parsed files does). */
function freezeDeep(value: unknown): unknown {
  if (value instanceof PyDict) {
    for (const child of value.values()) freezeDeep(child);
    value.freeze();
  } else if (Array.isArray(value)) {
    for (const item of value) freezeDeep(item);
    Object.freeze(value);
  }
  return value;
}

const scalar = fc.oneof(
  fc.integer(),
  fc.double().map((d) => new PyFloat(d)),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(new Uint8Array([1, 2])),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", maxDepth: 4 }, scalar, tie("dict"), tie("list")),
  dict: fc
    .array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie("tree")), { maxLength: 4 })
    .map((entries) => new PyDict(entries as [string, unknown][])),
  list: fc.array(tie("tree"), { maxLength: 4 }),
}));
// Values built from parts that are frozen or not, a part appearing more than once.
const built = fc
  .tuple(
    fc.array(fc.tuple(tree, fc.boolean()), { minLength: 1, maxLength: 4 }),
    fc.array(fc.nat(), { maxLength: 8 }),
  )
  .map(([parts, picks]) => {
    const made = parts.map(([part, frozen]) => (frozen ? freezeDeep(part) : part));
    return new PyDict(picks.map((pick, i) => [`k${i}`, made[pick % made.length]] as [string, unknown]));
  });

describe("formatJson with frozenTexts", () => {
  it("writes what it writes without them, however often a frozen part comes again", () => {
    fc.assert(
      fc.property(fc.array(built, { minLength: 1, maxLength: 4 }), (values) => {
        const frozenTexts = new WeakMap<object, FrozenText>();
        for (const value of values) {
          expect(formatJson(value, { indent: 0, frozenTexts })).toBe(formatJson(value, { indent: 0 }));
        }
      }),
      { numRuns: 400, seed: 1203 },
    );
  });

  it("keeps the text of a value frozen all the way down, and of nothing that can change", () => {
    const frozenTexts = new WeakMap<object, FrozenText>();
    const kept = freezeDeep(new PyDict([["a", [1, new PyDict([["b", 2]])]]])) as PyDict;
    const binary = freezeDeep(new PyDict([["data", new Uint8Array([1])]])) as PyDict;
    const open = new PyDict([["x", 1]]);
    const holder = freezeDeep(new PyDict([["inner", [1]]])) as PyDict;
    const withOpen = Object.freeze([open]);
    formatJson(
      new PyDict<unknown>([
        ["kept", kept],
        ["binary", binary],
        ["open", withOpen],
        ["holder", holder],
      ]),
      {
        indent: 0,
        frozenTexts,
      },
    );
    expect(frozenTexts.get(kept)).toEqual({ text: '{"a": [1, {"b": 2}]}', height: 2 });
    expect(frozenTexts.has(holder.get("inner") as object)).toBe(true);
    // Binary data can change in place, and so can a mapping that is not frozen, whatever holds it.
    expect(frozenTexts.has(binary)).toBe(false);
    expect(frozenTexts.has(withOpen)).toBe(false);
    open.set("x", 2);
    expect(formatJson(withOpen, { indent: 0, frozenTexts })).toBe('[{"x": 2}]');
  });

  it("keeps nothing when the output is indented (the text depends on the depth there)", () => {
    const frozenTexts = new WeakMap<object, FrozenText>();
    const kept = freezeDeep(new PyDict([["a", 1]])) as PyDict;
    expect(formatJson([kept], { indent: 2, frozenTexts })).toBe('[\n  {\n    "a": 1\n  }\n]');
    expect(frozenTexts.has(kept)).toBe(false);
  });

  it("still refuses a value nesting past the limit when a kept text is met deeper than before", () => {
    const frozenTexts = new WeakMap<object, FrozenText>();
    let inner: unknown = 1;
    for (let i = 0; i < 10; i++) inner = Object.freeze([inner]);
    formatJson(inner, { indent: 0, frozenTexts });
    expect(frozenTexts.get(inner as object)?.height).toBe(9);
    let outer: unknown = inner;
    for (let i = 0; i < DEFAULT_MAX_DEPTH - 5; i++) outer = [outer];
    const refused = (() => {
      try {
        formatJson(outer, { indent: 0, frozenTexts });
      } catch (error) {
        return isMergeError(error) ? error.code : "other";
      }
      return "written";
    })();
    expect(refused).toBe("DEPTH_LIMIT");
    // Met within the limit again, the kept text is used as before.
    expect(formatJson([inner], { indent: 0, frozenTexts })).toBe(`[${"[".repeat(10)}1${"]".repeat(10)}]`);
  });
});
