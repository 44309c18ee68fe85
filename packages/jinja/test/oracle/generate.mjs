// Builds test/fixtures/jinja-oracle.json: generated template cases rendered by the real Jinja2 (oracle.py), for
// the features of issue 11 and 17 (dunder methods, call splats, recursive loops, Salt's |xml, Python's json reader,
// stray `#}`, mappings built from data, Python results where budgets must not get in the way).
// Needs Debian's Python 3 with python3-jinja2 and python3-yaml:
//   apt-get install -y python3-jinja2 python3-yaml && node test/oracle/generate.mjs
// The tests only read the fixture file; they never need Python.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
let seed = 20260511;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const int = (n) => Math.floor(rnd() * n);
const pick = (a) => a[int(a.length)];
const chance = (p) => rnd() < p;
const cases = [];
const add = (group, template, extra = {}) => cases.push({ group, template, ...extra });

// ---- Python literals for templates ----
const KEYS = ["a", "b", "c", "k", "name", "x-y", "items", "__proto__", "constructor"];
function lit(v) {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string")
    return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
  if (Array.isArray(v)) return `[${v.map(lit).join(", ")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${lit(k)}: ${lit(x)}`)
    .join(", ")}}`;
}
function scalar() {
  return pick([0, 1, 7, -3, 2.5, "x", "yz", "", null, true, false, "it's", "a b"]);
}
function value(depth = 0) {
  const r = rnd();
  if (depth >= 2 || r < 0.55) return scalar();
  if (r < 0.78) return Array.from({ length: int(4) }, () => value(depth + 1));
  const o = {};
  for (let i = int(4); i > 0; i--) o[pick(KEYS)] = value(depth + 1);
  return o;
}
function dict(n = int(4)) {
  const o = {};
  for (let i = 0; i < n; i++) o[pick(KEYS)] = value(1);
  return o;
}

// ---- dunder methods on dicts, lists and strings ----
for (let i = 0; i < 260; i++) {
  const d = dict();
  const l = Array.from({ length: int(4) }, () => scalar());
  const s = pick(["", "abc", "héllo", "a😀b", "x y"]);
  const key = pick([...Object.keys(d), "zz", "a"]);
  const idx = int(l.length + 3) - int(l.length + 3);
  const v = value(1);
  const forms = [
    `{% set d = ${lit(d)} %}{% do d.__setitem__(${lit(key)}, ${lit(v)}) %}{{ d }}`,
    `{% set d = ${lit(d)} %}{{ d.__getitem__(${lit(key)}) }}`,
    `{% set d = ${lit(d)} %}{% do d.__delitem__(${lit(key)}) %}{{ d }}|{{ d.__len__() }}`,
    `{{ ${lit(d)}.__contains__(${lit(key)}) }}|{{ ${lit(d)}.__len__() }}`,
    `{% set d = ${lit(d)} %}{% set f = d.__setitem__ %}{% do f(${lit(key)}, 1) %}{{ d }}`,
    `{% set d = ${lit(d)} %}{% do d['__setitem__'](${lit(key)}, ${lit(v)}) %}{{ d['__getitem__'](${lit(key)}) }}`,
    `{% set l = ${lit(l)} %}{% do l.__setitem__(${idx}, ${lit(v)}) %}{{ l }}`,
    `{{ ${lit(l)}.__getitem__(${idx}) }}`,
    `{% set l = ${lit(l)} %}{% do l.__delitem__(${idx}) %}{{ l }}`,
    `{{ ${lit(l)}.__contains__(${lit(scalar())}) }}|{{ ${lit(l)}.__len__() }}`,
    `{{ ${lit(s)}.__getitem__(${idx}) }}`,
    `{{ ${lit(s)}.__contains__(${lit(pick(["a", "b", "", "é", 1]))}) }}|{{ ${lit(s)}.__len__() }}`,
    `{{ ${lit(d)}.__getitem__() }}`,
    `{% set d = ${lit(d)} %}{% do d.__setitem__(${lit(key)}) %}`,
    `{{ ${lit(l)}.__getitem__(${lit(pick(["0", 1.5, null]))}) }}`,
    `{% set d = {} %}{% for k in ${lit(Object.keys(d))} %}{% do d.__setitem__(k, loop.index) %}{% endfor %}{{ d }}`,
  ];
  add("dunder", pick(forms));
}

// ---- call splats ----
const SIGNATURES = [
  { params: "a", names: ["a"] },
  { params: "a, b=2", names: ["a", "b"] },
  { params: "a, b=2, c='x'", names: ["a", "b", "c"] },
  { params: "", names: [] },
  { params: "a=1", names: ["a"] },
];
const BODIES = [
  (names) => names.map((n) => `{{ ${n} }}`).join("/"),
  (names) => `${names.map((n) => `{{ ${n} }}`).join("/")}|{{ varargs }}`,
  (names) => `${names.map((n) => `{{ ${n} }}`).join("/")}|{{ kwargs }}`,
  (names) => `${names.map((n) => `{{ ${n} }}`).join("/")}|{{ varargs }}|{{ kwargs }}`,
];
function callArgs(names) {
  const parts = [];
  const npos = int(3);
  for (let i = 0; i < npos; i++) parts.push(lit(pick([1, 2, "p", null])));
  if (chance(0.6)) parts.push(`*${lit(Array.from({ length: int(4) }, () => pick([3, "q", true])))}`);
  if (chance(0.3)) parts.push(`${pick([...names, "z"])}=${lit(pick([5, "k"]))}`);
  if (chance(0.6)) {
    const kw = {};
    for (let i = int(3); i > 0; i--) kw[pick([...names, "z", "w"])] = pick([6, "v", null]);
    parts.push(`**${lit(kw)}`);
  }
  return parts.join(", ");
}
for (let i = 0; i < 300; i++) {
  const sig = pick(SIGNATURES);
  const body = pick(BODIES)(sig.names);
  add("splat-macro", `{% macro m(${sig.params}) %}${body}{% endmacro %}{{ m(${callArgs(sig.names)}) }}`);
}
const SPLAT_FORMS = [
  () => `{{ '{}-{}'.format(*${lit([pick([1, "a"]), pick([2, "b"])])}) }}`,
  () => `{{ '{a}/{b}'.format(**${lit({ a: pick([1, "x"]), b: pick([2, "y"]) })}) }}`,
  () => `{{ ${lit(dict(3))}.get(*${lit(pick([["a"], ["zz", "dflt"], ["b", 0]]))}) }}`,
  () => `{{ ${lit(["a", "b", "c"])}.index(*${lit([pick(["a", "c"])])}) }}`,
  () => `{% set d = ${lit(dict(2))} %}{% do d.update(**${lit(dict(2))}) %}{{ d }}`,
  () => `{{ ${lit(pick(["a,b,c", "x", "1,2"]))}.split(*${lit(pick([[","], [",", 1]]))}) }}`,
  () => `{{ ${lit("a,b,c")}.split(**${lit(pick([{ sep: "," }, { sep: ",", maxsplit: 1 }]))}) }}`,
  () => `{{ ${lit(["b", "a", "c"])}|join(*${lit([pick(["-", ", "])])}) }}`,
  () =>
    `{{ ${lit("a-b-a")}|replace(*${lit(
      pick([
        ["a", "x"],
        ["-", "+", 1],
      ]),
    )}) }}`,
  () => `{{ ${lit(pick([null, "", "v"]))}|default(*${lit(pick([["d"], ["d", true]]))}) }}`,
  () => `{{ ${lit([3, 1, 2])}|sort(**${lit(pick([{ reverse: true }, {}]))}) }}`,
  () => `{{ ${lit("hello world")}|truncate(**${lit({ length: 5, end: "!", leeway: 0 })}) }}`,
  () => `{{ range(*${lit(pick([[4], [1, 5], [10, 0, -3]]))})|list }}`,
  () => `{{ dict(*${lit([[["a", 1]]])}, **${lit(pick([{ b: 2 }, {}]))}) }}`,
  () => `{{ dict(**${lit(dict(2))}) }}`,
  () => `{% set n = namespace(**${lit({ a: pick([1, "z"]) })}) %}{{ n.a }}`,
  () => `{{ __salt__['test.arg'](${callArgs(["a"])}) }}`,
  () => `{{ __salt__['pillar.get'](*${lit(pick([["roles"], ["missing", "dflt"], ["env"]]))}) }}`,
  () => `{{ __salt__['pillar.get'](**${lit(pick([{ key: "env" }, { key: "x", default: "d" }]))}) }}`,
  () => `{{ ${pick([6, 7])} is divisibleby(*${lit([3])}) }}`,
  () =>
    `{% macro m() %}{{ caller(*${lit([1, 2])}) }}{% endmacro %}{% call(a, b) m() %}{{ a }}+{{ b }}{% endcall %}`,
  () => `{% macro m(x) %}[{{ x }}{{ caller() }}]{% endmacro %}{% call m(*${lit(["i"])}) %}body{% endcall %}`,
  () => `{{ m(*None) }}`,
  () => `{% macro m(a) %}{{ a }}{% endmacro %}{{ m(*${pick(["1", "none", "nope", "''"])}) }}`,
  () => `{% macro m(a=1) %}{{ a }}{% endmacro %}{{ m(**${pick(["[1]", "none", "nope", "'a'", "{}"])}) }}`,
  () => `{% macro m(a) %}{{ a }}{% endmacro %}{{ m(a=1, **{'a': 2}) }}`,
  () => `{{ m(${pick(["*a, 1", "**a, b=1", "*a, *b", "**a, **b", "**a, *b", "a=1, 2"])}) }}`,
  () => `{% macro m(a, b) %}{{ a }}{{ b }}{% endmacro %}{{ m(*'ab',) }}{{ m(*{'x': 1, 'y': 2}) }}`,
];
for (let i = 0; i < 260; i++)
  add("splat-call", pick(SPLAT_FORMS)(), { vars: { pillar: { roles: ["web", "db"], env: "dev" } } });

// ---- recursive loops ----
function tree(depth = 0) {
  return Array.from({ length: depth > 2 ? 0 : int(4) }, (_, i) => ({
    name: `${String.fromCharCode(97 + depth)}${i}`,
    children: chance(0.7) ? tree(depth + 1) : [],
  }));
}
const RECURSIVE = [
  `{% for x in t recursive %}[{{ x.name }}:{{ loop.depth }}/{{ loop.depth0 }}{{ loop(x.children) }}]{% endfor %}`,
  `{% for x in t recursive %}{{ loop.index }}.{{ x.name }}{% if x.children %}({{ loop(x.children) }}){% endif %}{% if not loop.last %},{% endif %}{% endfor %}`,
  `{%- for x in t recursive %}
{{ '  ' * loop.depth0 }}- {{ x.name }} {{ loop.revindex }}/{{ loop.length }}
{%- if x.children %}{{ loop(x.children) }}{% endif %}
{%- endfor %}`,
  `{% for x in t if x.name[1] != '1' recursive %}{{ x.name }}{{ loop(x.children) }};{% else %}<empty@{{ t|length }}>{% endfor %}`,
  `{% for x in t recursive %}{{ x.name }}{% for y in x.children %}{% if loop.first %}>{% endif %}{% endfor %}{{ loop(x.children) }}{% else %}E{% endfor %}`,
  `{% for x in t recursive %}{% set outer = loop %}{% for c in [x.children] %}{{ outer(c) }}{% endfor %}{{ x.name }}{% endfor %}`,
  `{% for x in t recursive %}{{ loop.cycle('o', 'e') }}{{ x.name }}{{ loop.changed(x.children|length) }}{{ loop(x.children) }}{% endfor %}`,
  `{% for x in t recursive %}{% set sub = loop(x.children) %}{{ x.name }}({{ sub|length }}){{ sub }}{% endfor %}`,
  `{% macro walk(items) %}{% for x in items recursive %}{{ x.name }}<{{ loop(x.children) }}>{% endfor %}{% endmacro %}{{ walk(t) }}|{{ walk([]) }}`,
  `{% for k, v in d.items() recursive %}{{ k }}{% if v is mapping %}({{ loop(v.items()) }}){% else %}={{ v }}{% endif %}{{ ',' if not loop.last }}{% endfor %}`,
  `{% for x in t recursive %}{{ loop.previtem.name if loop.previtem }}>{{ x.name }}>{{ loop.nextitem.name if loop.nextitem }}{{ loop(x.children) }} {% endfor %}`,
  `{% for x in t %}{{ loop(x.children) }}{% endfor %}`,
  `{% for x in t recursive %}{{ loop(x.children, 1) }}{% endfor %}`,
  `{% for x in t recursive %}{{ loop }}{% endfor %}`,
];
function nested(depth = 0) {
  const o = {};
  for (let i = int(3) + 1; i > 0; i--)
    o[pick(["a", "b", "c", "d"])] = depth < 2 && chance(0.5) ? nested(depth + 1) : int(9);
  return o;
}
for (let i = 0; i < 180; i++) add("recursive-loop", pick(RECURSIVE), { vars: { t: tree(), d: nested() } });

// ---- Salt's |xml ----
const XML_KEYS = ["a", "b", "root", "x-y", "_u", "n.m", "k9", "xml:lang", "p:t", "1bad", "sp ace", "é"];
const XML_TEXT = [
  "x",
  "two words",
  "<&>\"'",
  "line1\nline2",
  "tab\there",
  "cr\rlf\r\n",
  "é😀",
  "\u0001",
  " pad ",
  "yes",
];
function xmlValue(depth = 0) {
  const r = rnd();
  if (depth >= 3 || r < 0.4) return pick([...XML_TEXT, 1, 0, -2, 2.5, true, false, null, "", ...XML_TEXT]);
  if (r < 0.6) {
    const kind = int(4);
    const n = int(3) + (chance(0.9) ? 1 : 0);
    if (kind === 0) return Array.from({ length: n }, () => pick(["ab", "xyz", "q", "hello"]));
    if (kind === 1) return Array.from({ length: n }, () => xmlValue(depth + 1));
    if (kind === 2) return Array.from({ length: n }, () => pick([1, 2, 3]));
    return Array.from({ length: n }, () => xmlDict(depth + 1));
  }
  return xmlDict(depth + 1);
}
function xmlDict(depth) {
  const o = {};
  for (let i = int(4) + (chance(0.9) ? 1 : 0); i > 0; i--) {
    const k = chance(0.85) ? pick(XML_KEYS.slice(0, 7)) : pick(XML_KEYS);
    o[k] = xmlValue(depth);
  }
  return o;
}
for (let i = 0; i < 300; i++) {
  const v = chance(0.85)
    ? { [pick(["root", "config", "r"])]: xmlDict(1) }
    : chance(0.5)
      ? xmlDict(0)
      : xmlValue(1);
  add("xml", pick(["{{ v|xml }}", "{{ v|xml|length }}", "<{{ v|xml }}>"]), { vars: { v } });
}
add("xml", "{{ {'root_node': data}|xml }}", {
  vars: { data: { foo: true, bar: 42, baz: [1, 2, 3], qux: 2.5 } },
});
add("xml", "{{ {'a': 1, 'b': [2]}|xml }}");
add("xml", "{{ ['ab', 'cd']|xml }}");
add("xml", "{{ [] |xml }}");
add("xml", "{{ 'text'|xml }}");
add("xml", "{{ {'r': {'xmlns:p': 'urn:x', 'p:a': 1, 'c': {'p:b': 2}}}|xml }}");

// ---- Python's json reader (NaN/Infinity tokens, not text) ----
function jsonValue(depth = 0) {
  const r = rnd();
  if (depth >= 3 || r < 0.5)
    return pick([
      "NaN",
      "Infinity",
      "-Infinity",
      '"NaN"',
      '"Infinity War"',
      '"Avengers: Infinity War"',
      '"-Infinity and NaN"',
      "1",
      "-0",
      "0.25",
      "-1.5e-3",
      "1e400",
      "-1E999",
      "12345678901234567890",
      "-9007199254740993",
      "true",
      "null",
      '"\\u00e9\\ud83d\\ude00"',
      '"tab\\tq\\"\\\\/"',
      '""',
    ]);
  if (r < 0.75)
    return `[${Array.from({ length: int(4) }, () => jsonValue(depth + 1)).join(pick([",", ", ", " ,\n "]))}]`;
  const keys = ["a", "b", "NaN", "Infinity", "__proto__", "a"];
  return `{${Array.from({ length: int(4) }, () => `"${pick(keys)}"${pick([":", ": ", " : "])}${jsonValue(depth + 1)}`).join(", ")}}`;
}
const JSON_BROKEN = [
  "-NaN",
  "nan",
  "infinity",
  "+1",
  "01",
  "1.",
  ".5",
  "[1,]",
  '{"a":1,}',
  "{'a': 1}",
  '"\\x41"',
  '"\\u12"',
  '"a\u0001b"',
  "[1 2]",
  '{"a" 1}',
  '"abc',
  "",
  "   ",
  "NaNa",
  "[Infinity1]",
  "\ufeff1",
  "\f1",
  "[1]]",
  "True",
];
for (let i = 0; i < 320; i++) {
  const text = chance(0.8) ? jsonValue() : pick(JSON_BROKEN);
  const form = int(5);
  if (form === 0) add("json", "{% set x = text|load_json %}{{ x }}", { vars: { text } });
  else if (form === 1) add("json", "{% set x = text|load_json %}{{ x|json }}", { vars: { text } });
  else if (form === 2)
    add("json", `{% load_json as x %}${text.replace(/[{}%#]/g, (c) => `{{ '${c}' }}`)}{% endload %}{{ x }}`);
  else if (form === 3)
    add("json", '{% import_json "data.json" as x %}{{ x }}', { files: { "data.json": text } });
  else
    add(
      "json",
      "{% set x = text|load_json %}{% if x is mapping %}{{ x.keys()|list }}{% else %}{{ x is number }}{% endif %}",
      {
        vars: { text },
      },
    );
}

// ---- a stray #} in template text ----
const STRAY = [
  "a #} b",
  "#}",
  "{# c #} #} {# d #}",
  "x#}y#}z",
  "{{ '#}' }}#}",
  "{% if true %}#}{% endif %}",
  "{% raw %}#}{% endraw %}",
  "{#- trimmed -#}  #}",
  "text {# open",
  "{{ x }}#}{{ x }}",
  "#}{% for i in [1, 2] %}{{ i }}#}{% endfor %}",
  "key: value #} comment-like",
  "{# a #}#}{# b #}",
];
for (const t of STRAY) add("stray-comment-end", t, { vars: { x: 1 } });
const STRAY_PIECES = [
  "#}",
  "#",
  "}",
  "}}",
  " ",
  "\n",
  "text",
  "{# c #}",
  "{#- c -#}",
  "{{ x }}",
  "{{- x -}}",
  "-#}",
  "{{ '#}' }}",
];
for (let i = 0; i < 120; i++) {
  let t = "";
  for (let n = int(8) + 2; n > 0; n--) t += pick(STRAY_PIECES);
  if (chance(0.3)) t = `{% if x %}${t}{% endif %}`;
  add("stray-comment-end", t, { vars: { x: pick([1, 0]) } });
}

// ---- mappings built from data: keys are data ----
// JSON.parse makes `__proto__` an own key, as a grain or pillar value read from JSON or YAML is.
const HOSTILE = JSON.parse(
  '{"__proto__": {"is_admin": true}, "constructor": {"prototype": 1}, "toString": "x", "a": 1}',
);
const MAPPING_FORMS = [
  "{{ dict(g) }}|{{ dict(g).is_admin }}|{{ dict(g)['__proto__'] }}",
  "{{ dict(g, extra=1) }}",
  "{{ dict(g.items()) }}|{{ dict(g.items()|list).toString }}",
  "{% set n = namespace(g) %}{{ n['__proto__'] }}|{{ n.is_admin }}|{{ n.a }}",
  "{% set d = {} %}{% do d.update(g) %}{{ d }}|{{ d.is_admin }}",
  "{% set d = {} %}{% do d.setdefault('__proto__', {'is_admin': True}) %}{{ d }}|{{ d.is_admin }}",
  "{{ g|dictsort }}",
  '{% set x = \'{"__proto__": {"is_admin": true}}\'|load_json %}{{ x }}|{{ x.is_admin }}',
  "{{ dict.fromkeys(['__proto__', 'constructor'], 1) }}",
  "{% set x = {'__proto__': 1, 'constructor': 2} %}{{ x }}|{{ x|length }}",
  "{{ dict(**g) }}",
  "{{ dict() }}|{{ dict(a=1, b=2) }}|{{ dict([['a', 1], ('b', 2)]) }}|{{ dict(['ab', 'cd']) }}",
  "{{ dict(1) }}",
  "{{ dict([1]) }}",
  "{{ dict(['abc']) }}",
  "{{ dict({}, {}) }}",
  "{{ dict(none) }}",
  "{{ dict(nope) }}",
  "{{ dict({'a': 1}.items(), a=2) }}",
  "{% set d = {'a': 1} %}{% do d.update([['b', 2]], c=3) %}{{ d }}",
  "{% set d = {'a': 1} %}{% do d.update(none) %}",
  "{% set d = {'a': 1} %}{% do d.update({}, {}) %}",
  "{{ {}.fromkeys('ab') }}|{{ dict.fromkeys([]) }}",
];
for (const t of MAPPING_FORMS) add("mapping", t, { vars: { g: HOSTILE } });
const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "a",
  "__keywords",
];
function hostile(depth = 0) {
  const o = {};
  for (let n = int(4) + 1; n > 0; n--)
    o[pick(HOSTILE_KEYS)] = depth < 2 && chance(0.4) ? hostile(depth + 1) : scalar();
  return JSON.parse(JSON.stringify(o).replace(/"__proto_x__"/g, '"__proto__"'));
}
const MAPPING_RANDOM = [
  "{{ dict(g) }}|{{ dict(g)|length }}",
  "{{ dict(g.items()) == g }}|{{ dict(**g) == g }}",
  "{% set d = {} %}{% do d.update(g) %}{{ d == g }}|{{ d|dictsort }}",
  "{% set d = {} %}{% for k, v in g.items() %}{% do d.__setitem__(k, v) %}{% endfor %}{{ d }}",
  "{{ g|dictsort(by='key') }}|{{ g.keys()|list }}",
  "{{ (g|tojson|load_json) == g }}|{{ g|json }}",
  "{% set n = namespace(g) %}{{ n[k] }}",
  "{{ dict.fromkeys(g) }}|{{ dict(g).get(k, 'none') }}|{{ k in dict(g) }}",
];
for (let i = 0; i < 120; i++) {
  const g = hostile();
  add("mapping", pick(MAPPING_RANDOM), { vars: { g, k: pick(Object.keys(g)) } });
}

// ---- where Python succeeds, budgets must not get in the way ----
const PYTHON_OK = [
  "{{ 1.5|round(400) }}|{{ 2.675|round(2) }}|{{ 0.25|round(1) }}",
  "{{ '%.1100f' % 0.1 }}",
  "{{ '{:.1100f}'.format(2.5) }}",
  "{{ '%.800e' % 0.1 }}",
  "{{ '%5d|%-6s|%06.2f' % (42, 'ab', 3.14159) }}",
  "{{ '{:>8}|{:^9}|{:08.3f}'.format('r', 'c', 2.5) }}",
  "{{ range(0, 10, 3)|list }}|{{ range(10, 0, -3)|list }}|{{ range(5, 1)|list }}|{{ range(3)|length }}",
  "{{ range(1.5) }}",
  "{{ range(1, 2, 0) }}",
  "{{ range() }}",
  "{{ 'ab'.replace('', '-') }}|{{ 'abc'.replace('', '-', 2) }}|{{ 'aaa'.replace('a', 'bb', 2) }}",
  "{% set l = [1, 2] %}{% do l.extend(l) %}{{ l }}",
  "{{ [1, True, 1.5, '1', 'A', 'a', None, (1, 'a'), (1, 'A')]|unique|list }}",
  "{{ [[1], [1]]|unique|list }}",
  "{% macro m() %}x{% endmacro %}{% call m() %}y{% endcall %}",
  "{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, caller=2) }}",
  "{{ 'x'.center(9, '*') }}|{{ 'ab'.zfill(5) }}|{{ '-7'.zfill(4) }}|{{ 'q'.ljust(3, '.') }}|{{ 'q'.rjust(3) }}",
  "{{ 'x' * 3 }}|{{ [1] * 3 }}|{{ 3 * 'ab' }}|{{ 'x' * -1 }}|{{ [1, 2] * 0 }}",
  "{{ [1, 2, 3]|batch(2, 0)|list }}|{{ [1, 2, 3]|slice(2)|list }}",
  "{{ 'a\nb'|indent(3) }}|{{ 'a\nb'|indent('> ', true) }}",
  "{{ ['a', 'b']|join('-' * 3) }}|{{ '-'.join(['x', 'y']) }}",
  "{{ {'a': [1, {'b': 2}]}|tojson(2) }}",
  "{{ {'a': [1, {'b': 2}]}|json(indent=1) }}",
  "{% set ns = namespace(s='') %}{% for i in range(200) %}{% set ns.s = ns.s ~ i %}{% endfor %}{{ ns.s|length }}",
  "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ n }}{% endif %}{% endmacro %}{{ f(150) }}",
];
for (const t of PYTHON_OK) add("python-results", t);

const out = execFileSync("/usr/bin/python3", [join(here, "oracle.py")], {
  input: JSON.stringify(cases),
  maxBuffer: 1 << 28,
  encoding: "utf8",
});
const { jinja2, python, results } = JSON.parse(out);
const fixture = {
  oracle: `Jinja2 ${jinja2} on Python ${python} (Debian), with Salt's PillarStack environment stood in for by test/oracle/oracle.py`,
  cases: cases.map((c, i) => ({ ...c, expected: results[i] })),
};
writeFileSync(join(here, "../fixtures/jinja-oracle.json"), `${JSON.stringify(fixture, null, 1)}\n`);
const failing = results.filter((r) => r.error !== undefined).length;
process.stderr.write(`${cases.length} cases (${failing} expected errors)\n`);
