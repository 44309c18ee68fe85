import { isMergeError, PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { PyTuple } from "./pyvalues.js";
import { createRenderer } from "./renderer.js";

// What Jinja 3.1.6 (as Salt 3006/3007 and cloud-init run it) raises when a template uses the undefined value a
// lookup made, recorded with Python's jinja2 against the same variables. Jinja's Undefined remembers the value looked
// in and the name looked up, and its message names their type: `'dict object' has no attribute 'x'` for an attribute
// or a string key, `list object has no element 5` (no quotes) for any other key.
const JINJA: readonly [template: string, message: string][] = [
  ["{{ pillar.x.y }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.a.c.d }}", "'dict object' has no attribute 'c'"],
  ["{{ pillar.l.x.y }}", "'list object' has no attribute 'x'"],
  ["{{ pillar.s.x.y }}", "'str object' has no attribute 'x'"],
  ["{{ pillar['x']['y'] }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar['x'].y }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x['y'] }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x[0] }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x[1:2] }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.l[5].x }}", "list object has no element 5"],
  ["{{ pillar.l[-9].x }}", "list object has no element -9"],
  ["{{ pillar.t[3].x }}", "tuple object has no element 3"],
  ["{{ pillar[1].x }}", "dict object has no element 1"],
  ["{{ pillar[none].x }}", "dict object has no element None"],
  ["{{ pillar[1.5].x }}", "dict object has no element 1.5"],
  ["{{ grains.os.x.y }}", "'str object' has no attribute 'x'"],
  ["{{ pillar.f.x.y }}", "'float object' has no attribute 'x'"],
  ["{{ (1).x.y }}", "'int object' has no attribute 'x'"],
  ["{{ pillar.a.items().x.y }}", "'dict_items object' has no attribute 'x'"],
  ["{{ pillar.n.x.y }}", "'None' has no attribute 'x'"],
  ["{{ pillar.n.x() }}", "'None' has no attribute 'x'"],
  ["{{ pillar.x() }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.l.x() }}", "'list object' has no attribute 'x'"],
  ["{{ pillar.a.b.x() }}", "'int object' has no attribute 'x'"],
  ["{{ pillar.a() }}", "TypeError: 'dict' object is not callable"],
  ["{{ nope.x }}", "'nope' is undefined"],
  ["{{ nope() }}", "'nope' is undefined"],
  // Operators that fail on an undefined operand (not `~`, `in`, `==`), named as Jinja names the left-most one.
  ["{{ pillar.x + 1 }}", "'dict object' has no attribute 'x'"],
  ["{{ 1 + pillar.x }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x * 2 }}", "'dict object' has no attribute 'x'"],
  ["{{ -pillar.x }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x < 1 }}", "'dict object' has no attribute 'x'"],
  ["{{ 1 < pillar.x < 3 }}", "'dict object' has no attribute 'x'"],
  ["{{ 2 ** pillar.x }}", "'dict object' has no attribute 'x'"],
  ["{{ (pillar.x) + 1 }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar['x'] % 2 }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x + pillar.y }}", "'dict object' has no attribute 'x'"],
  ["{{ pillar.x + pillar.y|default(1) }}", "'dict object' has no attribute 'x'"],
  ["{% for i in [1] %}{{ loop.index + pillar.x }}{% endfor %}", "'dict object' has no attribute 'x'"],
  ["{{ nope - 1 }}", "'nope' is undefined"],
];

function render(template: string): string {
  const pillar = new PyDict<unknown>([
    ["a", new PyDict([["b", 1]])],
    ["l", [1, 2]],
    ["s", "str"],
    ["n", null],
    ["t", PyTuple.of_([1, 2])],
    ["f", 1.5],
  ]);
  return createRenderer({}).render(
    template,
    "case.sls",
    { pillar, grains: new PyDict([["os", "Debian"]]) },
    "c.cfg",
  );
}

function messageOf(template: string): string {
  try {
    render(template);
  } catch (error) {
    if (isMergeError(error) && error.code === "TEMPLATE_RENDER") return error.message;
    throw error;
  }
  throw new Error(`${template} rendered`);
}

describe("using an undefined value", () => {
  it.each(JINJA)("%s fails with Jinja's message", (template, message) => {
    expect(messageOf(template)).toBe(message);
  });

  it("prints nothing and passes tests where Jinja does: only using it fails", () => {
    expect(render("[{{ pillar.x }}|{{ pillar.a.b.x }}|{{ pillar.a.get('q').x }}|{{ pillar.n.x }}]")).toBe(
      "[|||]",
    );
    expect(render("{{ pillar.x is defined }} {{ pillar.l[7] is undefined }}")).toBe("False True");
  });

  it("orders the items sort and groupby found no attribute on as Jinja does: only comparing one fails", () => {
    // Recorded with Jinja 3.1.2: the attribute getter's Undefined remembers the item and the name it looked up.
    expect(messageOf("{{ ['a', 'b'] | groupby('uid') | map(attribute='list') | list }}")).toBe(
      "'str object' has no attribute 'uid'",
    );
    expect(messageOf("{{ [{'uid': 1}, 'x'] | sort(attribute='uid') }}")).toBe(
      "'str object' has no attribute 'uid'",
    );
    expect(messageOf("{{ ['x', {'uid': 1}] | sort(attribute='uid') }}")).toBe(
      "'str object' has no attribute 'uid'",
    );
    expect(messageOf("{{ [[1], []] | sort(attribute='0') }}")).toBe("list object has no element 0");
    expect(messageOf("{{ [none, {'uid': 1}] | groupby('uid') | map(attribute='grouper') | list }}")).toBe(
      "'None' has no attribute 'uid'",
    );
    // A lookup on an item's missing attribute fails at once; keys missing everywhere are equal and keep the order.
    expect(messageOf("{{ [{'u': {'v': 1}}, {'w': 1}] | sort(attribute='u.v') }}")).toBe(
      "'dict object' has no attribute 'u'",
    );
    expect(render("{{ [{'a': 1}, {'b': 2}] | sort(attribute='uid') }}")).toBe("[{'a': 1}, {'b': 2}]");
    expect(render("{{ ['a'] | groupby('uid') | map(attribute='list') | list }}")).toBe("[['a']]");
    expect(render("{{ ['a', 'b'] | groupby('uid', default='z') | map(attribute='grouper') | list }}")).toBe(
      "['z']",
    );
  });

  it("finds the lookup among the latest ones when others came between (both operands of one expression)", () => {
    expect(messageOf("{{ pillar.x[pillar.y] }}")).toBe("'dict object' has no attribute 'x'");
  });

  it("gives the hint of an empty sequence's item and of an inline if without else", () => {
    // Recorded with Jinja 3.1.6.
    expect(messageOf("{{ ([]|first).x }}")).toBe("No first item, sequence was empty.");
    expect(messageOf("{{ ([]|last) + 1 }}")).toBe("No last item, sequence was empty.");
    expect(messageOf("{{ -([]|max) }}")).toBe("No aggregated item, sequence was empty.");
    expect(messageOf("{{ ([]|min)|int }}")).toBe("No aggregated item, sequence was empty.");
    expect(messageOf("{% set v = [] | random %}{{ v.x }}")).toBe("No random item, sequence was empty.");
    expect(messageOf("{{ 1 + (1 if 0) }}")).toBe(
      "the inline if-expression on line 1 evaluated to false and no else section was defined.",
    );
    expect(messageOf("\n{% set v = 1 if 0 %}{{ v.y }}")).toBe(
      "the inline if-expression on line 2 evaluated to false and no else section was defined.",
    );
  });

  it("keeps the message of an undefined value set to a variable, and never lends it to another binding", () => {
    // Recorded with Jinja 3.1.6: its Undefined travels with the value.
    expect(messageOf("{% set m = pillar.x %}{{ m.y }}")).toBe("'dict object' has no attribute 'x'");
    expect(messageOf("{% set m = pillar.x %}{% set n = m %}{{ n + 1 }}")).toBe(
      "'dict object' has no attribute 'x'",
    );
    expect(messageOf("{% set a, b = pillar.x, pillar.y %}{{ b.c }}")).toBe(
      "'dict object' has no attribute 'y'",
    );
    expect(messageOf("{% set m = foo %}{{ m.y }}")).toBe("'foo' is undefined");
    expect(messageOf("{% with m = pillar.x %}{{ m.y }}{% endwith %}")).toBe(
      "'dict object' has no attribute 'x'",
    );
    expect(messageOf("{% set ns = namespace(a=1) %}{% set ns.a = pillar.x %}{{ ns.a.y }}")).toBe(
      "'dict object' has no attribute 'x'",
    );
    expect(messageOf("{% set ns = namespace() %}{{ ns.q.y }}")).toBe(
      "'jinja2.utils.Namespace object' has no attribute 'q'",
    );
    // `default` given an undefined value gives it back, and its use names the fallback as Jinja does.
    expect(messageOf("{{ (x|default(y)) + 1 }}")).toBe("'y' is undefined");
    expect(messageOf("{{ x|default(y) + 1 }}")).toBe("'y' is undefined");
    expect(messageOf("{{ -(x|d(y)) }}")).toBe("'y' is undefined");
    expect(messageOf("{{ (x|default(y)).a }}")).toBe("'y' is undefined");
    expect(messageOf("{{ (x|default(pillar.zz)) + 1 }}")).toBe("'dict object' has no attribute 'zz'");
    expect(messageOf("{{ (''|default(y, true)) + 1 }}")).toBe("'y' is undefined");
    expect(messageOf("{{ (x|default(default_value=y)) + 1 }}")).toBe("'y' is undefined");
    expect(messageOf("{% set v = x|default(y) %}{{ v + 1 }}")).toBe("'y' is undefined");
    expect(messageOf("{% set m = pillar.x %}{% set m = foo %}{{ m|int }}")).toBe("'foo' is undefined");
    expect(messageOf("{% set m = pillar.x %}{% for m in [1] %}{% endfor %}{{ m() }}")).toBe(
      "'dict object' has no attribute 'x'",
    );
    expect(messageOf("{% set m = pillar.x %}{% macro f(m) %}{{ m.y }}{% endmacro %}{{ f() }}")).toBe(
      "parameter 'm' was not provided",
    );
    // Jinja names pillar.z here; what matters is that the outer m's message is not used.
    expect(messageOf("{% set m = pillar.x %}{% macro f(m) %}{{ m.y }}{% endmacro %}{{ f(pillar.z) }}")).toBe(
      "'m' is undefined",
    );
    expect(messageOf("{% set m = pillar.x %}{% for m in [pillar.q] %}{{ m.y }}{% endfor %}")).toBe(
      "'m' is undefined",
    );
    expect(messageOf("{% set b = pillar.x %}{% for a, b in [(1, pillar.q)] %}{{ b.y }}{% endfor %}")).toBe(
      "'b' is undefined",
    );
  });
});
