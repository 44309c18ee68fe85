import { describe, expect, it } from "vitest";
import { mergeCloudConfig } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

const MODES = ["current", "stack"] as const;

describe("size and shape", () => {
  it("rejects a loaded (data) part that is cyclic or nests 10^5 deep, even where the merge would not descend", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    const list: unknown[] = [];
    list.push({ items: list });
    const cases: [unknown, string][] = [
      [deep, "DEPTH_LIMIT"],
      [cyclic, "CYCLIC_INPUT"],
      [{ list }, "CYCLIC_INPUT"],
    ];
    let count = 0;
    for (const [data, code] of cases) {
      for (const mode of MODES) {
        const result = mergeCloudConfig(
          [{ data: { keep: 1 } }, { data }, { text: "#cloud-config\nafter: 2\n" }],
          {
            mode,
          },
        );
        expect(result.parts.map((p) => p.status)).toEqual(["merged", "rejected", "merged"]);
        expect(result.errors[0]?.code).toBe(code);
        expect(result.value).toEqual({ keep: 1, after: 2 });
        count++;
      }
    }
    tally("size", count);
  });
});
