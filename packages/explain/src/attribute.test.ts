import type { TraceEvent } from "@merge/core";
import { describe, expect, it } from "vitest";
import { explainResult } from "./attribute.js";
import type { ExplainDocument } from "./model.js";

function event(
  path: (string | number)[],
  action: TraceEvent["action"],
  document: number,
  merger = "m()",
  detail?: string,
): TraceEvent {
  return { path, action, merger, document, detail };
}

function entry(explanation: ReturnType<typeof explainResult>, path: (string | number)[]) {
  return explanation.entries.find((e) => JSON.stringify(e.path) === JSON.stringify(path));
}

describe("explainResult", () => {
  it("puts a document's detailOf in the origin of its values and of the values that lost", () => {
    const docs: ExplainDocument[] = [
      { name: "query #1", value: { role: "web", env: "dev" }, detailOf: (p) => `row for ${String(p[0])}` },
      { name: "query #2", value: { role: "db" }, detailOf: (p) => (p[0] === "role" ? "row 4" : undefined) },
    ];
    const explanation = explainResult({ role: "db", env: "dev" }, docs, []);
    expect(entry(explanation, ["role"])?.origin).toMatchObject({ name: "query #2", detail: "row 4" });
    expect(entry(explanation, ["role"])?.lost[0]?.origin).toMatchObject({
      name: "query #1",
      detail: "row for role",
    });
    expect(entry(explanation, ["env"])?.origin).toMatchObject({ name: "query #1", detail: "row for env" });
    expect(entry(explanation, [])?.origin).toBeUndefined();
  });

  it("takes a list a merger replaced with a copy of an input's whole from that input, not item by item", () => {
    // A fold that copies what it merges (Salt's pillar merge): the result's list is equal to the second input's,
    // not the same object. Its "web" is that input's, although the first input, whose list lost, had one too.
    const docs: ExplainDocument[] = [
      { name: "top", value: { roles: ["base", "web"] } },
      { name: "app", value: { roles: ["web", "db"] } },
    ];
    const explanation = explainResult({ roles: ["web", "db"] }, docs, [event(["roles"], "replaced", 1)]);
    expect(entry(explanation, ["roles"])?.origin).toMatchObject({ name: "app", path: ["roles"] });
    expect(entry(explanation, ["roles", 0])?.origin).toMatchObject({ name: "app", path: ["roles", 0] });
    expect(entry(explanation, ["roles"])?.lost).toMatchObject([{ kind: "list", origin: { name: "top" } }]);
    // A list that is not the replacing input's own (something was added after) is still matched item by item.
    const joined = explainResult({ roles: ["web", "db", "x"] }, docs, [event(["roles"], "replaced", 1)]);
    expect(entry(joined, ["roles", 0])?.origin).toMatchObject({ name: "top", path: ["roles", 1] });
  });

  it("names a value a merger made where its input had none at the value's own path", () => {
    const docs: ExplainDocument[] = [
      { name: "one", value: { a: { c: 1 } } },
      { name: "two", value: { a: { d: 2 } } },
    ];
    const explanation = explainResult({ a: { b: "computed", c: 1, d: 2 }, z: 1 }, docs, [
      event(["a", "b"], "replaced", 1),
    ]);
    // It used to be the walk's own path array, empty by the time anyone read it.
    expect(entry(explanation, ["a", "b"])?.origin).toMatchObject({ name: "two", path: ["a", "b"] });
  });

  it("lists what an input replaced itself (lostOf) before its own value, with each one's detail", () => {
    const rows: Record<string, { value: unknown; detail: string }[]> = {
      env: [
        { value: "dev", detail: "row 1" },
        { value: { a: 1 }, detail: "row 2" },
      ],
      "hosts,0": [{ value: "10.0.0.1", detail: "row 5" }],
    };
    const docs: ExplainDocument[] = [
      {
        name: "query #1",
        value: { env: "staging", hosts: ["10.0.0.3"] },
        detailOf: (p) => (p[0] === "env" ? "row 3" : "row 6"),
        lostOf: (p) => rows[p.join(",")],
      },
      { name: "query #2", value: { env: "prod" }, detailOf: () => "row 1" },
    ];
    const explanation = explainResult({ env: "prod", hosts: ["10.0.0.3"] }, docs, []);
    const env = entry(explanation, ["env"])!;
    expect(env.origin).toMatchObject({ name: "query #2", detail: "row 1" });
    expect(env.lost.map((loss) => [loss.kind, loss.value, loss.origin.name, loss.origin.detail])).toEqual([
      ["value", "dev", "query #1", "row 1"],
      ["dict", undefined, "query #1", "row 2"],
      ["value", "staging", "query #1", "row 3"],
    ]);
    // A list item has no rivals in other inputs, but the values its own input replaced there are losers.
    const host = entry(explanation, ["hosts", 0])!;
    expect(host.origin).toMatchObject({ name: "query #1", detail: "row 6" });
    expect(host.lost).toEqual([
      {
        kind: "value",
        value: "10.0.0.1",
        origin: expect.objectContaining({ path: ["hosts", 0], detail: "row 5" }),
      },
    ]);
    // The winning input's own earlier value is a loser too.
    const alone = explainResult({ env: "staging" }, [docs[0]!], []);
    expect(entry(alone, ["env"])!.lost.map((loss) => loss.origin.detail)).toEqual(["row 1", "row 2"]);
  });

  it("follows mappings in a list that hold only mappings to the input's item of the same keys", () => {
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { l: [{ x: { v: 1 } }] } },
      { name: "b.yml", value: { l: [{ y: { v: 2 } }] } },
    ];
    const result = { l: [{ y: { v: 2 } }, { x: { v: 1 } }] };
    const explanation = explainResult(result, docs, []);
    expect(entry(explanation, ["l", 0, "y", "v"])?.origin).toMatchObject({
      document: 1,
      path: ["l", 0, "y", "v"],
    });
    expect(entry(explanation, ["l", 1, "x", "v"])?.origin).toMatchObject({
      document: 0,
      path: ["l", 0, "x", "v"],
    });
  });

  it("gives appended list items each the document they came from, even when values repeat", () => {
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { l: ["x", "y"] }, positionOf: (p) => ({ line: 10 + p.length, column: 1 }) },
      { name: "b.yml", value: { l: ["x", "z"] } },
    ];
    const result = { l: ["x", "y", "x", "z"] };
    const explanation = explainResult(result, docs, [
      event(["l"], "added", 0),
      event(["l"], "appended", 1, "list(append)"),
    ]);
    expect(entry(explanation, ["l", 0])?.origin).toMatchObject({ document: 0, path: ["l", 0], line: 12 });
    expect(entry(explanation, ["l", 2])?.origin).toMatchObject({ document: 1, path: ["l", 0] });
    expect(entry(explanation, ["l", 3])?.origin).toMatchObject({ document: 1, path: ["l", 1] });
    // An item from the first document was decided when that document was merged, not by the later append.
    expect(entry(explanation, ["l", 0])?.decision).toMatchObject({
      action: "added",
      document: 0,
      inherited: true,
    });
    expect(entry(explanation, ["l", 3])?.decision).toMatchObject({
      action: "appended",
      merger: "list(append)",
    });
  });

  it("attributes a kept scalar to the document that wrote it and the decision to the later merge", () => {
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { k: "old" } },
      { name: "b.yml", value: { k: "new" } },
    ];
    const explanation = explainResult({ k: "old" }, docs, [
      event(["k"], "added", 0),
      event(["k"], "kept", 1, "dict()"),
    ]);
    const k = entry(explanation, ["k"]);
    expect(k?.origin?.name).toBe("a.yml");
    expect(k?.decision).toMatchObject({ action: "kept", merger: "dict()", name: "b.yml", inherited: false });
    expect(k?.history.map((d) => d.action)).toEqual(["added", "kept"]);
  });

  it("recognises a subtree taken whole from one document by identity", () => {
    const shared = { deep: { value: 1 } };
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { other: 1 } },
      { name: "b.yml", value: { sub: shared } },
    ];
    const explanation = explainResult({ other: 1, sub: shared }, docs, [event(["sub"], "added", 1)]);
    expect(entry(explanation, ["sub"])?.origin).toMatchObject({ document: 1, path: ["sub"] });
    expect(entry(explanation, ["sub", "deep", "value"])?.origin).toMatchObject({
      document: 1,
      path: ["sub", "deep", "value"],
    });
  });

  it("falls back to the document of the last event for a value no input holds (a concatenation)", () => {
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { s: "ab" } },
      { name: "b.yml", value: { s: "cd" } },
    ];
    const explanation = explainResult({ s: "abcd" }, docs, [
      event(["s"], "added", 0),
      event(["s"], "concatenated", 1, "str(append)"),
    ]);
    expect(entry(explanation, ["s"])).toMatchObject({
      origin: { name: "b.yml" },
      decision: { action: "concatenated", merger: "str(append)" },
    });
  });

  it("lists removals apart, since they are not in the result", () => {
    const docs: ExplainDocument[] = [
      { name: "a.yml", value: { a: 1, b: 2 } },
      { name: "b.yml", value: { a: null } },
    ];
    const explanation = explainResult({ b: 2 }, docs, [event(["a"], "removed", 1, "dict(allow_delete)")]);
    expect(explanation.removed).toEqual([
      {
        path: ["a"],
        decision: expect.objectContaining({ action: "removed", merger: "dict(allow_delete)", name: "b.yml" }),
      },
    ]);
    expect(entry(explanation, ["a"])).toBeUndefined();
  });

  it("lists parents before their children, in document order", () => {
    const docs: ExplainDocument[] = [{ name: "a.yml", value: { x: { y: [1] }, z: 2 } }];
    const explanation = explainResult({ x: { y: [1] }, z: 2 }, docs, []);
    expect(explanation.entries.map((e) => e.path.join("."))).toEqual(["", "x", "x.y", "x.y.0", "z"]);
  });
});

