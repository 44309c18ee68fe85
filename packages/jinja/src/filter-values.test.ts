import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Jinja 3.1.6's output for each (recorded with Python's jinja2): filters given values of other types than the usual
// ones. `map`, `select`, `reject` and their `attr` forms give nothing for a false value (None included), `sort` keeps
// the order of items whose attribute is undefined, `truncate` gives back a short list, `indent` takes text only,
// `urlencode` unpacks each item of a list into two, `filesizeformat` converts as `float()` does.
const JINJA: readonly [template: string, output: string | { error: string }][] = [
  ["{{ [1,2,3]|truncate(5) }}", "[1, 2, 3]"],
  [
    "{{ [1,2,3,4,5,6,7,8,9,10,11]|truncate(5) }}",
    { error: "AttributeError: 'list' object has no attribute 'rsplit'" },
  ],
  ["{{ {'a':1}|truncate(5) }}", "{'a': 1}"],
  ["{{ 42|truncate(5) }}", { error: "TypeError: object of type 'int' has no len()" }],
  ["{{ none|truncate(5) }}", { error: "TypeError: object of type 'NoneType' has no len()" }],
  ["{{ 12345678901234|truncate(5) }}", { error: "TypeError: object of type 'int' has no len()" }],
  ["{{ 42|indent }}", { error: "TypeError: unsupported operand type(s) for +=: 'int' and 'str'" }],
  ["{{ none|indent }}", { error: "TypeError: unsupported operand type(s) for +=: 'NoneType' and 'str'" }],
  ["{{ [1]|indent }}", { error: "AttributeError: 'list' object has no attribute 'splitlines'" }],
  ["{{ {'a':1}|indent }}", { error: "TypeError: unsupported operand type(s) for +=: 'dict' and 'str'" }],
  ["{{ 'a\nb'|indent }}", "a\n    b"],
  ["{{ [('a', 1), ('b', 2)]|urlencode }}", "a=1&b=2"],
  ["{{ [['a', 1]]|urlencode }}", "a=1"],
  ["{{ ['ab']|urlencode }}", "a=b"],
  ["{{ ['abc']|urlencode }}", { error: "ValueError: too many values to unpack (expected 2)" }],
  ["{{ [1]|urlencode }}", { error: "TypeError: cannot unpack non-iterable int object" }],
  ["{{ [{'k': 1, 'j': 2}]|urlencode }}", "k=j"],
  ["{{ [{'k': 1}]|urlencode }}", { error: "ValueError: not enough values to unpack (expected 2, got 1)" }],
  ["{{ [[1,2,3]]|urlencode }}", { error: "ValueError: too many values to unpack (expected 2)" }],
  ["{{ 42|urlencode }}", "42"],
  ["{{ none|urlencode }}", "None"],
  ["{{ '1000'|filesizeformat }}", "1.0 kB"],
  ["{{ '1e6'|filesizeformat }}", "1.0 MB"],
  ["{{ 'x'|filesizeformat }}", { error: "ValueError: could not convert string to float: 'x'" }],
  [
    "{{ none|filesizeformat }}",
    { error: "TypeError: float() argument must be a string or a real number, not 'NoneType'" },
  ],
  [
    "{{ [1]|filesizeformat }}",
    { error: "TypeError: float() argument must be a string or a real number, not 'list'" },
  ],
  ["{{ true|filesizeformat }}", "1 Byte"],
  ["{{ 1500|filesizeformat(true) }}", "1.5 KiB"],
  ["{{ [1]|dictsort }}", { error: "AttributeError: 'list' object has no attribute 'items'" }],
  ["{{ 'ab'|dictsort }}", { error: "AttributeError: 'str' object has no attribute 'items'" }],
  ["{{ 42|dictsort }}", { error: "AttributeError: 'int' object has no attribute 'items'" }],
  ["{{ none|dictsort }}", { error: "AttributeError: 'NoneType' object has no attribute 'items'" }],
  ["{{ 42|last }}", { error: "TypeError: 'int' object is not reversible" }],
  ["{{ {'a': 1, 'b': 2}|last }}", "b"],
  ["{{ 'abc'|last }}", "c"],
  ["{{ [1,2]|last }}", "2"],
  ["{{ []|last }}", ""],
  ["{{ 42|reverse }}", { error: "argument must be iterable" }],
  ["{{ none|reverse }}", { error: "argument must be iterable" }],
  ["{{ {'a':1}|reverse|list }}", "['a']"],
  ["{{ none|map('string')|list }}", "[]"],
  ["{{ 0|select|list }}", "[]"],
  ["{{ ''|reject|list }}", "[]"],
  ["{{ none|selectattr('x')|list }}", "[]"],
  ["{{ []|map('upper')|list }}", "[]"],
  ["{{ none|map(attribute='x')|join(',') }}", ""],
  ["{{ [3,1,2]|sort(attribute='v') }}", "[3, 1, 2]"],
  ["{{ [{'v':2},{'v':1}]|sort(attribute='v') }}", "[{'v': 1}, {'v': 2}]"],
  ["{{ ['b','A']|sort }}", "['A', 'b']"],
  ["{{ [[2,1],[1,2]]|sort }}", "[[1, 2], [2, 1]]"],
  ["{{ [2,1]|sort(attribute='0') }}", "[2, 1]"],
  ["{{ 'hello'|center(9) }}", "  hello  "],
  [
    "{{ 'hello'|center(9, '*') }}",
    { error: "TypeError: do_center() takes from 1 to 2 positional arguments but 3 were given" },
  ],
  ["{{ 'abc'|truncate(2) }}", { error: "AssertionError: expected length >= 3, got 2" }],
  ["{{ 'hello world foo'|truncate(11, false, '!', 0) }}", "hello!"],
  [
    "{% set ns = namespace(toString=1, b=[1]) %}{{ ns }}|{{ [ns] }}|{{ ns.toString }}",
    "<Namespace {'toString': 1, 'b': [1]}>|[<Namespace {'toString': 1, 'b': [1]}>]|1",
  ],
];

describe("filters on values of other types", () => {
  it.each(JINJA)("%s as in Jinja", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });
});
