import type { TraceEvent } from "@merge/core";
import { describe, expect, it } from "vitest";
import { cloudConfigProvenance, type PartRecord, patchValues } from "./cloud-config.js";

const part = (name: string, status: PartRecord["status"], extra: Partial<PartRecord> = {}): PartRecord => ({
  name,
  type: "text/cloud-config",
  status,
  text: "",
  ...extra,
});

describe("cloudConfigProvenance", () => {
  it("numbers events by part, skipping JSON patches and parts rejected before their merge", () => {
    const mergeFailure = new Error("merge failed");
    const parts = [
      part("a", "merged"),
      part("bad-yaml", "rejected", { error: new Error("parse") }),
      part("p", "merged", { type: "text/cloud-config-jsonp", text: '[{"op":"add","path":"/x","value":1}]' }),
      part("fails", "rejected", { error: mergeFailure }),
      part("b", "merged"),
    ];
    const calls = [{ a: 1 }, { f: 1 }, { b: 1 }];
    const failures = new Map<number, unknown>([[1, mergeFailure]]);
    const events: TraceEvent[] = [0, 1, 2].map((document) => ({
      path: ["k"],
      action: "added",
      merger: "dict()",
      document,
      detail: undefined,
    }));
    const out = cloudConfigProvenance(parts, calls, failures, events, () => undefined);
    expect(out.events.map((event) => event.document)).toEqual([0, 3, 4]);
    expect(out.documents.map((doc) => doc.value)).toEqual([
      { a: 1 },
      undefined,
      { x: 1 },
      undefined,
      { b: 1 },
    ]);
    expect(out.documents[1]!.note).toBe("rejected: error");
    expect(out.documents[2]!.note).toBe("JSON patch");
  });
});

describe("patchValues", () => {
  it("places the values of add and replace operations where they write", () => {
    expect(
      patchValues(
        '#cloud-config-jsonp\n[{"op":"add","path":"/packages/-","value":"curl"},' +
          '{"op":"replace","path":"/a~1b/c","value":2},{"op":"remove","path":"/z"}]',
      ),
    ).toEqual({ packages: ["curl"], "a/b": { c: 2 } });
  });

  it("gives nothing for a patch that is not JSON", () => {
    expect(patchValues("#cloud-config-jsonp\n{nope")).toBeUndefined();
  });
});
