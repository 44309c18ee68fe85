import { createRegistry, mergeAll, type PathKey } from "@merge/core";
import { cloudInitPlugins } from "@merge/mergers-cloudinit";
import { describe, expect, it } from "vitest";
import { explainInOrder, explainResult } from "./attribute.js";
import type { ExplainDocument, ExplainEntry } from "./model.js";
import { createTraceRecorder } from "./recorder.js";

/** A small seeded generator, so every run builds the same documents. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/**
 * Two configurations sharing half their top-level keys: nested mappings, lists of scalars (with repeats) and of
 * mappings, int keys, floats and strings, so that values are added, kept, concatenated, appended and lost.
 */
function configurations(keys: number): [Record<string, unknown>, Record<string, unknown>] {
  const pick = seeded(7);
  const word = () => ["red", "green", "blue", "web", "db"][Math.floor(pick() * 5)]!;
  const app = () => ({
    enabled: pick() < 0.5,
    replicas: Math.floor(pick() * 5),
    ratio: Math.round(pick() * 100) / 8,
    owner: word(),
    env: { LEVEL: word(), RETRIES: Math.floor(pick() * 9) },
    tags: [word(), word(), word()],
    routes: [
      { name: `r${Math.floor(pick() * 3)}`, weight: pick() < 0.5 ? 1 : 2 },
      { name: "main", path: `/${word()}` },
    ],
  });
  const a: Record<string, unknown> = {};
  const b: Record<string, unknown> = {};
  for (let i = 0; i < keys; i++) a[`app_${i}`] = app();
  for (let i = keys / 2; i < keys * 1.5; i++) b[`app_${i}`] = app();
  return [a, b];
}

function explained(spec: string) {
  const values = configurations(40);
  const recorder = createTraceRecorder();
  const result = mergeAll(values, {
    registry: createRegistry(cloudInitPlugins()),
    spec,
    trace: recorder,
  });
  const documents: ExplainDocument[] = values.map((value, i) => ({
    name: `doc${i + 1}.yml`,
    value,
    positionOf: (path: readonly PathKey[]) => ({ line: path.length * 10 + i, column: 1 }),
  }));
  return { result, documents, events: recorder.events };
}

const SPECS = ["list(append)+dict(recurse_list,recurse_str)+str(append)", "list()+dict(replace)+str()"];

describe("explainInOrder", () => {
  it.each(SPECS)("gives the entries explainResult gives, in the same order (%s)", (spec) => {
    const { result, documents, events } = explained(spec);
    const whole = explainResult(result, documents, events);
    const cursor = explainInOrder(result, documents, events);
    const read: ExplainEntry[] = [];
    for (let entry = cursor.next(); entry !== undefined; entry = cursor.next()) read.push(entry);
    const { root, ...rest } = cursor.finish();
    expect([root, ...read]).toEqual(whole.entries);
    expect(rest).toEqual({ documents: whole.documents, removed: whole.removed });
  });

  it("explains a scalar result with its root entry only", () => {
    const cursor = explainInOrder("x", [{ name: "a", value: "x" }], []);
    expect(cursor.next()).toBeUndefined();
    expect(cursor.finish().root).toMatchObject({ path: [], kind: "value", value: "x" });
  });

  it("refuses to finish before the last entry", () => {
    const { result, documents, events } = explained(SPECS[0]!);
    const cursor = explainInOrder(result, documents, events);
    cursor.next();
    expect(() => cursor.finish()).toThrow(/before the last entry/);
  });
});

describe("explainResult on a large merge", () => {
  it("shares one decision between the values one event decided", () => {
    const { result, documents, events } = explained(SPECS[1]!);
    const { entries } = explainResult(result, documents, events);
    // app_30 is in both documents: dict(replace) replaced it whole, and each value inside inherits that decision.
    const inside = entries.filter((entry) => entry.path[0] === "app_30" && entry.path.length > 1);
    expect(inside.length).toBeGreaterThan(10);
    const decisions = new Set(inside.map((entry) => entry.decision));
    expect(decisions.size).toBe(1);
    expect([...decisions][0]).toMatchObject({ action: "replaced", inherited: true });
  });
});

describe("explainResult with many inputs", () => {
  it("lists every contributor in order, past the thirtieth input", () => {
    const values = Array.from({ length: 35 }, (_, i) => ({ [`k${i}`]: i, shared: { [`s${i}`]: i } }));
    const recorder = createTraceRecorder();
    const result = mergeAll(values, {
      registry: createRegistry(cloudInitPlugins()),
      spec: "list()+dict(recurse_list)+str()",
      trace: recorder,
    });
    const documents = values.map((value, i) => ({ name: `d${i}`, value }));
    const { entries, documents: inputs } = explainResult(result, documents, recorder.events);
    const all = Array.from({ length: 35 }, (_, i) => i);
    expect(entries.find((entry) => entry.path.length === 0)?.contributors).toEqual(all);
    expect(entries.find((entry) => entry.path.join() === "shared")?.contributors).toEqual(all);
    expect(inputs.every((input) => input.contributed)).toBe(true);
  });
});
