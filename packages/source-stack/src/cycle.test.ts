import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { findCycle } from "./cycle.js";

describe("findCycle", () => {
  it("names the key path to a container that holds itself, through mappings and lists", () => {
    const inner = new PyDict<unknown>([["name", "x"]]);
    const list: unknown[] = ["a", inner];
    const root = new PyDict<unknown>([
      ["first", 1],
      [8080, new PyDict([["ok", [1, 2]]])],
      ["deep", new PyDict([["items", list]])],
    ]);
    expect(findCycle(root)).toBeUndefined();
    inner.set("back", root.get("deep"));
    expect(findCycle(root)).toEqual(["deep", "items", 1, "back"]);
    const self: unknown[] = [];
    self.push(0, self);
    expect(findCycle(self)).toEqual([1]);
  });

  it("walks plain objects too, and does not take a shared subtree for a cycle", () => {
    const shared = { port: 22 };
    const tree: Record<string, unknown> = { a: shared, b: [shared, { c: shared }] };
    expect(findCycle(tree)).toBeUndefined();
    (shared as Record<string, unknown>).up = tree;
    expect(findCycle(tree)).toEqual(["a", "up"]);
    expect(findCycle("text")).toBeUndefined();
    expect(findCycle(new Date(0))).toBeUndefined();
  });
});
