import { readFileSync } from "node:fs";
import { isMergeError } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { applyJsonPatchPart } from "../src/index.js";
import { encodeTyped, type Typed } from "./oracle/typed.js";

// Cases made by test/oracle/jsonpatch-generate.mjs: #cloud-config-jsonp parts applied by the real cloud-init handler
// with Debian's python3-jsonpatch and python3-json-pointer. `expected` is the typed result, or the exception that
// made cloud-init ignore the part.
interface PatchCase {
  readonly doc: string;
  readonly patch: string;
  readonly expected: { value?: Typed; error?: string };
}
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/jsonpatch-oracle.json", import.meta.url), "utf8"),
) as { jsonpatch: string; jsonpointer: string; cases: PatchCase[] };

describe(`agreement with Python jsonpatch ${fixture.jsonpatch} / jsonpointer ${fixture.jsonpointer}`, () => {
  it("applies every patch the library applies, with the same result, and refuses the others with JSON_PATCH", () => {
    const problems: string[] = [];
    let applied = 0;
    for (const c of fixture.cases) {
      const doc = loadYaml(c.doc, { flavor: "pyyaml", values: "exact" });
      const before = JSON.stringify(encodeTyped(doc));
      let got: Typed | undefined;
      let code: string | undefined;
      try {
        got = encodeTyped(applyJsonPatchPart(doc, c.patch, { values: "exact" }));
      } catch (error) {
        if (!isMergeError(error)) throw error;
        code = error.code;
      }
      const where = `${JSON.stringify(c.patch)} on ${JSON.stringify(c.doc)}`;
      if (JSON.stringify(encodeTyped(doc)) !== before) problems.push(`changed its input: ${where}`);
      if (c.expected.error !== undefined) {
        if (code !== "JSON_PATCH")
          problems.push(`${code ?? "applied"} where Python raised ${c.expected.error}: ${where}`);
        continue;
      }
      applied++;
      if (JSON.stringify(got) !== JSON.stringify(c.expected.value)) {
        problems.push(
          `${code ?? JSON.stringify(got)} where Python gave ${JSON.stringify(c.expected.value)}: ${where}`,
        );
      }
    }
    expect(problems).toEqual([]);
    expect(applied).toBeGreaterThan(300);
    expect(fixture.cases.length).toBeGreaterThan(2000);
  });
});
