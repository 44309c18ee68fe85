import { isMergeError, PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createRenderer } from "./renderer.js";
import { tempTree } from "./test-vars.js";

// Jinja 3.1.6's output for each (recorded with Python's jinja2, FileSystemLoader on the config's directory and
// `pillar` a global, as PillarStack sets them up).
const FILES = {
  "macros.jinja":
    "{% macro greet(n) %}hi {{ n }} {{ pillar.get('x', 'nox') }}{% endmacro %}\n{% set shared = 'S' %}\n",
  "part.jinja": "part {{ v }} {{ pillar.get('x') }}\n",
};

const JINJA: readonly [template: string, output: string | { error: string }][] = [
  ["{% set v = 1 %}{% include 'part.jinja' %}", "part 1 X"],
  ["{% set v = 1 %}{% include 'part.jinja' with context %}", "part 1 X"],
  ["{% set v = 1 %}{% include 'part.jinja' without context %}", "part  X"],
  ["{% set v = 1 %}{% include 'missing.jinja' ignore missing with context %}ok", "ok"],
  ["{% set v = 2 %}{% include ['missing.jinja', 'part.jinja'] %}", "part 2 X"],
  ["{% include ['a.jinja', 'b.jinja'] ignore missing %}ok", "ok"],
  [
    "{% include ['a.jinja', 'b.jinja'] %}ok",
    { error: "TemplatesNotFound: none of the templates given were found: a.jinja, b.jinja" },
  ],
  ["{% from 'macros.jinja' import nosuch %}ok", "ok"],
  ["{% from 'macros.jinja' import nosuch %}{{ nosuch is defined }}", "False"],
  [
    "{% from 'macros.jinja' import nosuch %}{{ nosuch() }}",
    { error: "the template 'macros.jinja' (imported on line 1) does not export the requested name 'nosuch'" },
  ],
  [
    "{% from 'macros.jinja' import greet, nosuch as n %}{{ greet('z') }}{{ n.x }}",
    { error: "the template 'macros.jinja' (imported on line 1) does not export the requested name 'nosuch'" },
  ],
  ["{% from 'macros.jinja' import greet as g %}{{ g('c') }}", "hi c X"],
  [
    "{% import 'macros.jinja' as m %}{{ m.greet('b') }}|{{ m.shared }}|{{ m.nosuch is defined }}",
    "hi b X|S|False",
  ],
];

describe("include and import", () => {
  const dir = tempTree(FILES);
  const outcome = (template: string): string | { error: string } => {
    try {
      return createRenderer({}).render(
        template,
        `${dir}/case.sls`,
        { pillar: new PyDict([["x", "X"]]) },
        `${dir}/c.cfg`,
      );
    } catch (error) {
      if (isMergeError(error)) return { error: error.message };
      throw error;
    }
  };

  it.each(JINJA)("%s as in Jinja", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });
});
