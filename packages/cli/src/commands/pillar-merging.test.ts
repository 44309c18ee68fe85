import { PyDict, toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import type { MasterConfig } from "./master-config.js";
import { pillarMerging } from "./pillar-merging.js";

const dict = (entries: Record<string, unknown>) => new PyDict(Object.entries(entries));

describe("pillarMerging", () => {
  it("leaves the external pillar's result untouched with the overwrite strategy and merged lists", () => {
    const config = {
      file: "master.yml",
      document: { positionOf: () => undefined },
      value: { pillar_source_merging_strategy: "overwrite", pillar_merge_lists: true },
    } as unknown as MasterConfig;
    const { merge } = pillarMerging(config, () => {});
    const list = [1, 2];
    const inner = dict({ l: list, m: dict({ x: 1 }) });
    const ext = dict({ a: inner, b: 3 });
    const merged = merge(dict({ a: dict({ l: [1], k: 0 }), c: 4 }), ext);
    expect(toPlain(merged)).toEqual({ a: { l: [1, 2], m: { x: 1 } }, c: 4, b: 3 });
    expect(ext.get("a")).toBe(inner);
    expect(inner.get("l")).toBe(list);
    expect(list).toEqual([1, 2]);
  });
});
