import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { outcome } from "./test-vars.js";

// What Salt's own filter code gives (salt/utils/jinja.py's SerializerExtension, yamlencoding, data.traverse_dict_and_list,
// json, yamldumper, with Jinja 3.1.2, PyYAML 6.0 with libyaml, Python 3.11), recorded by running that code. Jinja's
// own exceptions are written without their class name here.
const SALT: readonly [template: string, result: string | { error: string }][] = [
  // |json: salt.utils.json.dumps's encoder writes what JSON has no form for as the string of its str().
  ["{{ nope|json }}", '""'],
  ["{{ {'a': 1}.keys()|json }}", "\"dict_keys(['a'])\""],
  ["{{ range(3)|json }}", '"range(0, 3)"'],
  ["{% macro m() %}{% endmacro %}{{ m|json }}", "\"<Macro 'm'>\""],
  ["{{ namespace(a=1)|json }}", "\"<Namespace {'a': 1}>\""],
  ["{{ {'k': {'a': 1}.values(), 'u': nope}|json(sort_keys=False) }}", '{"k": "dict_values([1])", "u": ""}'],
  ["{{ ({'a': 1}.keys() - [])|json }}", "\"{'a'}\""],
  // ... but keys still have to be JSON keys, and Jinja's tojson still refuses such values.
  ["{{ {(1, 2): 1}|json }}", { error: "TypeError: keys must be str, int, float, bool or None, not tuple" }],
  ["{{ {'a': 1}.keys()|tojson }}", { error: "TypeError: Object of type dict_keys is not JSON serializable" }],
  // |yaml: PyYAML's safe representers go by exact type; Salt's dumper writes NULL for every other type, Markup
  // text (what |json returns) included.
  ["{{ ('a'|safe)|yaml }}", "NULL"],
  [
    "{{ {'a': 'x'|safe, 'b': [1]|json, 'c': range(2), 'd': nope}|yaml }}",
    "{a: NULL, b: NULL, c: NULL, d: NULL}",
  ],
  ["{{ {'a': 1}.keys()|yaml }}", "NULL"],
  ["{{ [{'a': 1}]|groupby('a')|yaml(False) }}", "- NULL"],
  ["{{ ({'a': 1}.keys() - [])|yaml }}", "!!set {a: null}"],
  ["{{ (1, 2)|yaml }}", "[1, 2]"],
  // load_yaml: libyaml reads an exact str only, and asks an undefined value for `read`.
  ["{{ ('a: 1'|safe)|load_yaml }}", { error: "TypeError: a string or stream input is required" }],
  ["{{ ({'a': 1}|yaml)|load_yaml }}", { error: "TypeError: a string or stream input is required" }],
  ["{{ 1|load_yaml }}", { error: "TypeError: a string or stream input is required" }],
  ["{{ none|load_yaml }}", { error: "TypeError: a string or stream input is required" }],
  ["{{ nope|load_yaml }}", { error: "'nope' is undefined" }],
  // load_json reads any text, Markup too; anything else fails (Salt names the value, we do not show it).
  ["{{ ('[1]'|safe)|load_json }}", "[1]"],
  ["{{ 1|load_json }}", { error: "Unable to load json from a int value: not text" }],
  ["{{ 1|load_text }}", "1"],
  // Arguments bound as Python binds Salt's methods and functions.
  [
    "{{ 1|xml(1) }}",
    { error: "TypeError: SerializerExtension.format_xml() takes 2 positional arguments but 3 were given" },
  ],
  [
    "{{ {}|python(1) }}",
    { error: "TypeError: SerializerExtension.format_python() takes 2 positional arguments but 3 were given" },
  ],
  [
    "{{ 'x'|load_yaml(1) }}",
    { error: "TypeError: SerializerExtension.load_yaml() takes 2 positional arguments but 3 were given" },
  ],
  [
    "{{ 'x'|load_text(1) }}",
    { error: "TypeError: SerializerExtension.load_text() takes 2 positional arguments but 3 were given" },
  ],
  [
    "{{ 1|json(1, 2, 3) }}",
    {
      error:
        "TypeError: SerializerExtension.format_json() takes from 2 to 4 positional arguments but 5 were given",
    },
  ],
  [
    "{{ 1|json(x=1) }}",
    { error: "TypeError: SerializerExtension.format_json() got an unexpected keyword argument 'x'" },
  ],
  [
    "{{ 1|yaml(1, 2) }}",
    {
      error:
        "TypeError: SerializerExtension.format_yaml() takes from 2 to 3 positional arguments but 4 were given",
    },
  ],
  [
    "{{ 'a'|yaml_squote(1) }}",
    { error: "TypeError: yaml_squote() takes 1 positional argument but 2 were given" },
  ],
  [
    "{{ 'a'|yaml_dquote(x=1) }}",
    { error: "TypeError: yaml_dquote() got an unexpected keyword argument 'x'" },
  ],
  [
    "{{ 'a'|yaml_encode(1) }}",
    { error: "TypeError: yaml_encode() takes 1 positional argument but 2 were given" },
  ],
  [
    "{{ {}|traverse }}",
    { error: "TypeError: traverse_dict_and_list() missing 1 required positional argument: 'key'" },
  ],
  [
    "{{ {}|traverse('a', 1, ':', 5) }}",
    { error: "TypeError: traverse_dict_and_list() takes from 2 to 4 positional arguments but 5 were given" },
  ],
  // yaml_encode: PyYAML's SafeRepresenter, and Salt's own message for collections.
  [
    "{{ [1]|yaml_encode }}",
    { error: "TypeError: yaml_encode() only works with YAML scalar data; failed for <class 'list'>" },
  ],
  [
    "{{ {}|yaml_encode }}",
    { error: "TypeError: yaml_encode() only works with YAML scalar data; failed for <class 'dict'>" },
  ],
  [
    "{{ (1, 2)|yaml_encode }}",
    { error: "TypeError: yaml_encode() only works with YAML scalar data; failed for <class 'tuple'>" },
  ],
  [
    "{{ ('a'|safe)|yaml_encode }}",
    { error: "RepresenterError: ('cannot represent an object', Markup('a'))" },
  ],
  ["{{ nope|yaml_encode }}", { error: "RepresenterError: ('cannot represent an object', Undefined)" }],
  // traverse iterates any key that is no string or int; an undefined value is indexed (and fails); a tuple or a
  // string is indexed by an int step, and too far is Python's IndexError.
  ["{{ [[1]]|traverse(none) }}", { error: "TypeError: 'NoneType' object is not iterable" }],
  ["{{ {'a': 1}|traverse(1.5) }}", { error: "TypeError: 'float' object is not iterable" }],
  ["{{ {'a': {'b': 1}}|traverse({'a': 1, 'b': 2}) }}", "1"],
  ["{{ {'a': 1}|traverse(nope) }}", "{'a': 1}"],
  ["{{ nope|traverse('a') }}", { error: "'nope' is undefined" }],
  ["{{ __stack__.traverse(nope, 'a') }}", { error: expect.stringContaining("undefined") }],
  ["{{ {'a': (1, 2)}|traverse(['a', 1]) }}", "2"],
  ["{{ {'a': (1, 2)}|traverse('a:1') }}", "None"],
  ["{{ {'a': (1, 2)}|traverse(['a', 5]) }}", { error: "IndexError: tuple index out of range" }],
  ["{{ {'a': 'xyz'}|traverse(['a', -1]) }}", "z"],
  ["{{ __stack__.traverse({'a': (1, 2)}, ['a', 0]) }}", "1"],
  // load_yaml passes what it read through salt.utils.data.decode: YAML's !!binary becomes text (UTF-8), and bytes
  // that are not UTF-8 fail with Python's UnicodeDecodeError.
  [
    "{% set v = 'a: !!binary aGk='|load_yaml %}{{ v }}|{{ v|python }}|{{ v|json }}|{{ v|yaml }}",
    "{'a': 'hi'}|{'a': 'hi'}|{\"a\": \"hi\"}|{a: hi}",
  ],
  ["{% set v = 'a: !!binary J1wiCQo='|load_yaml %}{{ v.a }}|{{ v.a|length }}", "'\\\"\t\n|5"],
  ["{% set v = '? !!binary aGk=\n: [!!binary aGk=]'|load_yaml %}{{ v }}", "{'hi': ['hi']}"],
  [
    "{% set v = 'a: !!binary gA=='|load_yaml %}{{ v }}",
    { error: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte" },
  ],
  // |xml: white space after a tag or attribute name is only space to the XML parser that reads it back.
  ["{{ {'b': {'B': 'a\\n', 'a ': [0.1]}}|xml }}", '<?xml version="1.0" ?>\n<b B="a\n">\n <a>0.1</a>\n</b>\n'],
  [
    "{{ {'b ': {'B ': 'x', 'c\\t': {'d': 1}}}|xml }}",
    '<?xml version="1.0" ?>\n<b B="x">\n <c d="1"/>\n</b>\n',
  ],
  ["{{ {' b': 1}|xml }}", { error: "ExpatError: not well-formed (invalid token)" }],
  // A dict literal's keys are whole expressions in Jinja.
  [
    "{{ {-1: 'a', 1 + 1: 'b', 'x' ~ 'y': 'c', not 1: 'd', 1 if 0 else 3: 'e'} }}",
    "{-1: 'a', 2: 'b', 'xy': 'c', False: 'd', 3: 'e'}",
  ],
  // Data the renderer was not given (here no __opts__ for pillar_merge_lists, no pillar) still gives the default.
  [
    "{{ __salt__['pillar.get']('a', 1, true) }}|{{ __salt__['pillar.get']('a:b', {'x': 1}, merge=true) }}",
    "1|{'x': 1}",
  ],
  // __salt__['defaults.merge'] has Salt 3005's convert_none; dictupdate joins lists only, never tuples.
  [
    "{{ __salt__['defaults.merge'](none, {'a': 1}) }}",
    { error: "TypeError: Can't perform in-place merge into NoneType" },
  ],
  ["{{ __salt__['defaults.merge'](none, {'a': 1}, in_place=false) }}", "{'a': 1}"],
  ["{{ __salt__['defaults.merge']({'a': 1}, none) }}", "{'a': 1}"],
  [
    "{{ __salt__['defaults.merge']({'a': 1}, none, convert_none=false) }}",
    { error: "TypeError: Cannot update using non-dict types in dictupdate.update()" },
  ],
  ["{% set d = {'a': (1,)} %}{{ __salt__['slsutil.update'](d, {'a': (2,)}, true, true) }}", "{'a': (2,)}"],
  ["{{ __salt__['defaults.merge']({'a': [1]}, {'a': [1, 2, 2]}, true) }}", "{'a': [1, 2, 2]}"],
];

describe("Salt's filters, as Salt's own code runs them", () => {
  it.each(SALT)("%s", (template, result) => expect(outcome(template)).toEqual(result));
});

describe("bytes (a stack file's !!binary, which PillarStack's own YAML reading leaves as bytes)", () => {
  const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));
  const holding = (value: Uint8Array) => {
    const v = new PyDict();
    v.set("a", value);
    return { v };
  };

  it("are printed, measured and serialized as Python does", () => {
    expect(outcome("{{ v }}|{{ v|python }}|{{ v|json }}|{{ v|yaml }}", holding(bytes("aGk=")))).toBe(
      "{'a': b'hi'}|{'a': b'hi'}|{\"a\": \"b'hi'\"}|{a: !!binary \"aGk=\\n\"}",
    );
    expect(outcome("{{ v.a }}|{{ v.a|length }}", holding(bytes("J1wiCQo=")))).toBe("b'\\'\\\\\"\\t\\n'|5");
    expect(outcome("{{ v }}|{{ v.a|yaml_encode }}", holding(bytes("gA==")))).toBe("{'a': b'\\x80'}|gA==\n");
  });
});
