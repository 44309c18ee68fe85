import { describe, expect, it } from "vitest";
import {
  checkTree,
  cloneTree,
  createRegistry,
  isMergeError,
  mergeAll,
  parseSpec,
  parseSpecList,
} from "../../src/index.js";
import { concatList, deepDict, replaceScalar } from "../../src/test-plugins.js";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { figure, reportCounts, tally } from "../../../../test-kit/tally.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/core", import.meta.url);

const registry = createRegistry().use(deepDict(), concatList(), replaceScalar());
const SPEC = "deep()+concat()+scalar()";

function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { k: value };
  return value;
}

describe("prototype pollution through the engine", () => {
  it("merges every hostile JSON document as plain data, both orders, every scope", () => {
    const texts = hostileJsonTexts();
    let cases = 0;
    for (const text of texts) {
      for (const scope of ["self", "following"] as const) {
        const docs = [JSON.parse(text), JSON.parse(text), JSON.parse('{"keep": "last"}')];
        const before = JSON.stringify(docs);
        const merged = mergeAll(docs, { registry, spec: SPEC, scope });
        expect(JSON.stringify(docs)).toBe(before);
        expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
        expect(ownHostileKeys(merged).length).toBeGreaterThanOrEqual(ownHostileKeys(docs[0]).length);
        expectPristine();
        cases++;
      }
    }
    tally("pollution", cases);
  });

  it("copies hostile keys as data with cloneTree and checks them with checkTree", () => {
    const texts = hostileJsonTexts();
    for (const text of texts) {
      const value = JSON.parse(text);
      checkTree(value);
      const copy = cloneTree(value);
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
      expect(ownHostileKeys(copy)).toEqual(ownHostileKeys(value));
      expectPristine();
    }
    tally("pollution", texts.length);
  });

  it("treats inherited names in specs as unknown mergers and options, not as Object.prototype members", () => {
    const names = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
    for (const name of names) {
      expect(failure(() => registry.resolve(`${name}()`)).code).toBe("UNKNOWN_MERGER");
      expect(failure(() => registry.resolve(`deep(${name})`)).code).toBe("UNKNOWN_OPTION");
      expect(() => registry.resolve(`deep(${name})`, { lenient: true })).not.toThrow();
      expect(failure(() => registry.resolve(parseSpecList([[name]]))).code).toBe("UNKNOWN_MERGER");
      expect(failure(() => registry.resolve(parseSpecList([{ name, settings: [] }]))).code).toBe(
        "UNKNOWN_MERGER",
      );
      expectPristine();
    }
    tally("pollution", names.length * 5);
  });

  it("parses spec strings full of hostile and odd text into coded errors or specs, never a crash", () => {
    const specs = [
      "__proto__(polluted)",
      "deep(__proto__)+concat(constructor)",
      "deep((",
      "deep)",
      "+".repeat(10_000),
      `deep(${"a,".repeat(10_000)})`,
      "\u0000deep()",
      "deep(\u202e)",
      "x".repeat(100_000),
    ];
    for (const spec of specs) {
      try {
        parseSpec(spec);
      } catch (error) {
        expect(isMergeError(error)).toBe(true);
      }
      expectPristine();
    }
    tally("pollution", specs.length);
  });
});

describe("size and shape", () => {
  it("turns 10^5 levels of nesting into DEPTH_LIMIT in the engine and in checkTree", () => {
    const deep = nested(100_000, 1);
    const merger = registry.resolve(SPEC);
    expect(failure(() => merger.merge(deep, deep)).code).toBe("DEPTH_LIMIT");
    expect(failure(() => checkTree(deep)).code).toBe("DEPTH_LIMIT");
    let list: unknown = 1;
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(failure(() => checkTree(list)).code).toBe("DEPTH_LIMIT");
    tally("size", 3);
  });

  it("merges a mapping of 10^6 keys and a list of 10^6 items", () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) many[`k${i}`] = i;
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    const merger = registry.resolve(SPEC);
    const merged = merger.merge({ many, items }, { many: { extra: 1 }, items: [-1] }) as {
      many: Record<string, number>;
      items: number[];
    };
    expect(Object.keys(merged.many).length).toBe(1_000_001);
    expect(merged.items.length).toBe(1_000_001);
    expect(Object.keys(many).length).toBe(1_000_000);
    expect(failure(() => checkTree({ many, items }, { maxNodes: 500_000 })).code).toBe("SIZE_LIMIT");
    tally("size", 3);
  });

  it("passes a 100 MB string through unchanged", () => {
    const big = "x".repeat(100 * 1024 * 1024);
    const merged = registry.resolve(SPEC).merge({ a: "small" }, { a: big }) as { a: string };
    expect(merged.a.length).toBe(big.length);
    tally("size", 1);
  });

  it("reports cycles as CYCLIC_INPUT, through dicts, lists and self-reference", () => {
    const selfRef: Record<string, unknown> = {};
    selfRef.me = selfRef;
    const viaChild: Record<string, unknown> = { a: { b: {} } };
    ((viaChild.a as Record<string, unknown>).b as Record<string, unknown>).c = viaChild;
    const viaList: Record<string, unknown> = { list: [] };
    (viaList.list as unknown[]).push({ back: viaList });
    const merger = registry.resolve(SPEC);
    for (const cyclic of [selfRef, viaChild]) {
      expect(failure(() => checkTree(cyclic)).code).toBe("CYCLIC_INPUT");
      expect(failure(() => merger.merge(cyclic, cyclic)).code).toBe("CYCLIC_INPUT");
      expect(failure(() => mergeAll([cyclic, cyclic], { registry, spec: SPEC })).code).toBe("CYCLIC_INPUT");
    }
    // A merger that does not descend into a list (concat) shares it untouched, so only checkTree sees this cycle.
    expect(failure(() => checkTree(viaList)).code).toBe("CYCLIC_INPUT");
    tally("size", 7);
  });

  it("sees a shared-subtree bomb (what YAML aliases build) at the node budget", () => {
    let bomb: unknown = Array.from({ length: 10 }, () => "lol");
    for (let i = 0; i < 12; i++) bomb = Array.from({ length: 10 }, () => bomb);
    const started = performance.now();
    expect(failure(() => checkTree(bomb)).code).toBe("SIZE_LIMIT");
    figure("core: 10^13-node alias bomb refused by checkTree (ms)", Math.round(performance.now() - started));
    tally("size", 1);
  });
});