describe("explainResult on the exact model", () => {
  it("follows int keys apart from string keys, and whole floats as scalars", async () => {
    const { PyDict, PyFloat } = await import("@merge/core");
    const a = new PyDict<unknown>([
      [8080, "a"],
      ["8080", "s"],
      ["v", new PyFloat(1)],
    ]);
    const b = new PyDict<unknown>([
      [8080, "b"],
      ["v", new PyFloat(9)],
    ]);
    const result = new PyDict<unknown>([
      [8080, "b"],
      ["8080", "s"],
      ["v", b.get("v")],
    ]);
    const events: TraceEvent[] = [
      { path: [8080], action: "replaced", merger: "dict(replace)", document: 1, detail: undefined },
    ];
    const explanation = explainResult(
      result,
      [
        { name: "a.yml", value: a },
        { name: "b.yml", value: b },
      ],
      events,
    );
    const byPath = (path: unknown[]) =>
      explanation.entries.find((e) => e.path.length === path.length && e.path.every((k, i) => k === path[i]));
    expect(byPath([8080])?.origin?.name).toBe("b.yml");
    expect(byPath([8080])?.decision?.merger).toBe("dict(replace)");
    expect(byPath(["8080"])?.origin?.name).toBe("a.yml");
    expect(byPath(["8080"])?.decision).toBeUndefined();
    expect(byPath(["v"])?.origin?.name).toBe("b.yml");
  });
});
