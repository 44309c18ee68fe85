// Expected strings were produced by Jinja 3.1 (test/oracle has hundreds more generated cases of each).
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { createRenderer } from "./renderer.js";
import { renderCase } from "./test-vars.js";

describe("call splats", () => {
  it("spread *args and **kwargs into macros, mixed with positional and keyword arguments", () => {
    const m = "{% macro m(a, b=2) %}{{ a }}/{{ b }}|{{ varargs }}|{{ kwargs }}{% endmacro %}";
    expect(renderCase(`${m}{{ m(*[1, 2, 3]) }}`)).toBe("1/2|(3,)|{}");
    expect(renderCase(`${m}{{ m(1, **{'b': 5, 'c': 6}) }}`)).toBe("1/5|()|{'c': 6}");
    expect(renderCase(`${m}{{ m(*[7], c=1, **{'d': 2}) }}`)).toBe("7/2|()|{'c': 1, 'd': 2}");
    // A keyword naming a parameter already given by position goes to kwargs, as in Jinja's Macro.
    expect(renderCase(`${m}{{ m(1, 2, **{'a': 0}) }}`)).toBe("1/2|()|{'a': 0}");
    expect(renderCase(`${m}{{ m(*'ab') }}|{{ m(*{'k': 1}) }}|{{ m(*nope, a=3) }}`)).toBe(
      "a/b|()|{}|k/2|()|{}|3/2|()|{}",
    );
  });

  it("spread into filters, tests, methods, globals, caller() and __salt__ functions", () => {
    const seen: unknown[] = [];
    const renderer = createRenderer({ salt: { "test.args": (...args: unknown[]) => seen.push(args) } });
    const src =
      "{{ 'a-b'|replace(*['-', '+']) }}|{{ '{}/{}'.format(*'xy') }}|{{ '{a}'.format(**{'a': 1}) }}|" +
      "{{ range(*[1, 4])|list }}|{{ dict(**{'k': 1}) }}|{{ 6 is divisibleby(*[3]) }}|" +
      "{% macro c() %}{{ caller(*[1, 2]) }}{% endmacro %}{% call(a, b) c() %}{{ a + b }}{% endcall %}|" +
      "{% do __salt__['test.args'](1, *[2], k=3, **{'j': 4}) %}";
    expect(renderer.render(src, "/srv/s/case.yml", {}, "/srv/s/config.cfg")).toBe(
      "a+b|x/y|1|[1, 2, 3]|{'k': 1}|True|3|",
    );
    expect(seen).toEqual([[1, 2, { k: 3, j: 4, __keywords: true }]]);
  });

  it("fail as Jinja does on bad splats and bad argument order", () => {
    const m = "{% macro m(a=1) %}{{ a }}{% endmacro %}";
    expect(failure(() => renderCase(`${m}{{ m(*None) }}`)).message).toBe(
      "TypeError: Value after * must be an iterable, not NoneType",
    );
    expect(failure(() => renderCase(`${m}{{ m(**[1]) }}`)).message).toBe(
      "TypeError: argument after ** must be a mapping, not list",
    );
    expect(failure(() => renderCase(`${m}{{ m(a=1, **{'a': 2}) }}`)).message).toBe(
      "TypeError: got multiple values for keyword argument 'a'",
    );
    expect(failure(() => renderCase(`${m}{{ m(**nope) }}`)).message).toBe("'nope' is undefined");
    for (const args of ["*a, 1", "**a, b=1", "*a, *b", "**a, **b", "**a, *b", "a=1, 2"]) {
      const e = failure(() => renderCase(`{{ m(${args}) }}`));
      expect(e.code, args).toBe("TEMPLATE_SYNTAX");
      expect(e.message).toContain("invalid syntax for function call expression");
    }
  });

  it("tell a mapping holding a __keywords key (data) from a call's keyword arguments", () => {
    const g = { __keywords: true, a: 1 };
    expect(
      renderCase(
        "{{ dict(g) }}|{{ dict(**g) }}|{{ dict.fromkeys(g) }}|{% set d = {} %}{% do d.__setitem__('k', g) %}{{ d }}|" +
          "{% macro m(x) %}{{ x }}|{{ kwargs }}{% endmacro %}{{ m(g, **g) }}",
        {},
        { g },
      ),
    ).toBe(
      "{'__keywords': True, 'a': 1}|{'__keywords': True, 'a': 1}|{'__keywords': None, 'a': None}|" +
        "{'k': {'__keywords': True, 'a': 1}}|{'__keywords': True, 'a': 1}|{'__keywords': True, 'a': 1}",
    );
  });

  it("keep keys from ** as data", () => {
    expect(
      renderCase(
        "{{ dict(**g) }}|{{ dict(**g).polluted is defined }}",
        {},
        { g: JSON.parse('{"__proto__": {"polluted": 1}}') },
      ),
    ).toBe("{'__proto__': {'polluted': 1}}|False");
  });
});

