import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase, VARS } from "./test-vars.js";

describe("comment delimiters", () => {
  it("print a stray #} in template text as text, as Jinja does", () => {
    expect(
      renderCase("a #} b|{# c #}#}{# d #}|{{ 1 }}#}|{% if true %}#}{% endif %}|{% raw %}#}{% endraw %}"),
    ).toBe("a #} b|#}|1#}|#}|#}");
  });

  it("still end a comment at its first #}, and refuse a comment that never ends", () => {
    expect(renderCase("{# a #} b #}")).toBe(" b #}");
    expect(failure(() => renderCase("text {# open")).code).toBe("TEMPLATE_SYNTAX");
  });
});

describe("adjacent string literals", () => {
  // Jinja 3.1.6's output for each (recorded with Python's jinja2): its parser joins them, as Python does.
  it.each([
    [`{{ "a" "b" }}`, "ab"],
    [`{{ "a" 'b' ~ "c" }}`, "abc"],
    [`{{ ("a" "b")|upper }}`, "AB"],
    ["{{ 'x' 'y' 'z' }}", "xyz"],
    ["{% set v = 'p' 'q' %}{{ v }}", "pq"],
    ["{{ ['a' 'b', 'c'] }}", "['ab', 'c']"],
    ["{{ {'k' 'ey': 1} }}", "{'key': 1}"],
    ["{{ 'a' 'b' in 'xaby' }}", "True"],
    ["{{ 'a''b' }}", "ab"],
    ["{{ 'a'\n'b' }}", "ab"],
    [`{{ 'é' "\\u00e9" }}`, "éé"],
  ])("%s is %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });
});

describe("number literals", () => {
  // Jinja 3.1.6's output for each (recorded with Python's jinja2): its lexer's patterns for floats and ints.
  it.each([
    ["{{ 1.5e3 }}", "1500.0"],
    ["{{ 1e-7 }}", "1e-07"],
    ["{{ 1E5 }}", "100000.0"],
    ["{{ 0x1F }}|{{ 0X1f }}|{{ 0o17 }}|{{ 0b101 }}", "31|31|15|5"],
    ["{{ 0xFF + 1 }}", "256"],
    ["{{ 1_0.5 }}|{{ 1e1_0 }}|{{ 1_000 }}", "10.5|10000000000.0|1000"],
    ["{{ -1.5e3 }}|{{ -0x10 }}|{{ 1 - -1e1 }}", "-1500.0|-16|11.0"],
    ["{{ 00 }}|{{ 2e0 }}", "0|2.0"],
    ["{{ [[1, 2]].0.1 }}", "2"],
  ])("%s is %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });

  it.each(["{{ 07 }}", "{{ 0_7 }}", "{{ 5. }}", "{{ .5 }}"])("%s does not parse, as in Jinja", (template) => {
    expect(failure(() => renderCase(template)).code).toBe("TEMPLATE_SYNTAX");
  });
});

describe("the + modifiers of tags", () => {
  // Jinja 3.1.6's output (recorded with Python's jinja2): `{%+` keeps the white space before a tag (only
  // lstrip_blocks removes it), `+%}` the line break after it (only trim_blocks removes that).
  it.each([
    [false, "  {%+ if true %}a{% endif +%}\nb", "  a\nb"],
    [false, "{%+ if true -%}\n  x\n{%- endif +%}\n", "x"],
    [true, "{% if true +%}\nx{% endif %}\ny", "\nxy"],
    [true, "{% if true %}\nx{% endif +%}\ny", "x\ny"],
    [true, "a {{ '+%}' }} b", "a +%} b"],
  ])("with trim_blocks %s, %j is %j", (trimBlocks, template, expected) => {
    expect(renderCase(template, {}, structuredClone(VARS), { trimBlocks })).toBe(expected);
  });
});

describe("macro and call-block parameters", () => {
  // Jinja 3.1.2 (Debian's python3-jinja2): its parser refuses the template, whether or not the macro is called.
  it.each([
    "{% macro m(a=1, b) %}{% endmacro %}",
    "{% macro m(a, b={}, c, d=None) %}{{ a }}{% endmacro %}text",
    "{% macro m() %}{% endmacro %}{% call(x=1, y) m() %}{% endcall %}",
  ])("refuse a parameter without a default after one with a default: %s", (template) => {
    const error = failure(() => renderCase(template));
    expect(error.code).toBe("TEMPLATE_SYNTAX");
    expect(error.message).toContain("non-default argument follows default argument");
  });

  it("still take defaults after the parameters without one", () => {
    expect(renderCase("{% macro m(a, b=2, c=3) %}{{ a }}{{ b }}{{ c }}{% endmacro %}{{ m(1, c=4) }}")).toBe(
      "124",
    );
  });
});

describe("a colon before the end of a block tag", () => {
  // Jinja 3.1.2's output for each: `parse_statements` skips one colon before the `%}` of a tag whose body follows.
  it.each([
    ["{% if x == 1: %}one{% elif x == 2: %}two{% else: %}other{% endif %}", "other"],
    ["{% if true :%}y{% endif %}", "y"],
    ["{% for i in [1, 2]: %}{{ i }}{% else: %}none{% endfor %}", "12"],
    ["{% for i in [1, 2] if i > 1: %}{{ i }}{% endfor %}", "2"],
    ["{% macro m(a): %}[{{ a }}]{% endmacro %}{{ m(1) }}", "[1]"],
    ["{% macro m() %}{{ caller(2) }}{% endmacro %}{% call(v) m(): %}<{{ v }}>{% endcall %}", "<2>"],
    ["{% filter upper: %}ab{% endfilter %}", "AB"],
    ["{% load_yaml as d: %}k: 1{% endload %}{{ d.k }}", "1"],
  ])("%s is %s", (template, expected) => {
    expect(renderCase(`{% set x = 3 %}${template}`)).toBe(expected);
  });

  it.each([
    "{% if true %}a{% endif: %}",
    "{% set v = 1: %}",
    "{% with a = 1: %}{% endwith %}",
    "{% do [].append(1): %}",
    "{% if true: 1 %}{% endif %}",
  ])("is refused where Jinja has no body to read: %s", (template) => {
    expect(failure(() => renderCase(template)).code).toBe("TEMPLATE_SYNTAX");
  });
});

describe("assignment targets", () => {
  // Jinja 3.1.2's output for each, with Salt's serializer extension for the load tags (recorded with Python's
  // jinja2): `set` and `load_*` read a target as Jinja's parser does, parentheses and trailing commas included.
  it.each([
    ["{% set (a, b) = [5, 6] %}{{ a }}{{ b }}", "56"],
    ["{% set (a) = [5, 6] %}{{ a }}", "[5, 6]"],
    ["{% set (a,) = 'x' %}{{ a }}", "x"],
    ["{% set ((a)) = 3 %}{{ a }}", "3"],
    ["{% set (a, b,) = [1, 2] %}{{ a }}{{ b }}", "12"],
    ["{% set (a, (b, c)) = [1, [2, 3]] %}{{ a }}{{ b }}{{ c }}", "123"],
    ["{% set () = [] %}ok", "ok"],
    ["{% set (a, b) %}xy{% endset %}{{ b }}{{ a }}", "yx"],
    ["{% set a, %}x{% endset %}{{ a }}", "x"],
    ["{% load_yaml as a, %}[5]{% endload %}{{ a }}", "5"],
    ["{% load_yaml as a, b %}[5, 6]{% endload %}{{ a }} {{ b }}", "5 6"],
    ["{% load_yaml as (a, b) %}[5, 6]{% endload %}{{ b }} {{ a }}", "6 5"],
    ["{% load_json as a, %}[7]{% endload %}{{ a }}", "7"],
    ["{% for (a, b) in [[1, 2], [3, 4]] %}{{ a }}{{ b }}{% endfor %}", "1234"],
    ["{% for a, (b, c) in [[1, [2, 3]]] %}{{ a }}{{ b }}{{ c }}{% endfor %}", "123"],
    ["{% for (a) in [1, 2] %}{{ a }}{% endfor %}", "12"],
    ["{% for (a,) in [[1], [2]] %}{{ a }}{% endfor %}", "12"],
    ["{% for (k, v) in {'x': 1}.items() if v %}{{ k }}={{ v }}{% endfor %}", "x=1"],
    ["{% with a, b = [1, 2] %}{{ a }}{{ b }}{% endwith %}", "12"],
    ["{% with (a, b) = [1, 2], c = 3 %}{{ a }}{{ b }}{{ c }}{% endwith %}", "123"],
    ["{% with (a,) = [1] %}{{ a }}{% endwith %}", "1"],
    ["{% with %}x{% endwith %}", "x"],
    ["{% set ns = namespace(x=1) %}{% set ns.x = 2 %}{{ ns.x }}", "2"],
    ["{% set ns = namespace(x=1) %}{% set ns.x %}b{% endset %}{{ ns.x }}", "b"],
  ])("%s gives %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });

  it.each([
    ["{% set (a, b) = [1] %}", "not enough values to unpack (expected 2, got 1)"],
    ["{% load_yaml as a, %}[5, 6]{% endload %}", "too many values to unpack (expected 1)"],
    ["{% load_text as a, %}ab{% endload %}", "too many values to unpack (expected 1)"],
    ["{% for a, (b, c) in [[1, [2]]] %}{% endfor %}", "not enough values to unpack (expected 2, got 1)"],
  ])("%s fails as Jinja does: %s", (template, message) => {
    const error = failure(() => renderCase(template));
    expect(error.code).toBe("TEMPLATE_RENDER");
    expect(error.message).toContain(message);
  });

  it.each([
    ["{% set a, = [5] %}", "unexpected '='"],
    ["{% for x in [1] %}{% set (loop, y) = [1, 2] %}{% endfor %}", "Can't assign to special loop variable"],
    ["{% import_yaml 'f.yml' as a, %}", "expected token 'end of statement block', got ','"],
    ["{% for a, b, in [[1, 2]] %}{% endfor %}", "expected token 'in', got '['"],
    ["{% with a = 1, %}{% endwith %}", "Expected an expression, got 'end of statement block'"],
    ["{% with a = 1 b = 2 %}{% endwith %}", "expected token ',', got 'b'"],
    ["{% set ns = namespace(x=1) %}{% set (ns.x) = 2 %}", "can't assign to 'getattr'"],
    [
      "{% set ns = namespace(x=1) %}{% set ns.x, y = 2, 3 %}",
      "expected token 'end of statement block', got ','",
    ],
    ["{% for (a, 1) in [] %}{% endfor %}", "can't assign to 'tuple'"],
    ["{% set (a, 1) = [] %}", "can't assign to 'tuple'"],
  ])("%s is refused as Jinja refuses it: %s", (template, message) => {
    const error = failure(() => renderCase(template));
    expect(error.code).toBe("TEMPLATE_SYNTAX");
    expect(error.message).toContain(message);
  });
});

describe("conditional expressions", () => {
  // Jinja 3.1.2's output for each (recorded with Python's jinja2): the part after `else` is itself a conditional,
  // and a second `if` tests the first conditional's result.
  it.each([
    ["{{ 1 if 0 else 2 if 0 else 3 }}", "3"],
    ["{{ 1 if 0 else 2 if 1 else 3 }}", "2"],
    ["{{ 'a' if 1 if 0 }}|", "|"],
    ["{{ 'a' if 1 if 1 else 'b' }}", "a"],
    ["{{ 'a' if 0 else 'b' if 0 }}|", "|"],
    ["{% set x = 1 if 0 else 2 if 1 else 3 %}{{ x }}", "2"],
    ["{{ [1 if 0 else 2 if 0 else 3] }}", "[3]"],
  ])("%s gives %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });
});

describe("filter blocks", () => {
  // Jinja 3.1.2's output for each (recorded with Python's jinja2 and Salt's serializer extension): the tag takes a
  // chain of filters, applied to the block's text left to right.
  it.each([
    ["{% filter upper|replace('A', 'c') %}aaa{% endfilter %}", "ccc"],
    ["{% filter replace('a', 'b')|upper|reverse %}xa{% endfilter %}", "BX"],
    ["{% filter center(7)|trim %}ab{% endfilter %}", "ab"],
    ["{% filter upper %}{% filter lower %}A{% endfilter %}B{% endfilter %}", "AB"],
    ["{%- filter upper -%}  a  {%- endfilter -%}", "A"],
    ["{% set x = 'q' %}{% filter replace('a', x) %}a{% endfilter %}", "q"],
  ])("%s gives %s", (template, expected) => {
    expect(renderCase(template)).toBe(expected);
  });

  it("refuses an unknown filter anywhere in the chain", () => {
    expect(failure(() => renderCase("{% filter upper|nosuch %}a{% endfilter %}")).code).toMatch(/^TEMPLATE_/);
  });
});
