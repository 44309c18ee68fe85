// Generated template cases rendered by the real Jinja2 with PillarStack's environment (test/oracle/generate.mjs and
// oracle.py; the Jinja2 and Python versions are in the fixture): every case must render to the same text here, or
// fail where Jinja fails (a syntax error where Jinja finds one, a render error where it raises). Variables that JSON
// cannot carry (whole floats, int keys, key order) come as YAML, read into the exact model as PillarStack reads them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isMergeError, type PyDict } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { splitArgs } from "../src/kwargs.js";
import { PyTuple } from "../src/pyvalues.js";
import { createRenderer } from "../src/renderer.js";
import { tempTree } from "../src/test-vars.js";

interface OracleCase {
  readonly group: string;
  readonly template: string;
  readonly vars?: Record<string, unknown>;
  readonly yaml?: string;
  readonly files?: Record<string, string>;
  readonly stack?: Record<string, unknown>;
  readonly expected: { out?: string; error?: string; kind?: "syntax" | "render" };
}

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/jinja-oracle.json", import.meta.url), "utf8"),
) as {
  oracle: string;
  cases: OracleCase[];
};

/** `__salt__['test.arg']` as Salt's test module has it: the arguments it was called with. */
const salt = {
  "test.arg": (...args: unknown[]) => {
    const { pos, kw } = splitArgs(args);
    return { args: PyTuple.of_(pos), kwargs: { ...kw } };
  },
};

function render(c: OracleCase): { out?: string; code?: string; message?: string } {
  const dir = tempTree(c.files ?? {});
  try {
    const vars: Record<string, unknown> = {
      ...structuredClone(c.vars ?? {}),
      stack: structuredClone(c.stack ?? {}),
    };
    if (c.yaml !== undefined) {
      const more = loadYaml(c.yaml, { values: "exact" }) as PyDict;
      for (const [name, value] of more) vars[name as string] = value;
    }
    return {
      out: createRenderer({ salt }).render(c.template, join(dir, "case.yml"), vars, join(dir, "config.cfg")),
    };
  } catch (e) {
    if (!isMergeError(e)) throw e;
    return { code: e.code, message: e.message };
  }
}

/** Python's message for values that cannot be ordered, which the exact model must give word for word. */
const ORDER_ERROR = /^TypeError: '[<>]' not supported between instances of /;
/** Groups whose errors must have Jinja's message word for word (as the template's author sees it under Salt). */
const MESSAGE_GROUPS = new Set(["undefined", "arity", "default-fallback"]);

/** Jinja's message as an error of ours says it: Python's TypeError keeps its name, Jinja's own errors do not. */
function messageOf(error: string): string {
  return error.startsWith("TypeError: ") ? error : error.replace(/^[A-Za-z]+: /, "");
}

function disagreements(group: string): string[] {
  const out: string[] = [];
  for (const c of fixture.cases.filter((x) => x.group === group)) {
    const got = render(c);
    const want = c.expected;
    const ok =
      want.error === undefined
        ? got.out === want.out
        : got.code === (want.kind === "syntax" ? "TEMPLATE_SYNTAX" : "TEMPLATE_RENDER") &&
          (!ORDER_ERROR.test(want.error) || got.message === want.error) &&
          (!MESSAGE_GROUPS.has(group) || want.kind === "syntax" || got.message === messageOf(want.error));
    if (!ok) {
      const wanted = want.error ?? JSON.stringify(want.out);
      const gave = got.code !== undefined ? `${got.code} ${got.message}` : JSON.stringify(got.out);
      out.push(`${c.template} ${JSON.stringify(c.vars ?? {})}\n  Jinja: ${wanted}\n  here:  ${gave}`);
    }
  }
  return out;
}

const GROUPS = [...new Set(fixture.cases.map((c) => c.group))];
// Hundreds of renders per group: generous, as CI machines are shared.
const TIMEOUT = 120_000;

describe(`agreement with ${fixture.oracle}`, () => {
  it("covers every feature with many cases", () => {
    expect(GROUPS).toEqual(
      expect.arrayContaining([
        "dunder",
        "splat-macro",
        "splat-call",
        "recursive-loop",
        "xml",
        "json",
        "mapping",
        "exact-float",
        "exact-numbers",
        "exact-format",
        "exact-keys",
        "exact-order",
        "exact-mixed-keys",
        "exact-filters",
        "undefined",
        "arity",
      ]),
    );
    expect(fixture.cases.length).toBeGreaterThan(3000);
  });
  for (const group of GROUPS) {
    it(`renders the ${group} cases as Jinja does`, () => expect(disagreements(group)).toEqual([]), TIMEOUT);
  }
});
