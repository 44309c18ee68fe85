import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Python 3.11's answers (recorded through Jinja 3.1.6) for string methods templates call: the ones Python has that
// were missing (rpartition, rindex, removeprefix, removesuffix, casefold, isdecimal, isidentifier, istitle,
// expandtabs, translate, format_map), title case (`ß` is `Ss`), and `split`/`rsplit` of white space with a limit.
const PYTHON: readonly [template: string, output: string | { error: string }][] = [
  ["{{ 'node01.example.org'.rpartition('.') }}", "('node01.example', '.', 'org')"],
  ["{{ 'node01.example.org'.rpartition('x') }}", "('node01.e', 'x', 'ample.org')"],
  ["{{ 'node01.example.org'.removeprefix('node') }}", "01.example.org"],
  ["{{ 'node01.example.org'.removesuffix('.org') }}", "node01.example"],
  ["{{ 'node01.example.org'.removeprefix('') }}", "node01.example.org"],
  ["{{ 'node01.example.org'.casefold() }}", "node01.example.org"],
  ["{{ 'node01.example.org'.isdecimal() }}", "False"],
  ["{{ 'node01.example.org'.isidentifier() }}", "False"],
  ["{{ 'node01.example.org'.istitle() }}", "False"],
  ["{{ 'node01.example.org'.expandtabs() }}", "node01.example.org"],
  ["{{ 'node01.example.org'.expandtabs(4) }}", "node01.example.org"],
  ["{{ 'node01.example.org'.translate({46: '/', 111: None}) }}", "nde01/example/rg"],
  ["{{ 'node01.example.org'.format_map({'a': 1}) }}", "node01.example.org"],
  ["{{ 'node01.example.org'.rindex('o') }}", "15"],
  ["{{ 'node01.example.org'.title() }}", "Node01.Example.Org"],
  ["{{ 'node01.example.org'.capitalize() }}", "Node01.example.org"],
  ["{{ 'node01.example.org'.split(None, 1) }}", "['node01.example.org']"],
  ["{{ 'node01.example.org'.rsplit(None, 1) }}", "['node01.example.org']"],
  ["{{ '  Hello World  '.rpartition('.') }}", "('', '', '  Hello World  ')"],
  ["{{ '  Hello World  '.rpartition('x') }}", "('', '', '  Hello World  ')"],
  ["{{ '  Hello World  '.removeprefix('node') }}", "  Hello World  "],
  ["{{ '  Hello World  '.removesuffix('.org') }}", "  Hello World  "],
  ["{{ '  Hello World  '.removeprefix('') }}", "  Hello World  "],
  ["{{ '  Hello World  '.casefold() }}", "  hello world  "],
  ["{{ '  Hello World  '.isdecimal() }}", "False"],
  ["{{ '  Hello World  '.isidentifier() }}", "False"],
  ["{{ '  Hello World  '.istitle() }}", "True"],
  ["{{ '  Hello World  '.expandtabs() }}", "  Hello World  "],
  ["{{ '  Hello World  '.expandtabs(4) }}", "  Hello World  "],
  ["{{ '  Hello World  '.translate({46: '/', 111: None}) }}", "  Hell Wrld  "],
  ["{{ '  Hello World  '.format_map({'a': 1}) }}", "  Hello World  "],
  ["{{ '  Hello World  '.rindex('o') }}", "9"],
  ["{{ '  Hello World  '.title() }}", "  Hello World  "],
  ["{{ '  Hello World  '.capitalize() }}", "  hello world  "],
  ["{{ '  Hello World  '.split(None, 1) }}", "['Hello', 'World  ']"],
  ["{{ '  Hello World  '.rsplit(None, 1) }}", "['  Hello', 'World']"],
  ["{{ 'ÄÖü ß'.rpartition('.') }}", "('', '', 'ÄÖü ß')"],
  ["{{ 'ÄÖü ß'.rpartition('x') }}", "('', '', 'ÄÖü ß')"],
  ["{{ 'ÄÖü ß'.removeprefix('node') }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.removesuffix('.org') }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.removeprefix('') }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.casefold() }}", "äöü ss"],
  ["{{ 'ÄÖü ß'.isdecimal() }}", "False"],
  ["{{ 'ÄÖü ß'.isidentifier() }}", "False"],
  ["{{ 'ÄÖü ß'.istitle() }}", "False"],
  ["{{ 'ÄÖü ß'.expandtabs() }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.expandtabs(4) }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.translate({46: '/', 111: None}) }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.format_map({'a': 1}) }}", "ÄÖü ß"],
  ["{{ 'ÄÖü ß'.rindex('o') }}", { error: "ValueError: substring not found" }],
  ["{{ 'ÄÖü ß'.title() }}", "Äöü Ss"],
  ["{{ 'ÄÖü ß'.capitalize() }}", "Äöü ß"],
  ["{{ 'ÄÖü ß'.split(None, 1) }}", "['ÄÖü', 'ß']"],
  ["{{ 'ÄÖü ß'.rsplit(None, 1) }}", "['ÄÖü', 'ß']"],
  ["{{ 'tab\\tsep\\tx'.rpartition('.') }}", "('', '', 'tab\\tsep\\tx')"],
  ["{{ 'tab\\tsep\\tx'.rpartition('x') }}", "('tab\\tsep\\t', 'x', '')"],
  ["{{ 'tab\\tsep\\tx'.removeprefix('node') }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.removesuffix('.org') }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.removeprefix('') }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.casefold() }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.isdecimal() }}", "False"],
  ["{{ 'tab\\tsep\\tx'.isidentifier() }}", "False"],
  ["{{ 'tab\\tsep\\tx'.istitle() }}", "False"],
  ["{{ 'tab\\tsep\\tx'.expandtabs() }}", "tab     sep     x"],
  ["{{ 'tab\\tsep\\tx'.expandtabs(4) }}", "tab sep x"],
  ["{{ 'tab\\tsep\\tx'.translate({46: '/', 111: None}) }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.format_map({'a': 1}) }}", "tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.rindex('o') }}", { error: "ValueError: substring not found" }],
  ["{{ 'tab\\tsep\\tx'.title() }}", "Tab\tSep\tX"],
  ["{{ 'tab\\tsep\\tx'.capitalize() }}", "Tab\tsep\tx"],
  ["{{ 'tab\\tsep\\tx'.split(None, 1) }}", "['tab', 'sep\\tx']"],
  ["{{ 'tab\\tsep\\tx'.rsplit(None, 1) }}", "['tab\\tsep', 'x']"],
];

describe("string methods", () => {
  it.each(PYTHON)("%s as in Python", (template, expected) => {
    expect(outcome(template)).toEqual(expected);
  });

  it("keep the white space Python keeps when a limit stops the split", () => {
    expect(
      outcome(
        "{{ '  a b  '.split(None, 1) }}|{{ '  a b  '.rsplit(None, 1) }}|{{ '  a b  '.rsplit(None, 2) }}",
      ),
    ).toBe("['a', 'b  ']|['  a', 'b']|['a', 'b']");
  });
});
