import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase } from "./test-vars.js";

const VARS = { x: 1, y: 0, b: [1] };

// Jinja 2 3.1.2's result for each, recorded with Python's jinja2 set up as PillarStack sets it up, rendered with
// x=1, y=0, b=[1]: the text, or the error's message. An unknown filter or test inside an `if` or an inline if is
// Jinja's run-time error when it runs (a TEMPLATE_RENDER here); in a frame of its own (a loop's body, a macro, a
// block) it fails compiling again (TEMPLATE_SYNTAX).
const RENDERED: [string, string][] = [
  ["{% if false %}{{ 1|nosuchfilter }}{% endif %}", ""],
  ["{% if x %}{% else %}{{ a|nope }}{% endif %}", ""],
  ["{% if y %}{{ x is nope }}{% endif %}", ""],
  ["{% if y %}{% for a in b|nope %}{% endfor %}{% endif %}", ""],
  ["{{ 1 if x else y|nope }}", "1"],
  ["{{ 1|nope if y else 2 }}", "2"],
  ["{% macro m() %}{% if x %}{{ a|nope }}{% endif %}{% endmacro %}", ""],
  ["{% if y %}{% set z = a|nope %}{% endif %}", ""],
  ["{% if y %}{% with q = a|nope %}{% endwith %}{% endif %}", ""],
  ["{% if y %}{% do a|nope %}{% endif %}", ""],
  ["{% if y %}{% call m(a|nope) %}{% endcall %}{% endif %}", ""],
];

const RUNTIME: [string, string][] = [
  ["{% if x %}{{ 1|nosuchfilter }}{% endif %}", "No filter named 'nosuchfilter' found."],
  ["{% if x|nope %}a{% endif %}", "No filter named 'nope' found."],
  ["{% if y %}{% elif x %}{{ 2|nope }}{% else %}{{ 3|nope }}{% endif %}", "No filter named 'nope' found."],
  ["{% if x is nope %}a{% endif %}", "No test named 'nope' found."],
  ["{{ 1|nope if x else 2 }}", "No filter named 'nope' found."],
  [
    "{% macro m() %}{% if x %}{{ a|nope }}{% endif %}{% endmacro %}{{ m() }}",
    "No filter named 'nope' found.",
  ],
  ["{% for a in b %}{% if a %}{{ a|nope }}{% endif %}{% endfor %}", "No filter named 'nope' found."],
  ["{% if x %}{{ a is nope(1) }}{% endif %}", "No test named 'nope' found."],
  // The arguments are computed first.
  ["{% if x %}{{ undefined_thing.x|nope }}{% endif %}", "'undefined_thing' is undefined"],
];

const COMPILE: string[] = [
  "{% if x %}{% for a in b %}{{ a|nope }}{% endfor %}{% endif %}",
  "{% if y %}{% for a in b if a|nope %}{% endfor %}{% endif %}",
  "{{ (1 if x else 2)|nope }}",
  "{% if y %}{% macro m() %}{{ a|nope }}{% endmacro %}{% endif %}",
  "{% if y %}{% set z %}{{ a|nope }}{% endset %}{% endif %}",
  "{% if y %}{% set z | nope %}a{% endset %}{% endif %}",
  "{% if y %}{% filter nope %}a{% endfilter %}{% endif %}",
  "{% if y %}{% with q = 1 %}{{ q|nope }}{% endwith %}{% endif %}",
  "{% if y %}{% load_yaml as q %}{{ a|nope }}{% endload %}{% endif %}",
  "{% if y %}{% call m() %}{{ a|nope }}{% endcall %}{% endif %}",
  "{% if y %}{% block q %}{{ a|nope }}{% endblock %}{% endif %}",
];

describe("unknown filters and tests inside an if", () => {
  it.each(RENDERED)("%s renders %j", (template, text) => {
    expect(renderCase(template, {}, { ...VARS })).toBe(text);
  });

  it.each(RUNTIME)("%s fails when it runs: %s", (template, message) => {
    const e = failure(() => renderCase(template, {}, { ...VARS }));
    expect(e.code).toBe("TEMPLATE_RENDER");
    expect(e.message).toBe(message);
  });

  it.each(COMPILE)("%s does not compile", (template) => {
    const e = failure(() => renderCase(template, {}, { ...VARS }));
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.message).toBe("No filter named 'nope'.");
  });
});
