import { describe, expect, it } from "vitest";
import { createRenderer } from "./renderer.js";

// cloud-init renders `## template: jinja` parts with jinja2.Template(..., undefined=UndefinedJinjaVariable,
// trim_blocks=True, extensions=["jinja2.ext.do"]); these options give the same behaviour.
const cloudInit = createRenderer({
  flavor: "jinja",
  trimBlocks: true,
  undefinedText: (name) => `CI_MISSING_JINJA_VAR/${name}`,
});
const render = (source: string, vars: Record<string, unknown> = {}) =>
  cloudInit.render(source, "part-001", vars, "part-001");

describe("renderer options for plain Jinja", () => {
  it("drops the newline after a block tag and after a comment with trimBlocks", () => {
    expect(render("{% if a %}\nyes\n{% endif %}\n{# note #}\nend", { a: 1 })).toBe("yes\nend");
    const salt = createRenderer();
    expect(salt.render("{% if a %}\nyes\n{% endif %}\nend", "t", { a: 1 }, "t")).toBe("\nyes\n\nend");
  });

  it("prints an undefined value with the text undefinedText gives for the name looked up last", () => {
    expect(render("{{ missing }} {{ v1.nope }} {{ v1['a-b'] }} {{ v1.x }}", { v1: { x: 1 } })).toBe(
      "CI_MISSING_JINJA_VAR/missing CI_MISSING_JINJA_VAR/nope CI_MISSING_JINJA_VAR/a-b 1",
    );
    // Without the option an undefined value prints as nothing, as Jinja's Undefined does.
    expect(createRenderer({ flavor: "jinja" }).render("[{{ missing }}]", "t", {}, "t")).toBe("[]");
  });

  it("still fails on an attribute of an undefined value and on arithmetic with one", () => {
    expect(() => render("{{ missing.attr }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
    expect(() => render("{{ missing - 1 }}")).toThrow(expect.objectContaining({ code: "TEMPLATE_RENDER" }));
  });

  it("knows only Jinja's own filters, globals and tags in the jinja flavor", () => {
    expect(() => render("{{ {'a': 1} | json }}")).toThrow(
      expect.objectContaining({ code: "TEMPLATE_SYNTAX" }),
    );
    expect(() => render("{% import_yaml 'x.yml' as x %}")).toThrow(
      expect.objectContaining({ code: "TEMPLATE_SYNTAX" }),
    );
    expect(render("{{ __salt__ }}")).toBe("CI_MISSING_JINJA_VAR/__salt__");
    expect(render("{{ {'a': 1} | tojson }} {{ range(3) | list }}")).toBe('{"a": 1} [0, 1, 2]');
    expect(render("{% set l = [] %}{% do l.append(1) %}{{ l }}")).toBe("[1]");
  });

  it("has no loader: include and import fail as in an environment without one", () => {
    for (const source of ["{% include 'x' %}", "{% import 'x' as x %}", "{% extends 'x' %}"]) {
      expect(() => render(source)).toThrow(/no loader for this environment specified/);
    }
  });
});
