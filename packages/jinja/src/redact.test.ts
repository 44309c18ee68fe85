import { isMergeError, type MergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createRenderer } from "./renderer.js";
import { pyPformat } from "./serialize-python.js";
import { renderCase } from "./test-vars.js";

function failure(run: () => unknown): MergeError {
  try {
    run();
  } catch (e) {
    if (isMergeError(e)) return e;
    throw e;
  }
  throw new Error("expected a MergeError");
}

describe("messages about decoded text", () => {
  const renderer = createRenderer();
  const render = (source: string, pw: string) =>
    renderer.render(source, "/srv/stack/x.yml", { pillar: { pw } }, "/srv/stack/x.cfg");

  it("give the kind of problem and the position, never the text", () => {
    for (const [source, pw] of [
      ["{% set x = pillar.pw|load_yaml %}", "*topsecretpw"],
      ["{% set x = pillar.pw|load_yaml %}", "!topsecretpw"],
      ["{% set x = pillar.pw|load_json %}", "{topsecretpw"],
      ["{% load_yaml as x %}a: {{ pillar.pw }}{% endload %}", "*topsecretpw"],
      ["{% load_json as x %}{{ pillar.pw }}{% endload %}", "topsecretpw"],
    ] as const) {
      const error = failure(() => render(source, pw));
      expect(error.code).toBe("TEMPLATE_RENDER");
      expect(error.message).not.toContain("topsecretpw");
      expect(String((error.cause as Error | undefined)?.message ?? "")).not.toContain("topsecretpw");
      expect(error.message).toMatch(/not shown/);
    }
  });

  it("keep the message of an imported file without Jinja syntax", () => {
    const error = failure(() =>
      renderCase("{% import_yaml 'lit.yaml' as x %}", { "lit.yaml": "a: *undefined_alias\n" }),
    );
    expect(error.message).toContain("undefined_alias");
  });
});

describe("values that contain themselves", () => {
  it("print as pprint prints them", () => {
    const d: Record<string, unknown> = { x: 1 };
    d.self = d;
    expect(pyPformat(d)).toBe("{'self': <Recursion on dict with id=0>, 'x': 1}");
    const l: unknown[] = [1];
    l.push(l);
    expect(pyPformat(l)).toBe("[1, <Recursion on list with id=0>]");
  });

  it("are a coded error for |yaml, not a stack overflow", () => {
    const error = failure(() => renderCase("{% set d = {} %}{% do d.update({'me': d}) %}{{ d|yaml }}"));
    expect(error.code).toBe("TEMPLATE_RENDER");
    expect(error.message).toMatch(/^ValueError: cannot write this value as YAML/);
  });
});
