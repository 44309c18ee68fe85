import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Jinja folds literal expressions while it compiles and writes the value into Python code, where a non-finite
// float is read as the unknown name `nan` or `inf`. Outputs recorded with Jinja 3.1.2 and Salt's serializer
// extension, in the environment PillarStack builds.
const NAN = { error: "NameError: name 'nan' is not defined" };
const INF = { error: "NameError: name 'inf' is not defined" };

const FOLDED: readonly [template: string, output: string | { error: string }][] = [
  // Written into code: a variable, a condition, a loop, a default, an argument.
  ["{% set x = 'nan'|float %}{{ x }}", NAN],
  ["{% set y = 1e999 %}{{ y }}", INF],
  ["{% set y = -1e999 %}", INF],
  ["{% set y = 1e308 * 10 %}", INF],
  ["{% set y = 0.0 * 1e999 %}", NAN],
  ["{% set v = '{\"a\": NaN}'|load_json %}{{ v }}", NAN],
  ["{% set v = 'a: .nan'|load_yaml %}{{ v }}", NAN],
  ["{% set v = '[1e999]'|load_json %}", INF],
  ["{% if 'nan'|float %}y{% endif %}", NAN],
  ["{% for i in ['nan'|float] %}{{ i }}{% endfor %}", NAN],
  ["{% macro m(a='inf'|float) %}{{ a }}{% endmacro %}{{ m() }}", INF],
  ["{{ x|default('nan'|float) }}", NAN],
  ["{{ x ~ ('nan'|float) }}", NAN],
  ["{% do [].append('nan'|float) %}", NAN],
  ["{% set d = dict(a='nan'|float) %}", NAN],
  // In `repr()` order: the first non-finite float names the error.
  ["{% set z = [1e999, 'nan'|float] %}", INF],
  ["{% set z = ['nan'|float, 1e999] %}", NAN],
  ["{% set z = {('nan'|float): 1} %}", NAN],
  // What an iterator is made from is folded, though the iterator is not.
  ["{% set z = ['inf'|float]|unique %}", INF],
  ["{% set z = {'a': 1e999}|items %}", INF],
  // Not when the expression around it is folded to a finite value, or to text.
  ["{% set z = [1, 'nan'|float][0] %}{{ z }}", "1"],
  ["{% set z = ('nan'|float) is number %}{{ z }}", "True"],
  ["{% set z = 'nan'|float|string %}{{ z }}", "nan"],
  ["{% set z = 1e999 > 1 %}{{ z }}", "True"],
  ["{{ 'nan'|float }} {{ ['nan'|float] }} {{ ('nan'|float) ~ 'x' }} {{ 1e999 }}", "nan [nan] nanx inf"],
  ["{{ 'nan'|float|int }}", "0"],
  // Nor when it is not run, or not a literal: a call, a name, a filter given the render context.
  ["{% if false %}{% set x = 'nan'|float %}{% endif %}ok", "ok"],
  ["{% macro m(a='inf'|float) %}{{ a }}{% endmacro %}{{ m(1) }}", "1"],
  ["{% set z = 'nan'|float if x else 1 %}{{ z }}", "1"],
  ["{% set z = 'nan,1'.split(',')[0]|float %}{{ z }}", "nan"],
  ["{% set z = ['nan']|map('float')|list %}{{ z }}", "[nan]"],
  ["{% set z = 2.5 %}{{ z }}", "2.5"],
];

describe("Jinja's constant folding of non-finite floats", () => {
  it.each(FOLDED)("%s as in Jinja", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });
});
