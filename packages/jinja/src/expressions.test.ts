import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Jinja 3.1.6's output for each (recorded with Python's jinja2): operator precedence as Jinja parses it (`+ -` one
// level, then `~`, then `* / // %` one level, all left to right; `in` and `not in` chained with the comparisons;
// tests read with their operand, as filters are; a tuple subscript `d[1, 2]`), `%` with a list (Python takes it for one mapping-like argument),
// the TypeErrors of `+` and `*` between sequences and other values, and the attributes and methods of numbers.
// `range()` is a range, not a list. What a loop body sets lasts one iteration; a macro sees the variables around
// its definition. Macros show Jinja's Macro attributes and repr, and `caller()` without a call block says so. Jinja's own exceptions
// are written without their class name.
const JINJA: readonly [template: string, output: string | { error: string }][] = [
  [
    "{{ 7 * 3 // 2 }}|{{ 8 / 4 * 2 }}|{{ 7 // 2 * 3 }}|{{ 2 * 7 % 4 }}|{{ 7 % 4 * 2 }}|{{ 10 * 1 / 3 }}|{{ 2 ** 3 ** 2 }}|{{ -2 ** 2 }}",
    "10|4.0|9|2|6|3.3333333333333335|64|4",
  ],
  [
    "{{ 0.1 + 0.2 - 0.3 }}|{{ 10 - 2 - 3 }}|{{ 1 - 2 + 3 }}|{{ 1 + 2 * 3 - 4 / 2 }}|{{ 1 ~ 2 * 3 }}|{{ 'a' ~ 1 + 2 }}",
    { error: 'TypeError: can only concatenate str (not "int") to str' },
  ],
  ["{{ [] * 1/3 }}", { error: "TypeError: unsupported operand type(s) for /: 'list' and 'int'" }],
  ["{{ 'abc' % [] }}|{{ 'abc' % [1] }}|{{ '%s' % [1] }}|{{ '%s' % [[1, 2]] }}", "abc|abc|[1]|[[1, 2]]"],
  ["{{ '%s %s' % [1, 2] }}", { error: "TypeError: not enough arguments for format string" }],
  ["{{ '%(a)s' % [1] }}", { error: "TypeError: list indices must be integers or slices, not str" }],
  ["{{ 'abc' % (1,) }}", { error: "TypeError: not all arguments converted during string formatting" }],
  ["{{ (1,) + 7 }}", { error: 'TypeError: can only concatenate tuple (not "int") to tuple' }],
  ["{{ [1] + 7 }}", { error: 'TypeError: can only concatenate list (not "int") to list' }],
  ["{{ 'ab' * 'cd' }}", { error: "TypeError: can't multiply sequence by non-int of type 'str'" }],
  ["{{ [1] * 'x' }}", { error: "TypeError: can't multiply sequence by non-int of type 'str'" }],
  ["{{ {} * 'a' }}", { error: "TypeError: can't multiply sequence by non-int of type 'dict'" }],
  ["{{ 2.5 * 'a' }}", { error: "TypeError: can't multiply sequence by non-int of type 'float'" }],
  ["{{ {} * 2 }}", { error: "TypeError: unsupported operand type(s) for *: 'dict' and 'int'" }],
  ["{{ 1e16|reverse|list }}", { error: "argument must be iterable" }],
  ["{{ 5|reverse }}", { error: "argument must be iterable" }],
  ["{{ (1, 2)|indent }}", { error: 'TypeError: can only concatenate tuple (not "str") to tuple' }],
  [
    "{{ (1.5).real }}|{{ (1.5).imag }}|{{ (7).numerator }}|{{ (7).denominator }}|{{ true.real }}|{{ (2.5).conjugate() }}|{{ (10**20).real }}|{{ (2).imag }}|{{ 3.0.is_integer() }}|{{ (2).bit_length() }}|{{ (-255).bit_length() }}",
    "1.5|0.0|7|1|1|2.5|100000000000000000000|0|True|2|8",
  ],
  [
    "{{ (0.1).as_integer_ratio() }}|{{ (2.5).as_integer_ratio() }}|{{ (6).as_integer_ratio() }}|{{ (2.0)['real'] }}|{{ (2.0).value }}|{{ (2.0)['value'] }}|",
    "(3602879701896397, 36028797018963968)|(5, 2)|(6, 1)|2.0|||",
  ],
  [
    "{{ [1, 2.5, 0, 0.0, true, false]|selectattr('real')|list }}|{{ [1, 2.5]|map(attribute='imag')|list }}|{{ [3, 1, 2]|sort(attribute='real') }}",
    "[1, 2.5, True]|[0, 0.0]|[1, 2, 3]",
  ],
  ["{{ (1).real() }}", { error: "TypeError: 'int' object is not callable" }],
  ["{{ (1.5).bit_length() }}", { error: "'float object' has no attribute 'bit_length'" }],
  ["{{ (1).is_integer() }}", { error: "'int object' has no attribute 'is_integer'" }],
  ["{{ (1).conjugate(2) }}", { error: "TypeError: int.conjugate() takes no arguments (1 given)" }],
  ["{{ 'a' ~ 1 + 2 }}", { error: 'TypeError: can only concatenate str (not "int") to str' }],
  ["{{ 1 + 2 ~ 'a' }}", { error: "TypeError: unsupported operand type(s) for +: 'int' and 'str'" }],
  ["{{ 'a' ~ 'b' + 'c' }}|{{ 1 ~ 2 * 3 }}|{{ -1 ~ 2 }}|{{ 2 ~ 3|string }}", "abc|16|-12|23"],
  [
    "{{ 1 in [1] == true }}|{{ 'a' in 'abc' in 'xabcx' }}|{{ not 1 in [2] }}|{{ 1 == 1 in [true] }}|{{ 1 < 2 in [true] }}|{{ 'a' not in 'b' not in 'c' }}|{{ 1 in [1] and 2 not in [1] }}",
    "False|True|True|True|False|True|True",
  ],
  ["{{ 2 in [2] is sameas true }}", { error: "TypeError: argument of type 'bool' is not iterable" }],
  [
    "{{ 'a' ~ 'b' is string }}|{{ 1 + 1 is even }}|{{ 2 ** 3 is odd }}|{{ -1 is number }}|{{ x is defined|string }}|{{ 3 is divisibleby 3 and 1 }}|{{ 1 is none or 2 }}|{{ (none is none) is sameas true }}",
    "aTrue|1|2|True|False|1|2|True",
  ],
  ["{{ x is defined is sameas false }}", { error: "You cannot chain multiple tests with is" }],
  ["{% set d = {(1, 2): 'x'} %}{{ d[1, 2] }}|{{ d[(1, 2)] }}|{{ [1][0, 1] }}|", "x|x||"],
  // Jinja: `unexpected ']'`.
  ["{{ d[1,] }}", { error: "unexpected ']'" }],
  // `x[]` is a subscript by the empty tuple (a missing comma in `get('a' [])` makes one): undefined where there is none.
  [
    "{% set d = {(): 'e'} %}{{ d[] }}|{{ 'abc'[] is defined }}|{{ [1][] is defined }}|{{ d.get('a' []) }}",
    "e|False|False|None",
  ],
  ["{{ nope[] }}", { error: "'nope' is undefined" }],
  // A tuple after `{{` and after `if`/`elif`, as Jinja reads them there.
  [
    "{{ 1, 2 }}|{{ 1, }}|{{ (1, 2), 3 }}|{{ 1 if 0 else 2, 3 }}|{{ 1, 2 | string }}",
    "(1, 2)|(1,)|((1, 2), 3)|(2, 3)|(1, '2')",
  ],
  ["{% if 0, %}y{% else %}n{% endif %}|{% if 0 %}a{% elif 0, 0 %}b{% endif %}", "y|b"],
  // Macros as Jinja's Macro objects.
  [
    "{% macro f(a, b=2, c=x) %}{{ varargs }}{% endmacro %}{{ f.name }}|{{ f.arguments }}|{{ f.catch_kwargs }}|{{ f.catch_varargs }}|{{ f.caller }}",
    "f|('a', 'b', 'c')|False|True|False",
  ],
  [
    "{% macro g() %}{{ caller() }}{{ kwargs }}{% endmacro %}{{ g.catch_kwargs }}|{{ g.caller }}|{{ g.arguments }}|{{ g.name }}",
    "True|True|()|g",
  ],
  ["{% macro g() %}{{ caller() }}{% endmacro %}{{ g() }}", { error: "No caller defined" }],
  ["{% macro g() %}{{ caller }}|{{ caller is defined }}{% endmacro %}{{ g() }}", "|False"],
  ["{% macro g() %}x{% endmacro %}{{ g }}|{{ [g] }}|{{ g|string }}", "<Macro 'g'>|[<Macro 'g'>]|<Macro 'g'>"],
  [
    "{% macro g() %}{{ caller }}|{{ caller.name }}|{{ caller() }}{% endmacro %}{% call g() %}in{% endcall %}",
    "<Macro anonymous>|None|in",
  ],
  // range() as Python's range.
  [
    "{{ range(3) }}|{{ range(1, 10, 3) }}|{{ range(5)[1:3] }}|{{ range(10)[::-1] }}|{{ range(10)[::2] }}|{{ range(10)[8:2:-2] }}|{{ range(3)[-1] }}|{{ range(3)[5] }}|",
    "range(0, 3)|range(1, 10, 3)|range(1, 3)|range(9, -1, -1)|range(0, 10, 2)|range(8, 2, -2)|2||",
  ],
  [
    "{{ range(3) == [0, 1, 2] }}|{{ range(3) == range(0, 3, 1) }}|{{ range(0) == range(2, 2) }}|{{ range(0, 3, 2) == range(0, 4, 2) }}|{{ range(3)|list == [0, 1, 2] }}|{{ range(1) == range(1, 0, -1) }}",
    "False|True|True|True|True|False",
  ],
  [
    "{{ range(3)|list }}|{{ range(3)|join(',') }}|{{ range(3)|sum }}|{{ range(3)|length }}|{{ range(3)|first }}|{{ range(3)|last }}|{{ range(3)|reverse|list }}|{{ 2 in range(3) }}|{{ range(3) is sequence }}|{{ range(3)|string }}|{{ '%s' % range(2) }}",
    "[0, 1, 2]|0,1,2|3|3|0|2|[2, 1, 0]|True|True|range(0, 3)|range(0, 2)",
  ],
  [
    "{{ range(3).start }}|{{ range(1, 9, 2).stop }}|{{ range(1, 9, 2).step }}|{{ range(5).index(3) }}|{{ range(5).count(3) }}",
    "0|9|2|3|1",
  ],
  ["{{ range(5).index(7) }}", { error: "ValueError: 7 is not in range" }],
  ["{{ range(3) + [1] }}", { error: "TypeError: unsupported operand type(s) for +: 'range' and 'list'" }],
  ["{{ [1] + range(3) }}", { error: 'TypeError: can only concatenate list (not "range") to list' }],
  ["{{ range(3) * 2 }}", { error: "TypeError: unsupported operand type(s) for *: 'range' and 'int'" }],
  ["{{ range(3).append(1) }}", { error: "'range object' has no attribute 'append'" }],
  ["{{ range(3)|tojson }}", { error: "TypeError: Object of type range is not JSON serializable" }],
  ["{{ range(3)|pprint }}|{{ [range(2)]|pprint }}", "range(0, 3)|[range(0, 2)]"],
  [
    "{% for i in range(3) %}{{ i }}{{ loop.last }}{% endfor %}|{% for i in range(2, -3, -2) %}{{ i }},{% endfor %}",
    "0False1False2True|2,0,-2,",
  ],
  [
    "{{ range(3)|map('string')|join }}|{{ range(6)|batch(4)|list }}|{{ range(4)|select('odd')|list }}|{{ range(3)|sort(reverse=true) }}|{{ dict.fromkeys(range(2)) }}",
    "012|[[0, 1, 2, 3], [4, 5]]|[1, 3]|[2, 1, 0]|{0: None, 1: None}",
  ],
  // random.choice indexes a dict by an int below its size.
  ["{{ {'a': 1}|random }}", { error: "KeyError: 0" }],
  ["{{ {0: 'z'}|random }}", "z"],
  // Scopes: a loop iteration's own, macros as closures.
  ["{% set x = 1 %}{% for i in [1, 2] %}{% set x = x + i %}{{ x }}{% endfor %}|{{ x }}", "23|1"],
  ["{% for i in [1, 2] %}{% set y = (y|default(0)) + i %}{{ y }}{% endfor %}", "12"],
  ["{% for i in [1, 2] %}{% if i == 1 %}{% set y = 5 %}{% endif %}{{ y }}|{% endfor %}", "5||"],
  [
    "{% set ns = namespace(c=0) %}{% for i in range(3) %}{% set ns.c = ns.c + i %}{% endfor %}{{ ns.c }}",
    "3",
  ],
  [
    "{% for x in [1, 2] %}{% set y = x * 10 %}{% macro m(a) %}{{ a }}{{ x }}{{ y }}{% endmacro %}{{ m(0) }}{% endfor %}",
    "01100220",
  ],
  [
    "{% macro outer(v) %}{% macro inner() %}{{ v }}{% endmacro %}{{ inner() }}{% endmacro %}{{ outer(3) }}",
    "3",
  ],
  ["{% macro m() %}{{ y }}{% endmacro %}{% set y = 5 %}{{ m() }}", "5"],
];

describe("Jinja's expressions", () => {
  it.each(JINJA)("%s", (template, output) => {
    expect(outcome(template)).toEqual(output);
  });
});
