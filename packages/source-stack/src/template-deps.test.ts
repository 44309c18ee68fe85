import { describe, expect, it } from "vitest";
import { templateNames, templatePath } from "./template-deps.js";

describe("templateNames", () => {
  it("finds the literal names of include, import, from, extends and Salt's import tags, in order", () => {
    const text = [
      "{%- include 'a.jinja' ignore missing %}",
      '{% import "m/macros.sls" as m %}{%from "f.sls" import g -%}',
      "{% extends 'base.j2' %}{% import_yaml \"d.yml\" as d %}{% import_json 'j.json' as j %}",
      "{% import_text 't.txt' as t %}{% include name %}{% include ['x', 'y'] %}{{ 'include \"no\"' }}",
    ].join("\n");
    expect(templateNames(text)).toEqual([
      "a.jinja",
      "m/macros.sls",
      "f.sls",
      "base.j2",
      "d.yml",
      "j.json",
      "t.txt",
    ]);
  });
});

describe("templatePath", () => {
  it("names a template in the config's directory as the loader names its files", () => {
    expect(templatePath("parts/./a.jinja", "stack", "/srv")).toBe("stack/parts/a.jinja");
    expect(templatePath("a.jinja", "", "/srv")).toBe("a.jinja");
    expect(templatePath("/srv/stack/b.jinja", "stack", "/srv")).toBe("stack/b.jinja");
  });

  it("refuses what the renderer refuses: a step up, an absolute name outside the directory, no name", () => {
    expect(templatePath("../a.jinja", "stack", "/srv")).toBeUndefined();
    expect(templatePath("/etc/passwd", "stack", "/srv")).toBeUndefined();
    expect(templatePath("./", "stack", "/srv")).toBeUndefined();
  });
});
