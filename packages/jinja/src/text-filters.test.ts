import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// Jinja 3.1.6's output for each (recorded with Python's jinja2; `s` is the third item when there is one): the text
// filters `wordwrap` (Python's textwrap), `xmlattr` and `urlize`; `int` with a base of 0 or one Python refuses;
// filters on a `{% set %}` block; and `d.keys()`, `d.values()`, `d.items()` as the views they are in Python 3 (no
// indexing, no list equality, no `+`, not JSON, their own repr). Jinja's own exceptions are written without their
// class name, as UndefinedError always was (`FilterArgumentError: ` is dropped), and an unknown filter is the
// compile error every unknown filter gets.
const JINJA: readonly [template: string, output: string | { error: string }, s?: string][] = [
  [
    "{{ s|wordwrap(10) }}",
    "The quick\nbrown fox\njumps over\nthe lazy\ndog",
    "The quick brown fox jumps over the lazy dog",
  ],
  ["{{ s|wordwrap(5) }}", "a ver\nylong\nword\nhere", "a verylongword here"],
  ["{{ s|wordwrap(5, false) }}", "a\nverylongword\nhere", "a verylongword here"],
  ["{{ s|wordwrap(6) }}", "well-\nknown\nlong-h\nyphena\nted-\nword", "well-known long-hyphenated-word"],
  [
    "{{ s|wordwrap(6, break_on_hyphens=false) }}",
    "well-k\nnown l\nong-hy\nphenat\ned-wor\nd",
    "well-known long-hyphenated-word",
  ],
  ["{{ s|wordwrap(8) }}", "one--two\nthree --\nfour", "one--two three -- four"],
  [
    "{{ s|wordwrap(4) }}",
    "line\none\n\nline\ntwo\nis l\nonge\nr\nend",
    "line one\n\nline two is longer\r\nend",
  ],
  ["{{ s|wordwrap(3, wrapstring='<br>') }}", "ab<br>cd<br>ef", "ab cd ef"],
  ["{{ s|wordwrap(4) }}", "lead\ntab\ntrai\nl", "  lead\ttab   trail  "],
  ["{{ s|wordwrap(3) }}", "😀😀😀\n😀 é\n-ü-\nö", "😀😀😀😀 é-ü-ö"],
  ["{{ s|wordwrap(2) }}", "--\n--\na-\nb", "---- a-b"],
  ["{{ ''|wordwrap }}", ""],
  ["{{ 'abc'|wordwrap(0) }}", { error: "ValueError: invalid width 0 (must be > 0)" }],
  [
    "{{ 'abc def'|wordwrap(2.5) }}",
    { error: "TypeError: slice indices must be integers or None or have an __index__ method" },
  ],
  [
    "{{ 'abc'|wordwrap('3') }}",
    { error: "TypeError: '<=' not supported between instances of 'str' and 'int'" },
  ],
  ["{{ 42|wordwrap }}", { error: "AttributeError: 'int' object has no attribute 'splitlines'" }],
  ["{{ missing|wordwrap }}", { error: "'missing' is undefined" }],
  [
    "{{ 'a b'|wordwrap(1, wrapstring=3) }}",
    { error: "AttributeError: 'int' object has no attribute 'join'" },
  ],
  ["{{ 'a b'|wordwrap(1, wrapstring=none) }}", "a\nb"],
  [
    "{{ {'class': 'x y', 'id': 7, 'skip': none, 'q': '\"<&>'}|xmlattr }}",
    ' class="x y" id="7" q="&#34;&lt;&amp;&gt;"',
  ],
  ["{{ {'a': 1}|xmlattr(false) }}", 'a="1"'],
  ["{{ {}|xmlattr }}|", "|"],
  ["{{ {'a': missing}|xmlattr }}|", "|"],
  ["{{ {'a b': 1}|xmlattr }}", { error: "ValueError: Invalid character in attribute name: 'a b'" }],
  ["{{ {'a=': 1}|xmlattr }}", { error: "ValueError: Invalid character in attribute name: 'a='" }],
  ["{{ {1: 2}|xmlattr }}", { error: "TypeError: expected string or bytes-like object, got 'int'" }],
  ["{{ [1]|xmlattr }}", { error: "AttributeError: 'list' object has no attribute 'items'" }],
  ["{{ {'a': [1, '<']}|xmlattr }}", ' a="[1, &#39;&lt;&#39;]"'],
  [
    "{{ s|urlize }}",
    'see <a href="http://example.com/a?b=c" rel="noopener">http://example.com/a?b=c</a>, <a href="https://www.example.org" rel="noopener">www.example.org</a>. and (<a href="https://x.io/p" rel="noopener">https://x.io/p</a>)',
    "see http://example.com/a?b=c, www.example.org. and (https://x.io/p)",
  ],
  [
    "{{ s|urlize }}",
    'mail <a href="mailto:me@example.com">me@example.com</a> or mailto:you@example.net; not @a@b.c or a@b',
    "mail me@example.com or mailto:you@example.net; not @a@b.c or a@b",
  ],
  [
    "{{ s|urlize }}",
    'bare <a href="https://example.com" rel="noopener">example.com</a> and example.dev, ip <a href="http://10.0.0.1:8080/x" rel="noopener">http://10.0.0.1:8080/x</a> and <a href="http://[::1]/" rel="noopener">http://[::1]/</a>',
    "bare example.com and example.dev, ip http://10.0.0.1:8080/x and http://[::1]/",
  ],
  [
    "{{ s|urlize(10, true, '_blank', 'me') }}",
    '<a href="https://a-very-long-host.example.com/path" rel="me nofollow noopener" target="_blank">https://a-...</a>',
    "https://a-very-long-host.example.com/path",
  ],
  [
    "{{ s|urlize(extra_schemes=['ftp://', 'tel:']) }}",
    '<a href="ftp://files.example.com" rel="noopener">ftp://files.example.com</a> <a href="tel:+123" rel="noopener">tel:+123</a> ftp://',
    "ftp://files.example.com tel:+123 ftp://",
  ],
  [
    "{{ s|urlize }}",
    '&lt;<a href="http://a.com/(x)" rel="noopener">http://a.com/(x)</a>&gt; &amp;lt;www.b.com&amp;gt; <a href="http://c.com/((x)" rel="noopener">http://c.com/((x)</a>',
    "<http://a.com/(x)> &lt;www.b.com&gt; http://c.com/((x)",
  ],
  ["{{ s|urlize(rel='') }}", '<a href="http://a.com" rel="noopener">http://a.com</a>', "http://a.com"],
  ["{{ 'x'|urlize(extra_schemes=['x']) }}", { error: "'x' is not a valid URI scheme prefix." }],
  ["{{ 'a@b.c'|urlize(rel=3) }}", { error: "AttributeError: 'int' object has no attribute 'split'" }],
  ["{{ missing|urlize }}|", "|"],
  ["{{ 5|urlize }}", "5"],
  [
    "{{ '0b11'|int(base=0) }}|{{ '0x1A'|int(0, 0) }}|{{ '010'|int(base=0) }}|{{ '00'|int(base=0) }}|{{ '12'|int(7, 37) }}|{{ '12'|int(7, '16') }}|{{ 'z'|int(7, 36) }}",
    "3|26|10|0|12|12|35",
  ],
  ["{% set x | upper | replace('A', 'z') %}ab{{ 1 }}{% endset %}{{ x }}", "zB1"],
  ["{% set x | trim %}  ab  {% endset %}[{{ x }}]", "[ab]"],
  ["{% set a, b | upper %}ab{% endset %}{{ a }}{{ b }}", "AB"],
  ["{% set x | nosuchfilter %}ab{% endset %}", { error: "No filter named 'nosuchfilter'." }],
  ["{% set d = {'b': 1, 'a': [1, 2]} %}{{ d.items()[0] }}|{{ d.keys()[0] }}|{{ d.values()[1] }}", "||"],
  [
    "{% set d = {'b': 1, 'a': [1, 2]} %}{{ d.items()[0][1] }}",
    { error: "dict_items object has no element 0" },
  ],
  [
    "{% set d = {'b': 1, 'a': [1, 2]} %}{{ d.keys()[0:1] }}",
    { error: "TypeError: 'dict_keys' object is not subscriptable" },
  ],
  [
    "{% set d = {'b': 1, 'a': [1, 2]} %}{{ d.keys() == ['b', 'a'] }}|{{ d.keys() == {'a': 0, 'b': 0}.keys() }}|{{ d.items() == {'a': [1, 2], 'b': 1}.items() }}|{{ d.values() == d.values() }}|{{ d.keys() != ['b', 'a'] }}|{{ d.keys()|list == ['b', 'a'] }}",
    "False|True|True|False|True|True",
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys() + ['c'] }}",
    { error: "TypeError: unsupported operand type(s) for +: 'dict_keys' and 'list'" },
  ],
  [
    "{% set d = {'b': 1} %}{{ ['c'] + d.keys() }}",
    { error: 'TypeError: can only concatenate list (not "dict_keys") to list' },
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys() * 2 }}",
    { error: "TypeError: unsupported operand type(s) for *: 'dict_keys' and 'int'" },
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys().index('b') }}",
    { error: "'dict_keys object' has no attribute 'index'" },
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys().isdisjoint(['x']) }}|{{ d.items().isdisjoint([('b', 1)]) }}",
    "True|False",
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys()|tojson }}",
    { error: "TypeError: Object of type dict_keys is not JSON serializable" },
  ],
  [
    "{% set d = {'b': 1} %}{{ d.keys()|random }}",
    { error: "TypeError: 'dict_keys' object is not subscriptable" },
  ],
  [
    "{% set d = {'b': 1, 'a': [1, 2]} %}{{ d.keys()|pprint }}|{{ d.values()|pprint }}|{{ [d.items()]|pprint }}",
    "dict_keys(['b', 'a'])|dict_values([1, [1, 2]])|[dict_items([('b', 1), ('a', [1, 2])])]",
  ],
  [
    "{% set d = {'b': 1, 'a': 2} %}{{ d.keys()|sort }}|{{ d.keys()|first }}|{{ d.keys()|last }}|{{ d.values()|sum }}|{{ 'a' in d.keys() }}|{{ d.keys() is sequence }}",
    "['a', 'b']|b|a|3|True|False",
  ],
];

describe("Jinja's text filters, int bases, filtered set blocks and dict views", () => {
  it.each(JINJA)("%s", (template, output, s) => {
    expect(outcome(template, s === undefined ? {} : { s })).toEqual(output);
  });
});
