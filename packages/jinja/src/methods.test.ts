// Expected strings were produced by Jinja 3.1 (test/oracle has hundreds more generated cases).
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { createRenderer } from "./renderer.js";
import { renderCase, VARS } from "./test-vars.js";

const VARS_COPY = () => structuredClone(VARS);

describe("the slot methods Jinja users call", () => {
  it("mutate and read dicts: __setitem__, __getitem__, __delitem__, __contains__, __len__", () => {
    expect(
      renderCase(
        "{% set d = {} %}{% do d.__setitem__('k', 1) %}{% do d.__setitem__('j', [2]) %}{{ d }}|" +
          "{{ d.__getitem__('j') }}|{{ d.__contains__('k') }}|{{ d.__len__() }}|" +
          "{% do d.__delitem__('k') %}{{ d }}|{% do d['__setitem__']('x', 3) %}{{ d['__getitem__']('x') }}",
      ),
    ).toBe("{'k': 1, 'j': [2]}|[2]|True|2|{'j': [2]}|3");
  });

  it("mutate and read lists and read strings, with negative indexes", () => {
    expect(
      renderCase(
        "{% set l = [1, 2, 3] %}{% do l.__setitem__(-1, 9) %}{% do l.__delitem__(0) %}{{ l }}|" +
          "{{ l.__getitem__(-2) }}|{{ l.__contains__(9) }}|{{ l.__len__() }}|" +
          "{{ 'héllo'.__getitem__(1) }}|{{ 'abc'.__contains__('bc') }}|{{ 'a😀'.__len__() }}",
      ),
    ).toBe("[2, 9]|2|True|2|é|True|2");
  });

  it("raise Python's errors", () => {
    expect(failure(() => renderCase("{{ {}.__getitem__('x') }}")).message).toBe("KeyError: 'x'");
    expect(failure(() => renderCase("{% do [1].__setitem__(5, 1) %}")).message).toBe(
      "IndexError: list assignment index out of range",
    );
    expect(failure(() => renderCase("{{ [1].__getitem__('0') }}")).message).toBe(
      "TypeError: list indices must be integers or slices, not str",
    );
    expect(failure(() => renderCase("{{ 'a'.__contains__(1) }}")).message).toBe(
      "TypeError: 'in <string>' requires string as left operand, not int",
    );
    expect(failure(() => renderCase("{% do (1, 2).__setitem__(0, 1) %}")).message).toBe(
      "TypeError: 'tuple' object does not support item assignment",
    );
  });

  it("write keys as data: __setitem__('__proto__', ...) is an ordinary entry", () => {
    const vars = { stack: {} as Record<string, unknown> };
    renderCase("{% do stack.__setitem__('__proto__', {'polluted': 1}) %}", {}, vars);
    expect(Object.keys(vars.stack)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(vars.stack)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never reach code: __class__, __globals__, __init__, __subclasses__, __mro__ and friends are undefined", () => {
    const subjects = [
      "{}",
      "[]",
      "''",
      "1",
      "1.5",
      "none",
      "true",
      "(1,)",
      "{}.items()",
      "range",
      "dict",
      "dict.fromkeys",
      "namespace()",
      "cycler(1)",
      "joiner()",
      "m",
      "{}.get",
      "''.upper",
      "__salt__['pillar.get']",
      "__stack__.traverse",
      "'x'|json",
    ];
    const names = [
      "__class__",
      "__globals__",
      "__init__",
      "__subclasses__",
      "__mro__",
      "__base__",
      "__bases__",
      "__dict__",
      "__code__",
      "__builtins__",
      "__reduce__",
      "__getattribute__",
      "__proto__",
      "constructor",
      "__defineGetter__",
      "__lookupGetter__",
      "prototype",
    ];
    const renderer = createRenderer();
    const render = (src: string) =>
      renderer.render(src, "/srv/stack/case.yml", VARS_COPY(), "/srv/stack/config.cfg");
    let cases = 0;
    for (const subject of subjects) {
      const prelude = `{% macro m() %}{% endmacro %}{% set v = ${subject} %}`;
      const tests = names.map((name) => `v.${name} is defined`).join(", ");
      expect(render(`${prelude}{{ [${tests}] }}`), subject).toBe(`[${names.map(() => "False").join(", ")}]`);
      for (const name of names) {
        expect(failure(() => render(`${prelude}{{ v.${name}.__mro__ }}`)).code).toBe("TEMPLATE_RENDER");
        cases++;
      }
    }
    expect(cases).toBe(subjects.length * names.length);
  });
});
