// Expected strings were produced by Jinja 3.1 on Python 3.11.
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { renderCase } from "./test-vars.js";

const g = JSON.parse('{"__proto__": {"is_admin": true}, "constructor": {"prototype": 1}, "a": 1}');

describe("dict(), namespace(), update() and dict.fromkeys build mappings as Python does", () => {
  it("from a mapping, pairs, keywords and keys", () => {
    expect(
      renderCase(
        "{{ dict() }}|{{ dict(a=1, b=2) }}|{{ dict([['a', 1], ('b', 2)]) }}|{{ dict(['ab', 'cd']) }}|" +
          "{{ dict({'a': 1}.items(), a=2) }}|{{ dict.fromkeys(['x', 'y'], 0) }}|{{ {}.fromkeys('ab') }}|" +
          "{% set d = {'a': 1} %}{% do d.update([['b', 2]], c=3) %}{{ d }}|{{ namespace({'v': 1}, w=2).w }}",
      ),
    ).toBe(
      "{}|{'a': 1, 'b': 2}|{'a': 1, 'b': 2}|{'a': 'b', 'c': 'd'}|{'a': 2}|{'x': 0, 'y': 0}|{'a': None, 'b': None}|{'a': 1, 'b': 2, 'c': 3}|2",
    );
  });

  it("write every key as data: a grain's __proto__ is an entry, never the prototype", () => {
    expect(
      renderCase(
        "{{ dict(g) }}|{{ dict(g).is_admin is defined }}|{{ dict(g)['__proto__'] }}|{{ namespace(g)['__proto__'] }}|" +
          "{% set d = {} %}{% do d.update(g) %}{{ d.is_admin is defined }}|{{ dict(g.items())|length }}|" +
          "{{ dict.fromkeys(['__proto__'], 1) }}",
        {},
        { g },
      ),
    ).toBe(
      "{'__proto__': {'is_admin': True}, 'constructor': {'prototype': 1}, 'a': 1}|False|{'is_admin': True}|{'is_admin': True}|False|3|{'__proto__': 1}",
    );
    expect(({} as Record<string, unknown>).is_admin).toBeUndefined();
  });

  it("raise Python's errors", () => {
    expect(failure(() => renderCase("{{ dict(1) }}")).message).toBe(
      "TypeError: 'int' object is not iterable",
    );
    expect(failure(() => renderCase("{{ dict([1]) }}")).message).toBe(
      "TypeError: cannot convert dictionary update sequence element #0 to a sequence",
    );
    expect(failure(() => renderCase("{{ dict(['abc']) }}")).message).toBe(
      "ValueError: dictionary update sequence element #0 has length 3; 2 is required",
    );
    expect(failure(() => renderCase("{{ dict({}, {}) }}")).message).toBe(
      "TypeError: dict expected at most 1 argument, got 2",
    );
    expect(failure(() => renderCase("{{ dict([[[1], 2]]) }}")).message).toBe(
      "TypeError: unhashable type: 'list'",
    );
    expect(failure(() => renderCase("{% do {}.update(none) %}")).message).toBe(
      "TypeError: 'NoneType' object is not iterable",
    );
  });
});
