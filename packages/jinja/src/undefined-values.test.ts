import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Jinja 3.1.6's output for each template (recorded with Python's jinja2, `pillar` an empty dict): how tests and
// filters treat an undefined value, and Python's errors for a test or filter given the wrong arguments.
const JINJA: readonly [template: string, output: string | { error: string }][] = [
  // Jinja's Undefined is callable, iterable and a sequence; only a string names a test or a filter.
  ["{{ pillar.x is callable }}", "True"],
  ["{{ pillar.x is iterable }}", "True"],
  ["{{ pillar.x is sequence }}", "True"],
  ["{{ pillar.x is mapping }}", "False"],
  ["{{ pillar.x is test }}", "False"],
  ["{{ none is test }}", "False"],
  ["{{ 'upper' is test }}", "True"],
  ["{{ none is filter }}", "False"],
  ["{{ 'int' is filter }}", "True"],
  // Computing with it fails, with the message of the lookup that made it.
  ["{{ pillar.x is even }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x is odd }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x is divisibleby(3) }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ 3 is divisibleby(pillar.x) }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x is gt(1) }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ 2 is lessthan(pillar.x) }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ nope is ge(1) }}", { error: "'nope' is undefined" }],
  ["{{ pillar.x is eq(1) }}", "False"],
  ["{{ pillar.x is ne(1) }}", "True"],
  ["{{ pillar.x|int }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x|int(5) }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ nope|float }}", { error: "'nope' is undefined" }],
  ["{{ pillar.x|indent }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x|filesizeformat }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x|dictsort }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ pillar.x|default(7)|int }}", "7"],
  ["{{ none|int }}", "0"],
  ["{{ 'x'|int(3) }}", "3"],
  // `%` takes an undefined value as Python takes a mapping-like object (Jinja's Undefined has __getitem__).
  ["{{ 'a%sb' % nope }}", "ab"],
  ["{{ 's' % pillar.x }}", "s"],
  ["{{ 'a%%b' % nope }}", "a%b"],
  ["{{ '%r' % nope }}", "Undefined"],
  ["{{ '%5s|' % nope }}", "     |"],
  ["{{ '%(k)s' % nope }}", { error: "'nope' is undefined" }],
  ["{{ '%d' % pillar.x }}", { error: "'dict object' has no attribute 'x'" }],
  ["{{ '%x' % nope }}", { error: "TypeError: %x format: an integer is required, not Undefined" }],
  ["{{ '%c' % nope }}", { error: "TypeError: %c requires int or char" }],
  ["{{ '%s-%s' % nope }}", { error: "TypeError: not enough arguments for format string" }],
  ["{{ nope|attr('x') }}", { error: "'nope' is undefined" }],
  ["{{ (pillar.x)['y'] }}", { error: "'dict object' has no attribute 'x'" }],
  // Arguments bound as Python binds them, named after the functions Jinja implements the tests and filters with.
  ["{{ 2 is even(2) }}", { error: "TypeError: test_even() takes 1 positional argument but 2 were given" }],
  [
    "{{ 2 is divisibleby }}",
    { error: "TypeError: test_divisibleby() missing 1 required positional argument: 'num'" },
  ],
  ["{{ 2 is eq }}", { error: "TypeError: eq expected 2 arguments, got 1" }],
  ["{{ 2 is eq(1, 2) }}", { error: "TypeError: eq expected 2 arguments, got 3" }],
  ["{{ 2 is callable(1) }}", { error: "TypeError: callable() takes exactly one argument (2 given)" }],
  [
    "{{ 'x' is filter(1) }}",
    { error: "TypeError: test_filter() takes 2 positional arguments but 3 were given" },
  ],
  ["{{ 2 is in }}", { error: "TypeError: test_in() missing 1 required positional argument: 'seq'" }],
  [
    "{{ 2 is sameas }}",
    { error: "TypeError: test_sameas() missing 1 required positional argument: 'other'" },
  ],
  ["{{ 2 is even(x=1) }}", { error: "TypeError: test_even() got an unexpected keyword argument 'x'" }],
  ["{{ 2 is divisibleby(num=2) }}", "True"],
  ["{{ 2 is eq(b=2) }}", { error: "TypeError: _operator.eq() takes no keyword arguments" }],
  [
    "{{ 'ab'|replace }}",
    { error: "TypeError: do_replace() missing 2 required positional arguments: 'old' and 'new'" },
  ],
  [
    "{{ 'ab'|replace('a') }}",
    { error: "TypeError: do_replace() missing 1 required positional argument: 'new'" },
  ],
  [
    "{{ 'ab'|replace(new='x') }}",
    { error: "TypeError: do_replace() missing 1 required positional argument: 'old'" },
  ],
  ["{{ 'ab'|replace('a', 'x', count=1) }}", "xb"],
  ["{{ [1]|batch }}", { error: "TypeError: do_batch() missing 1 required positional argument: 'linecount'" }],
  [
    "{{ [1]|slice }}",
    { error: "TypeError: sync_do_slice() missing 1 required positional argument: 'slices'" },
  ],
  [
    "{{ [1]|groupby }}",
    { error: "TypeError: sync_do_groupby() missing 1 required positional argument: 'attribute'" },
  ],
  ["{{ [1]|attr }}", { error: "TypeError: do_attr() missing 1 required positional argument: 'name'" }],
  ["{{ ('ab'|attr('upper'))() }}", "AB"],
  ["{{ {'a': 1}|attr('a') }}", ""],
  ["{{ {'a': 1}|attr('items') is callable }}", "True"],
  ["{{ [1]|map|list }}", { error: "map requires a filter argument" }],
  ["{{ ['a']|map('nosuch')|list }}", { error: "No filter named 'nosuch'." }],
  ["{{ [1]|select('nosuch')|list }}", { error: "No test named 'nosuch'." }],
  ["{{ [3, 4]|select('even')|list }}", "[4]"],
];