describe("recursive loops", () => {
  const t = [
    {
      n: 1,
      c: [
        { n: 2, c: [] },
        { n: 4, c: [{ n: 5, c: [] }] },
      ],
    },
    { n: 3, c: [] },
  ];

  it("render the body again one level deeper with loop(items), with loop.depth and loop.depth0", () => {
    expect(
      renderCase(
        "{% for x in t recursive %}[{{ x.n }}:{{ loop.depth }}/{{ loop.depth0 }}{{ loop(x.c) }}]{% endfor %}",
        {},
        { t },
      ),
    ).toBe("[1:1/0[2:2/1][4:2/1[5:3/2]]][3:1/0]");
  });

  it("apply the loop's filter and else at every level, and count index and length per level", () => {
    const src =
      "{%- for x in t if x.n != 2 recursive %}{{ x.n }}({{ loop.index }}/{{ loop.length }})" +
      "{% if x.c %}<{{ loop(x.c) }}>{% endif %}{% else %}-{% endfor %}";
    expect(renderCase(src, {}, { t })).toBe("1(1/2)<4(1/1)<5(1/1)>>3(2/2)");
    expect(
      renderCase("{% for x in t recursive %}{{ x.n }}{{ loop(x.c) }}{% else %}.{% endfor %}", {}, { t }),
    ).toBe("12.45.3.");
  });

  it("can be called through a saved loop from an inner loop, and inside macros", () => {
    const src =
      "{% macro walk(items) %}{% for x in items recursive %}{% set outer = loop %}{{ x.n }}" +
      "{% for c in [x.c] %}{{ outer(c) }}{% endfor %}{% endfor %}{% endmacro %}{{ walk(t) }}";
    expect(renderCase(src, {}, { t })).toBe("12453");
  });

  it("refuse loop() on a loop without the recursive marker, as Jinja does", () => {
    expect(failure(() => renderCase("{% for x in [1] %}{{ loop([]) }}{% endfor %}")).message).toBe(
      "TypeError: The loop must have the 'recursive' marker to be called recursively.",
    );
    expect(renderCase("{% for x in [1, 2] %}{{ loop }}{% endfor %}")).toBe(
      "<LoopContext 1/2><LoopContext 2/2>",
    );
  });
});

describe("assignments to loop", () => {
  const refused = "Can't assign to special loop variable in for-loop target";
  it("refuse `loop` as a target anywhere inside a for loop, as Jinja does when it compiles the template", () => {
    const cases: [string, number][] = [
      ["{% for x in [1] %}{% set loop = 5 %}{{ loop }}{% endfor %}", 1],
      ["{% for loop in [1, 2] %}{{ loop }}{% endfor %}", 1],
      ["{% for a, loop in [(1, 2)] %}{% endfor %}", 1],
      ["{% for x in [1] %}{% for loop in [3] %}{% endfor %}{% endfor %}", 1],
      ["{% for x in [1] %}{% set a, loop = 1, 2 %}{% endfor %}", 1],
      ["{% for x in [1] %}{% if 1 %}{% set loop = 5 %}{% endif %}{% endfor %}", 1],
      ["{% for x in [1] %}{% set loop %}a{% endset %}{% endfor %}", 1],
      ["{% for x in [1] %}{% macro m() %}{% set loop = 1 %}{% endmacro %}{% endfor %}x", 1],
      ["{% for x in [1] recursive %}{% set loop = 1 %}{% endfor %}", 1],
      // Even in `else`, and even when the loop never runs.
      ["{% for x in [] %}{% else %}{% set loop = 1 %}{% endfor %}", 1],
      // The first one in the text is named.
      ["a\n{% for x in [1] %}\n{% set y = 1 %}\n  {% set loop = 1 %}{% set loop = 2 %}{% endfor %}", 4],
    ];
    for (const [source, line] of cases) {
      const error = failure(() => renderCase(source));
      expect(error.code).toBe("TEMPLATE_SYNTAX");
      expect(error.message).toBe(refused);
      expect(error.source?.line).toBe(line);
    }
  });

  it("accept `loop` outside loops, as a `with` name or macro parameter inside them, and as a namespace attribute", () => {
    expect(renderCase("{% set loop = 5 %}{{ loop }}")).toBe("5");
    expect(renderCase("{% for x in [1] %}{% with loop = 3 %}{{ loop }}{% endwith %}{% endfor %}")).toBe("3");
    expect(
      renderCase("{% for x in [1] %}{% macro m(loop) %}{{ loop }}{% endmacro %}{{ m(2) }}{% endfor %}"),
    ).toBe("2");
    expect(
      renderCase(
        "{% for x in [1] %}{% set ns = namespace(loop=1) %}{% set ns.loop = 2 %}{{ ns.loop }}{% endfor %}",
      ),
    ).toBe("2");
    expect(renderCase("{% for x in [1, 2] if loop %}{{ x }}{% endfor %}")).toBe("");
  });
});
