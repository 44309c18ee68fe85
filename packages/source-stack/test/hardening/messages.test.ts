// Issue 17, "no raw stack traces, no secrets in messages", the stack's share: a template that makes the stack
// cyclic is a coded one-line error, and a YAML error in rendered text never quotes that text.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatMergeError, isMergeError, type MergeError } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { loadStack } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/source-stack", import.meta.url);

const root = mkdtempSync(join(tmpdir(), "merge-hardening-messages-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (name: string, text: string) => writeFileSync(join(root, name), text);

function failure(run: () => unknown): MergeError {
  try {
    run();
  } catch (error) {
    if (isMergeError(error)) return error;
    throw error;
  }
  throw new Error("expected a MergeError");
}

describe("a template that makes the stack cyclic", () => {
  it("is a coded one-line error, whatever the templates do with the stack afterwards", () => {
    write("cycle.yml", "{% do stack.update({'self': stack}) %}\nx: 1\n");
    const after = {
      "nothing after": "",
      "a merge into the cycle": "self: {x: 2}\n",
      "printing it": "{% set s = stack|string %}y: 1\n",
      "|python": "{% set s = stack|python %}y: 1\n",
      "a list holding it": "{% do stack.update({'l': [stack]}) %}\nz: 1\n",
    };
    let cases = 0;
    for (const [name, text] of Object.entries(after)) {
      write("after.yml", text);
      write("cycle.cfg", "cycle.yml\nafter.yml\n");
      const error = failure(() => loadStack({ config: "cycle.cfg", cwd: root, minionId: "m" }));
      expect([name, error.code]).toEqual([name, "STACK_CYCLE"]);
      expect(formatMergeError(error)).not.toContain("\n");
      cases++;
    }
    for (const filter of ["json", "yaml", "tojson"]) {
      write("after.yml", `y: '{{ stack|${filter} }}'\n`);
      const error = failure(() => loadStack({ config: "cycle.cfg", cwd: root, minionId: "m" }));
      expect([filter, error.code]).toEqual([filter, "TEMPLATE_RENDER"]);
      expect(error.message).not.toMatch(/call stack|RangeError/);
      cases++;
    }
    tally("faults", cases);
  });
});

describe("YAML errors in rendered text", () => {
  const secrets = [
    "*hunter2secret",
    "!hunter2secret",
    "&hunter2secret x",
    "hunter2secret: x: y",
    "[hunter2secret",
    "'hunter2secret",
  ];

  it("never quote a pillar or opts value, and give the position and the template's own line", () => {
    write("pw.yml", "user: admin\npassword: {{ pillar.pw }}\n");
    write("opts.yml", "token: {{ __opts__.token }}\n");
    write("pw.cfg", "pw.yml\n");
    write("opts.cfg", "opts.yml\n");
    let cases = 0;
    for (const secret of secrets) {
      for (const [config, host] of [
        ["pw.cfg", { pillar: { pw: secret } }],
        ["opts.cfg", { opts: { token: secret } }],
      ] as const) {
        let error: MergeError | undefined;
        try {
          loadStack({ config, cwd: root, minionId: "m", ...host });
        } catch (e) {
          if (!isMergeError(e)) throw e;
          error = e;
        }
        if (error === undefined) continue; // this value happens to be valid YAML there
        expect(error.code).toMatch(/^YAML_/);
        expect(formatMergeError(error)).not.toContain("hunter2secret");
        expect(JSON.stringify(error.details ?? {})).not.toContain("hunter2secret");
        expect(String((error.cause as Error | undefined)?.message ?? "")).not.toContain("hunter2secret");
        expect(error.source?.line).toBeGreaterThan(0);
        // An unclosed `[` is marked where the text ends, past its last line, as Salt's loader marks it.
        expect(error.message).toMatch(/the template's (last )?line \d+: /);
        cases++;
      }
    }
    expect(cases).toBeGreaterThanOrEqual(8);
    tally("faults", cases);
  });

  it("keep the YAML message of a file without Jinja syntax: that text is the author's", () => {
    write("literal.yml", "a: *undefined_alias\n");
    write("literal.cfg", "literal.yml\n");
    const error = failure(() => loadStack({ config: "literal.cfg", cwd: root, minionId: "m" }));
    expect(error.message).toContain("undefined_alias");
    tally("faults", 1);
  });

  it("never quote a pillar value decoded with load_yaml or load_json, or a rendered import", () => {
    write("decode.cfg", "decode.yml\n");
    write("imported.yaml", "pw: {{ pillar.pw }}\n");
    let cases = 0;
    for (const body of [
      "{% set x = pillar.pw|load_yaml %}a: 1\n",
      "{% set x = pillar.pw|load_json %}a: 1\n",
      "{% load_yaml as x %}{{ pillar.pw }}{% endload %}a: 1\n",
      "{% import_yaml 'imported.yaml' as x with context %}a: 1\n",
    ]) {
      write("decode.yml", body);
      for (const secret of ["*hunter2secret", "!hunter2secret", "{hunter2secret"]) {
        let error: MergeError | undefined;
        try {
          loadStack({ config: "decode.cfg", cwd: root, minionId: "m", pillar: { pw: secret } });
        } catch (e) {
          if (!isMergeError(e)) throw e;
          error = e;
        }
        if (error === undefined) continue;
        expect(formatMergeError(error)).not.toContain("hunter2secret");
        cases++;
      }
    }
    expect(cases).toBeGreaterThanOrEqual(8);
    tally("faults", cases);
  });
});
