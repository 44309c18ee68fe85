// Ordinary and unusual minion values, marked as opaque text, render as Jinja 3.1 renders the plain values: the
// expected outputs in test/fixtures/opaque/expected.json come from generate.py there (Debian's python3-jinja2).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { markOpaque, plainOpaque } from "./opaque.js";
import { createRenderer } from "./renderer.js";

const here = dirname(fileURLToPath(import.meta.url));
const expected = JSON.parse(readFileSync(resolve(here, "../test/fixtures/opaque/expected.json"), "utf8")) as {
  cases: { expr: string; v: string; ok?: string; error?: string }[];
};

describe("opaque text against Jinja 3.1", () => {
  it("renders every expression on every marked value as Jinja renders the plain value", () => {
    const renderer = createRenderer();
    const wrong: string[] = [];
    for (const c of expected.cases) {
      const vars = markOpaque({
        v: c.v,
        p: { [c.v]: "from pillar", "a b": "ab" },
        g: { [c.v]: "one", "a b": "two" },
      });
      let got: string;
      try {
        const out = renderer.render(
          `{{ ${c.expr} }}`,
          "/srv/stack/oracle.cfg",
          vars as Record<string, unknown>,
          "/srv/stack/oracle.cfg",
          {
            opaqueText: true,
          },
        );
        got = plainOpaque(out);
      } catch (error) {
        got = `error: ${(error as Error).message}`;
      }
      const want = c.ok ?? `error: ${c.error}`;
      if (got !== want)
        wrong.push(
          `${c.expr} on ${JSON.stringify(c.v)}: got ${JSON.stringify(got)}, Jinja ${JSON.stringify(want)}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(expected.cases.length).toBeGreaterThan(1000);
  });
});
