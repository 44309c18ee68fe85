import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { jinjaSyntaxError } from "./jinja-syntax.js";
import { createRenderer } from "./renderer.js";
import { renderCase } from "./test-vars.js";

// Each template with the message and line Jinja 2 3.1.2 raises compiling it, recorded with Python's jinja2 set up as
// PillarStack sets it up (`jinja2.ext.do` and Salt's serializer extension). The error is a TEMPLATE_SYNTAX
// MergeError whose message is Jinja's, on Jinja's line.
const CASES: [string, string, number][] = [
  ["{{ x", "unexpected end of template, expected 'end of print statement'.", 1],
  ["{{ x }", "unexpected '}'", 1],
  ["{{ x %}", "unexpected '}'", 1],
  [
    "{% if x %}",
    "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  [
    "{% if x %}a",
    "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  [
    "{% if x %}a{% else %}b",
    "Unexpected end of template. Jinja was looking for the following tags: 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  [
    "{% for x in y %}{{ x }}",
    "Unexpected end of template. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
  ],
  [
    "{% for x in y %}{% endif %}",
    "Encountered unknown tag 'endif'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
  ],
  [
    "{% if x %}{% endfor %}",
    "Encountered unknown tag 'endfor'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  ["{% endif %}", "Encountered unknown tag 'endif'.", 1],
  ["{% endfor %}", "Encountered unknown tag 'endfor'.", 1],
  [
    "{% for x in y %}{% if x %}{% endfor %}{% endif %}",
    "Encountered unknown tag 'endfor'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  [
    "{% if x %}{% for y in z %}{% endif %}",
    "Encountered unknown tag 'endif'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
  ],
  [
    "{% macro m() %}x",
    "Unexpected end of template. Jinja was looking for the following tags: 'endmacro'. The innermost block that needs to be closed is 'macro'.",
    1,
  ],
  [
    "{% macro m() %}{% if a %}x{% endmacro %}",
    "Encountered unknown tag 'endmacro'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  ["{% raw %}x", "Missing end of raw directive", 1],
  ["{# comment", "Missing end of comment tag", 1],
  ["{{ {'a': 1 'b': 2} }}", "expected token ',', got 'string'", 1],
  ["{{ {'a' 1} }}", "expected token ':', got 'integer'", 1],
  ["{{ (1, 2 }}", "unexpected '}', expected ')'", 1],
  ["{{ f(a=1, b) }}", "invalid syntax for function call expression", 1],
  ["{{ f(**a, b) }}", "invalid syntax for function call expression", 1],
  ["{{ f( }}", "unexpected '}', expected ')'", 1],
  ["{{ x|nope }}", "No filter named 'nope'.", 1],
  ["{{ x|nope(1) }}", "No filter named 'nope'.", 1],
  ["{{ x is nope }}", "No test named 'nope'.", 1],
  ["{{ x is defined is string }}", "You cannot chain multiple tests with is", 1],
  ["{{ a && b }}", "unexpected char '&' at 5", 1],
  ["{{ a ! b }}", "unexpected char '!' at 5", 1],
  ["{{ 'abc }}", 'unexpected char "\'" at 3', 1],
  ["{{ 'abc\" }}", 'unexpected char "\'" at 3', 1],
  ["{{ }}", "Expected an expression, got 'end of print statement'", 1],
  ["{% %}", "tag name expected", 1],
  ["{% set %}", "Expected an expression, got 'end of statement block'", 1],
  ["{% set 1 = 2 %}", "can't assign to 'const'", 1],
  ["{% for 1 in y %}{% endfor %}", "can't assign to 'const'", 1],
  [
    "{% for x in y %}{% else %}{% else %}{% endfor %}",
    "Encountered unknown tag 'else'. Jinja was looking for the following tags: 'endfor'. The innermost block that needs to be closed is 'for'.",
    1,
  ],
  [
    "{% for x in y %}{% elif z %}{% endfor %}",
    "Encountered unknown tag 'elif'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
  ],
  [
    "{% if x %}{% else %}{% else %}{% endif %}",
    "Encountered unknown tag 'else'. Jinja was looking for the following tags: 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  ["{% macro m(a=1, b) %}{% endmacro %}", "non-default argument follows default argument", 1],
  ["{% call m %}{% endcall %}", "expected call", 1],
  ["{% call x.y %}{% endcall %}", "expected call", 1],
  ["{% from 'x' import _a %}", "names starting with an underline can not be imported", 1],
  [
    "{% block a-b %}{% endblock %}",
    "Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.",
    1,
  ],
  ["{% block a %}{% endblock %}{% block a %}{% endblock %}", "block 'a' defined twice", 1],
  ["{{ x. }}", "expected name or number", 1],
  ["{{ x.'a' }}", "expected name or number", 1],
  ["{{ x }}{%", "tag name expected", 1],
  ["{%- if x %}a{%- endif", "unexpected end of template, expected 'end of statement block'.", 1],
  [
    "{% if grains.os in ('a', 'b') %}x{% end %}",
    "Encountered unknown tag 'end'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  ["line1\nline2 {{ x", "unexpected end of template, expected 'end of print statement'.", 2],
  [
    "line1\n{% for a in b %}\n{% if a %}\n{% endfor %}",
    "Encountered unknown tag 'endfor'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    4,
  ],
  ["a\nb\n{# unclosed comment\nc", "Missing end of comment tag", 3],
  ["a\n{% raw %}\nb", "Missing end of raw directive", 2],
  [
    "a\n\n{% for x in y %}\n{{ x }}\n\n",
    "Unexpected end of template. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    4,
  ],
  ["x\n{{ a is nope }}", "No test named 'nope'.", 2],
  ["{% set x = {\n'a': 1,\n'b': 2\n'c': 3} %}", "expected token ',', got 'string'", 4],
  ["{{ f(\na,\nb\nc) }}", "expected token ',', got 'c'", 4],
  ["{% if a\nand b\nor %}x{% endif %}", "unexpected 'end of statement block'", 3],
  [
    "{% if x %}\n  {% for y in z %}\n    {{ y }}\n  {% endfor %}\n{% endfor %}\n",
    "Encountered unknown tag 'endfor'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    5,
  ],
  [
    "{% load_yaml as x %}a: 1",
    "Unexpected end of template. Jinja was looking for the following tags: 'endload'. The innermost block that needs to be closed is 'load_yaml'.",
    1,
  ],
  ["{% import_yaml 'x' %}", "expected token 'as', got 'end of statement block'", 1],
  // Templates nunjucks reads but Jinja refuses.
  ["{% for k, in m %}{% endfor %}", "expected token 'in', got 'm'", 1],
  ["{{ a === b }}", "unexpected '='", 1],
  ["{% set x[0] = 1 %}", "expected token 'end of statement block', got '['", 1],
  [
    "{% if x %}x{% elseif y %}y{% endif %}",
    "Encountered unknown tag 'elseif'. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    1,
  ],
  ["{{ f(a' , b) }}", 'unexpected char "\'" at 6', 1],
  ["{% set s = {pkg': 'salt-minion'} %}", "expected token ':', got 'string'", 1],
  ["{{ a$b }}", "unexpected char '$' at 4", 1],
  ["{{ '\\x4' }}", "truncated \\xXX escape", 1],
];

describe("template syntax errors", () => {
  it.each(CASES)("%s: Jinja's message and line", (template, message, line) => {
    const e = failure(() => renderCase(template));
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.message).toBe(message);
    expect(e.source).toMatchObject({ line });
  });

  // Jinja puts the end of a template on the line where its last token starts: the text "\nx" after the macro tag.
  it("names the file of an imported template that does not parse, and the line there", () => {
    const e = failure(() =>
      renderCase("{% import 'm.jinja' as m %}", { "m.jinja": "a\n{% macro f() %}\nx\n" }),
    );
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.message).toBe(
      "Unexpected end of template. Jinja was looking for the following tags: 'endmacro'. The innermost block that needs to be closed is 'macro'.",
    );
    expect(e.source).toMatchObject({ line: 2 });
    expect(String((e.source as { file?: string }).file)).toMatch(/m\.jinja$/);
  });

  it("finds an unknown filter in a loop inside an if, and in the value of an inline if put through a filter", () => {
    const names = { filters: new Set<string>(), tests: new Set<string>() };
    expect(
      jinjaSyntaxError("{% if x %}\n{% for a in b %}{{ a|nope }}{% endfor %}{% endif %}", names),
    ).toMatchObject({
      message: "No filter named 'nope'.",
      line: 2,
    });
    expect(jinjaSyntaxError("{{ (1 if x else 2)|nope }}", names)?.message).toBe("No filter named 'nope'.");
  });

  it("finds nothing in templates Jinja compiles", () => {
    const names = { filters: new Set(["upper", "load_yaml"]), tests: new Set(["defined"]) };
    for (const template of [
      "{% for a, b in c if a is defined recursive %}{{ loop(b) }}{% else %}{% endfor %}",
      "{% set ns.x = 1 %}{% set a, b = 1, 2 %}{% set t | upper %}x{% endset %}",
      "{% macro m(a, b=1) %}{{ caller() }}{% endmacro %}{% call(x) m(1, *a, **k) %}{{ x }}{% endcall %}",
      "{{ x[1:2:3] }}{{ x[::] }}{{ f(a,)(b) }}{{ 1 if a else 2 }}{{ -x ** 2 // 3 ~ 'a' 'b' }}",
      "{% raw %}{{ }}{% endraw %}{# {{ #}{% load_yaml as d %}a: 1{% endload %}{% do d.update({}) %}",
      "{% from 'x' import a as b, c with context %}{% include ['a', 'b'] ignore missing without context %}",
      "{% filter upper %}x{% endfilter %}{% with a = 1, b = 2 %}{% endwith %}{% autoescape true %}{% endautoescape %}",
      "{% if a %}{% elif b %}{% else: %}{% endif %}{{ x is not defined }}{{ 0x1F + 1_000 + 1.5e3 }}",
      // Unknown names inside an `if` are checked when they run.
      "{% if x|nope %}{% elif y %}{{ a is nope }}{% else %}{{ 1|nope if y }}{% endif %}{{ b|nope if c else d }}",
    ]) {
      expect(jinjaSyntaxError(template, names), template).toBeUndefined();
    }
  });
});

describe("a comment opened at the very end of a template (Jinja 3.1.2's results)", () => {
  it("is no error: the text before it is the template, less the white space before `{#-`", () => {
    const render = (text: string, trimBlocks = false) =>
      createRenderer({ trimBlocks }).render(text, "/srv/t.sls", {}, "/srv/stack.cfg");
    expect(render("abc {#")).toBe("abc ");
    expect(render("abc {#\n")).toBe("abc ");
    expect(render("abc {#+")).toBe("abc ");
    expect(render("abc {#-")).toBe("abc");
    expect(render("a\n  {#-")).toBe("a");
    expect(render("{{ 1 }} {#")).toBe("1 ");
    expect(render("x {# a #}{#")).toBe("x ");
    expect(render("{% if true %}\nx{% endif %}\n{#", true)).toBe("x");
  });

  it("fails where the `{#` starts no comment, as Jinja does", () => {
    const fails = (text: string) =>
      failure(() => createRenderer().render(text, "/srv/t.sls", {}, "/srv/stack.cfg"));
    expect(fails("{% raw %}a{#").message).toContain("Missing end of raw directive");
    expect(fails('{{ "{#').message).toContain(`unexpected char '"' at 3`);
    expect(fails("abc {# x").message).toContain("Missing end of comment tag");
  });
});
