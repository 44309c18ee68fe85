import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatCloudConfig, loadInstanceData, mergeUserData } from "../src/index.js";
import { encodeTyped, type Typed } from "./oracle/typed.js";

// User-data with `## template: jinja` parts made by test/oracle/jinja-generate.mjs, rendered and merged by the real
// cloud-init (its version is in the file) with each case's instance data.
interface JinjaCase {
  readonly raw: string;
  readonly instanceData: string | null;
  readonly expected: {
    value: Typed;
    names: string[];
    written: string;
    scripts: string[];
    warnings: string[];
  };
}
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/jinja-oracle.json", import.meta.url), "utf8"),
) as {
  cloudInit: string;
  cases: JinjaCase[];
};

/** cloud-init's warning for variables a template printed but the instance data lacks, as `file: 'a', 'b'`. */
function missingWarnings(warnings: readonly string[]): string[] {
  const out: string[] = [];
  for (const warning of warnings) {
    const match = /^Could not render jinja template variables in file '(.*)': (.*)$/.exec(warning);
    if (match !== null) out.push(`${match[1]}: ${match[2]}`);
  }
  return out;
}

describe(`## template: jinja parts rendered and merged as cloud-init ${fixture.cloudInit} does`, () => {
  it("gives cloud-init's configuration, merged parts, cloud-config.txt, scripts and missing-variable warnings", async () => {
    const problems: string[] = [];
    let rendered = 0;
    for (const [index, c] of fixture.cases.entries()) {
      const instanceData = c.instanceData === null ? undefined : loadInstanceData(c.instanceData);
      const result = await mergeUserData(c.raw, { instanceData, values: "exact" });
      const got = {
        value: encodeTyped(result.exact),
        names: result.merged,
        written: formatCloudConfig(result),
        scripts: result.templates.filter((t) => t.status === "other").map((t) => t.name),
        missing: result.templates
          .filter((t) => t.missing.length > 0)
          .map((t) => `${t.name}: ${t.missing.map((name) => `'${name}'`).join(", ")}`),
      };
      rendered += result.templates.filter((t) => t.status === "cloud-config").length;
      const expected = { ...c.expected, missing: missingWarnings(c.expected.warnings) };
      for (const key of ["value", "names", "written", "scripts", "missing"] as const) {
        if (JSON.stringify(got[key]) !== JSON.stringify(expected[key])) {
          problems.push(
            `case ${index} ${key}: expected ${JSON.stringify(expected[key])}, got ${JSON.stringify(got[key])}\n  ${JSON.stringify(c.raw)}\n  ${JSON.stringify(result.templates)}`,
          );
        }
      }
    }
    expect(fixture.cases.length).toBeGreaterThan(500);
    expect(rendered).toBeGreaterThan(300);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(problems.length).toBe(0);
  });
});
