import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readFileSync } from "node:fs";
import { isMergeError } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { loadInstanceData, loadSystemConfig } from "../src/index.js";
import { encodeTyped, type Typed } from "./oracle/typed.js";

// Trees made by test/oracle/confd-generate.mjs and read by the real cloud-init's util.read_conf_with_confd (its
// version is in the file). Values are typed JSON (test/oracle/typed.py): ints and floats, key types and key order
// are compared exactly.
interface Entry {
  readonly path: string;
  readonly kind: "file" | "dir" | "symlink";
  readonly content?: string;
  readonly target?: string;
}
interface ConfdCase {
  readonly file: string;
  readonly tree: readonly Entry[];
  readonly instanceData?: string;
  readonly expected: { value?: Typed; warnings?: number; crash?: string; message?: string };
}
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/confd-oracle.json", import.meta.url), "utf8"),
) as {
  cloudInit: string;
  cases: ConfdCase[];
};

/** The code we throw where cloud-init stops with each exception. */
const CRASH_CODES: Record<string, readonly string[]> = {
  // A `conf_d` that is not a string, a `merge_how` that is not iterable, a merge of a string with a list.
  TypeError: ["SYSTEM_CONFIG", "SPEC_SYNTAX", "MERGE_TYPE"],
  UnicodeDecodeError: ["YAML_ENCODING"],
  // A spec that does not parse; a `## template:` line naming another renderer.
  ValueError: ["SPEC_SYNTAX", "TEMPLATE_SYNTAX"],
  ImportError: ["UNKNOWN_MERGER"],
  TemplateSyntaxError: ["TEMPLATE_SYNTAX"],
};

const root = mkdtempSync(join(tmpdir(), "merge-confd-oracle-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function build(dir: string, tree: readonly Entry[]): void {
  mkdirSync(dir, { recursive: true });
  for (const entry of tree) {
    const path = join(dir, entry.path);
    mkdirSync(dirname(path), { recursive: true });
    if (entry.kind === "dir") mkdirSync(path, { recursive: true });
    else if (entry.kind === "symlink") symlinkSync(entry.target!, path);
    else writeFileSync(path, Buffer.from(entry.content!, "base64"));
  }
}

describe(`conf.d trees read as cloud-init ${fixture.cloudInit} reads them`, () => {
  it("gives cloud-init's configuration (types, key order) for every tree, and stops where it stops", async () => {
    const problems: string[] = [];
    let compared = 0;
    let stopped = 0;
    for (const [index, c] of fixture.cases.entries()) {
      const dir = join(root, String(index));
      build(dir, c.tree);
      const instanceData = c.instanceData === undefined ? undefined : loadInstanceData(c.instanceData);
      let got: { value?: Typed; error?: string };
      try {
        const result = await loadSystemConfig({ file: c.file, cwd: dir, instanceData });
        got = { value: encodeTyped(result.exact) };
      } catch (error) {
        if (!isMergeError(error)) throw error;
        got = { error: error.code };
      }
      compared++;
      const expected = c.expected;
      if (expected.crash !== undefined) {
        stopped++;
        const codes = CRASH_CODES[expected.crash] ?? [];
        if (got.error === undefined || !codes.includes(got.error)) {
          problems.push(
            `case ${index}: cloud-init stops (${expected.crash}: ${expected.message}), we give ${JSON.stringify(got)}`,
          );
        }
      } else if (JSON.stringify(got.value) !== JSON.stringify(expected.value)) {
        problems.push(
          `case ${index}: expected ${JSON.stringify(expected.value)}, got ${JSON.stringify(got.value ?? got.error)}\n  tree: ${JSON.stringify(c.tree.map((e) => ({ ...e, content: e.content === undefined ? undefined : Buffer.from(e.content, "base64").toString() })))}`,
        );
      }
    }
    expect(compared).toBe(fixture.cases.length);
    expect(compared).toBeGreaterThan(1000);
    expect(stopped).toBeGreaterThan(30);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(problems.length).toBe(0);
  });
});