describe("undefined values in tests and filters, and their arguments", () => {
  it.each(JINJA)("%s as in Jinja", (template, expected) => {
    expect(outcome(template, { pillar: new PyDict() })).toEqual(expected);
  });
});

// An undefined value used as a dict key stays Jinja's `Undefined`: every undefined key is the same key, never None's
// (recorded with Jinja 3.1.2 and Salt's serializer extension, in the environment PillarStack builds).
const UNDEFINED_KEYS: readonly [template: string, output: string | { error: string }][] = [
  ["{{ {nope: 1} }}", "{Undefined: 1}"],
  ["{{ {nope: 1, other: 2} }}", "{Undefined: 2}"],
  ["{{ {nope: 1, none: 2} }}", "{Undefined: 1, None: 2}"],
  ["{{ {none: 1, nope: 2} }}", "{None: 1, Undefined: 2}"],
  ["{{ none in {nope: 1} }}", "False"],
  ["{{ {nope: 1}.get(none) }}", "None"],
  ["{{ {nope: 1}[other] }}", "1"],
  ["{{ {none: 1}[nope] }}", ""],
  ["{{ {nope: 1} == {none: 1} }}", "False"],
  ["{{ {nope: 1}.keys()|list }}", "[Undefined]"],
  ["{% for k in {nope: 1} %}[{{ k }}]{{ k is defined }}{% endfor %}", "[]False"],
  ["{% set d = {nope: 1} %}{% do d.update({other: 3}) %}{{ d }}", "{Undefined: 3}"],
  ["{{ dict.fromkeys([nope]) }}", "{Undefined: None}"],
  ["{{ {nope: 1}|dictsort }}", "[(Undefined, 1)]"],
  ["{{ {nope: 1}|python }}", "{Undefined: 1}"],
  ["{{ {nope: 1}|yaml }}", "{NULL: 1}"],
  ["{{ {nope: 1}|json }}", { error: "TypeError: keys must be str, int, float, bool or None, not Undefined" }],
  [
    "{{ {nope: 1}|tojson }}",
    { error: "TypeError: keys must be str, int, float, bool or None, not Undefined" },
  ],
  ["{{ {nope: 1}|xml }}", { error: "TypeError: cannot serialize Undefined (type Undefined)" }],
];

describe("an undefined dict key", () => {
  it.each(UNDEFINED_KEYS)("%s as in Jinja", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });
});
