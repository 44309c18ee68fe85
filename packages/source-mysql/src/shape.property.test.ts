import { isMergeError, PyDict } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyOf } from "./keys.js";
import { createShaper, type Row } from "./shape.js";

/**
 * A line-by-line model of Salt's `SqlBaseExtPillar` (enter_root / process_fields / process_results), with Python's
 * data model spelled out: dicts are Maps keyed by `keyOf` (typed keys: `1` and `"1"` apart), `listify` scans plain
 * arrays (the quadratic original),
 * and any Python exception becomes the string "crash". The shaper must agree with it on every generated input.
 */
class SaltModel {
  result = new Map<unknown, unknown>();
  focus = this.result;
  names: string[] = [];
  n = 0;
  depth = 0;
  asList = false;
  withLists: number[] = [];
  ignoreNull = false;

  enterRoot(root: string | undefined) {
    // (Python truthiness: None and "" select the top level)
    if (root) {
      this.focus = new Map();
      this.result.set(root, this.focus);
    } else {
      this.focus = this.result;
    }
  }

  processFields(names: string[], depth: number) {
    this.names = names;
    this.n = names.length;
    this.depth = depth === 0 || depth >= this.n ? this.n - 1 : depth;
  }

  processResults(rows: Row[]) {
    const listify: [unknown, unknown[]][] = [];
    const note = (crd: unknown, key: unknown) => {
      let entry = listify.find(([d]) => d === crd);
      if (!entry) {
        entry = [crd, []];
        listify.push(entry);
      }
      if (!entry[1].includes(key)) entry[1].push(key);
    };
    const py = (i: number) => (i < 0 ? this.n + i : i);
    for (const ret of rows) {
      let crd = this.focus as Map<unknown, unknown>;
      for (let i = 0; i < this.depth - 1; i++) {
        const k = keyOf(ret[i]);
        if (this.withLists.includes(i + 1)) note(crd, k);
        if (!crd.has(k)) {
          const next = new Map();
          crd.set(k, next);
          crd = next;
        } else {
          const existing = crd.get(k);
          if (Array.isArray(existing)) {
            const temp = new Map();
            existing.push(temp);
            crd = temp;
          } else if (!(existing instanceof Map)) {
            const temp = new Map();
            crd.set(k, this.asList ? [existing, temp] : temp);
            crd = temp;
          } else {
            crd = existing as Map<unknown, unknown>;
          }
        }
      }
      if (this.depth === this.n - 1) {
        const nk = this.n - 2;
        const k = keyOf(ret[py(nk)]);
        const v = ret[this.n - 1] ?? null;
        if ((this.asList && crd.has(k)) || this.withLists.includes(nk + 1)) {
          if (crd.has(k)) {
            if (!Array.isArray(crd.get(k))) crd.set(k, [crd.get(k)]);
          } else {
            crd.set(k, []);
          }
          (crd.get(k) as unknown[]).push(v);
        } else if (!this.ignoreNull || v !== null) {
          crd.set(k, v);
        }
      } else {
        const k = keyOf(ret[this.depth - 1]);
        if (!crd.has(k)) crd.set(k, new Map());
        if (this.withLists.includes(this.depth)) note(crd, k);
        const target = crd.get(k);
        for (let i = this.depth; i < this.n; i++) {
          const nk = this.names[i]!;
          const v = ret[i] ?? null;
          if (this.withLists.includes(i + 1)) {
            if (!(target instanceof Map)) return "crash"; // listify of a non-dict fails at the end
            note(target, nk);
          }
          if (this.asList) {
            let contains: boolean;
            if (target instanceof Map) contains = target.has(nk);
            else if (typeof target === "string") contains = target.includes(nk);
            else if (Array.isArray(target)) contains = target.includes(nk);
            else return "crash";
            if (contains) {
              if (!(target instanceof Map)) return "crash";
              const current = target.get(nk);
              if (Array.isArray(current)) current.push(v);
              else target.set(nk, [current, v]);
              continue;
            }
          }
          if (!this.ignoreNull || v !== null) {
            if (!(target instanceof Map)) return "crash";
            target.set(nk, v);
          }
        }
      }
    }
    for (const [d, keys] of listify.reverse()) {
      const dict = d as Map<unknown, unknown>;
      for (const k of keys) {
        if (!dict.has(k)) return "crash";
        const v = dict.get(k);
        if (v instanceof Map) dict.set(k, [...v.values()]);
        else if (Array.isArray(v)) dict.set(k, [v]);
      }
    }
    return "ok";
  }
}

/** A value as text that keeps key types and key order apart (`{n1: ...}` is not `{s1: ...}`). */
function typed(value: unknown): string {
  const key = (k: unknown) => (typeof k === "string" ? `s${JSON.stringify(k)}` : `${typeof k}:${String(k)}`);
  if (value instanceof Map || value instanceof PyDict) {
    return `{${[...value.entries()].map(([k, v]) => `${key(k)}=${typed(v)}`).join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(typed).join(",")}]`;
  return key(value);
}

interface Query {
  root: string | undefined;
  names: string[];
  rows: Row[];
  depth: number;
  asList: boolean;
  withLists: number[];
  ignoreNull: boolean;
}

// Few distinct values so that collisions, shared prefixes and NULLs are common.
// Integer-like keys ("10" before "2" in object order), inherited names and __proto__ are in the mix on purpose.
const cell = fc.oneof(
  fc.constantFrom("a", "b", "1", "2", "10", "01"),
  fc.constantFrom(1, 2, 10),
  fc.constant(null),
  fc.constantFrom("__proto__", "constructor", "toString"),
);
const query: fc.Arbitrary<Query> = fc.integer({ min: 1, max: 5 }).chain((width) =>
  fc.record({
    root: fc.constantFrom(undefined, undefined, "", "r", "a", "2", "__proto__"),
    names: fc.array(fc.constantFrom("x", "y", "a", "1", "__proto__", "valueOf"), {
      minLength: width,
      maxLength: width,
    }),
    rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 6 }),
    depth: fc.integer({ min: 0, max: 6 }),
    asList: fc.boolean(),
    withLists: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
    ignoreNull: fc.boolean(),
  }),
);

describe("shaper against a model of Salt's algorithm", () => {
  it("gives the same data, or fails where Salt would raise, for random queries", () => {
    fc.assert(
      fc.property(fc.array(query, { minLength: 1, maxLength: 4 }), (queries) => {
        const model = new SaltModel();
        let expected: unknown = "ok";
        for (const q of queries) {
          model.processFields(q.names, q.depth);
          model.enterRoot(q.root);
          model.asList = q.asList;
          model.withLists = q.withLists;
          model.ignoreNull = q.ignoreNull;
          if (model.processResults(q.rows) === "crash") {
            expected = "crash";
            break;
          }
        }
        const snapshot = JSON.stringify(queries);
        const shaper = createShaper();
        let actual: unknown = "ok";
        try {
          for (const q of queries) {
            shaper.enterRoot(q.root);
            const sink = shaper.begin(q.names, q);
            for (const row of q.rows) sink.push(row);
            sink.end();
          }
        } catch (error) {
          if (!isMergeError(error)) throw error;
          expect(error.code).toBe("SQL_SHAPE");
          actual = "crash";
        }
        expect(actual).toBe(expected);
        if (expected === "ok") {
          expect(typed(shaper.result())).toBe(typed(model.result));
        }
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(JSON.stringify(queries)).toBe(snapshot);
      }),
      { numRuns: 3000 },
    );
  });
});
