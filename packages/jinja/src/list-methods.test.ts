import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Python 3.11's answers (recorded through Jinja 3.1.6, with the `do` extension PillarStack enables) for list and
// dict methods: `list.sort()` in place (keywords only, `key` a macro), `list.index(x, start, stop)`, and Python's
// errors for methods given too few or too many arguments.
const PYTHON: readonly [template: string, output: string | { error: string }][] = [
  ["{% set l = [3, 1, 2] %}{{ l.sort() }}|{{ l }}", "None|[1, 2, 3]"],
  ["{% set l = [3, 1, 2] %}{{ l.sort(reverse=true) }}|{{ l }}", "None|[3, 2, 1]"],
  ["{% set l = ['b', 'A', 'c'] %}{% do l.sort() %}{{ l }}", "['A', 'b', 'c']"],
  ["{% set l = [3, 1] %}{{ l.sort(1) }}", { error: "TypeError: sort() takes no positional arguments" }],
  [
    "{% set l = [3, 1] %}{{ l.sort(x=1) }}",
    { error: "TypeError: 'x' is an invalid keyword argument for sort()" },
  ],
  [
    "{% set l = [1, 'a'] %}{{ l.sort() }}",
    { error: "TypeError: '<' not supported between instances of 'str' and 'int'" },
  ],
  [
    "{% set l = [] %}{{ l.append() }}",
    { error: "TypeError: list.append() takes exactly one argument (0 given)" },
  ],
  [
    "{% set l = [] %}{{ l.append(1, 2) }}",
    { error: "TypeError: list.append() takes exactly one argument (2 given)" },
  ],
  [
    "{% set l = [1] %}{{ l.remove() }}",
    { error: "TypeError: list.remove() takes exactly one argument (0 given)" },
  ],
  [
    "{% set l = [1] %}{{ l.count() }}",
    { error: "TypeError: list.count() takes exactly one argument (0 given)" },
  ],
  ["{% set l = ['a', 'b', 'a'] %}{{ l.index('a', 1) }}", "2"],
  ["{% set l = ['a', 'b', 'a'] %}{{ l.index('a', -1) }}", "2"],
  ["{% set l = ['a', 'b', 'a'] %}{{ l.index('a', 1, 2) }}", { error: "ValueError: 'a' is not in list" }],
  ["{% set l = [1] %}{{ l.index() }}", { error: "TypeError: index expected at least 1 argument, got 0" }],
  [
    "{% set l = [1] %}{{ l.index(1, 0, 1, 2) }}",
    { error: "TypeError: index expected at most 3 arguments, got 4" },
  ],
  ["{{ {}.get() }}", { error: "TypeError: get expected at least 1 argument, got 0" }],
  ["{{ {}.get(1, 2, 3) }}", { error: "TypeError: get expected at most 2 arguments, got 3" }],
  ["{{ {}.pop() }}", { error: "TypeError: pop expected at least 1 argument, got 0" }],
  ["{% set m = namespace(k=[3,1]) %}{% do m.k.sort() %}{{ m.k }}", "[1, 3]"],
  ["{% macro k(x) %}{{ -x }}{% endmacro %}{% set l = [1, 3, 2] %}{% do l.sort(key=k) %}{{ l }}", "[1, 2, 3]"],
];

describe("list and dict methods", () => {
  it.each(PYTHON)("%s as in Python", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });
});
