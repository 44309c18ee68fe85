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

describe("the loop variable in an included template", () => {
  // Jinja 3.1.2's output for each: a for loop binds `loop` only when it is recursive or its body names `loop`, and
  // an included template sees the loop variables that are bound.
  const dir = tempTree({
    "loopy.jinja": "{{ loop is defined }}{% if loop is defined %}:{{ loop.index }}{% endif %}",
  });
  const render = (template: string): string =>
    createRenderer({}).render(template, `${dir}/case.sls`, {}, `${dir}/c.cfg`);

  it.each([
    ["{% for i in [1, 2] %}{% include 'loopy.jinja' %} {% endfor %}", "False False "],
    ["{% for i in [1, 2] %}{{ loop.index }}{% include 'loopy.jinja' %} {% endfor %}", "1True:1 2True:2 "],
    [
      "{% for i in [1, 2] %}{% for j in [5, 6] %}{% include 'loopy.jinja' %},{% endfor %}{{ loop.last }} {% endfor %}",
      "True:1,True:1,False True:2,True:2,True ",
    ],
    [
      "{% for i in [1] %}{% for j in [5] %}{{ loop.first }}{% endfor %}{% include 'loopy.jinja' %}{% endfor %}",
      "TrueTrue:1",
    ],
    [
      "{% for i in [[7]] recursive %}{% if i is iterable %}{{ loop(i) }}{% else %}{% include 'loopy.jinja' %}{% endif %}{% endfor %}",
      "True:1",
    ],
  ])("%s is %s", (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});
