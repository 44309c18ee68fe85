import { describe, expect, it } from "vitest";
import { fnmatchCase } from "./salt-dicts.js";
import { renderCase, VARS } from "./test-vars.js";

describe("fnmatchCase", () => {
  it.each([
    ["Debian", "Deb*", true],
    ["Debian", "deb*", false],
    ["Ubuntu-22.04", "Ubuntu-2[0-9].*", true],
    ["Ubuntu", "[!U]*", false],
    ["a.b", "a?b", true],
    ["axb", "a.b", false],
    ["[x]", "[[]x]", true],
    ["a", "[", false],
    ["line\nbreak", "line*", true],
  ])("%s against %s is %s, as Python's fnmatch.fnmatchcase", (name, pattern, expected) => {
    expect(fnmatchCase(name, pattern)).toBe(expected);
  });
});

describe("__salt__['grains.filter_by']", () => {
  // Salt's grains.filter_by (salt.utils.data.filter_by), restated; outputs checked with Jinja2 3.1.2 and that
  // function restated in Python, on the same grains.
  const vars = {
    ...structuredClone(VARS),
    __grains__: { os: "Ubuntu", os_family: "Debian", osfinger: "Ubuntu-22.04", roles: ["web", "db"] },
  };
  const call = (args: string) => `{{ __salt__['grains.filter_by'](${args}) }}`;

  it("picks the entry whose key matches the grain as a pattern, else the default entry", () => {
    const src = [
      call("{'Debian': {'a': 1}, 'RedHat': {'a': 2}}"),
      call("{'Ubuntu-2[0-9].*': 'new', 'default': 'old'}, grain='osfinger'"),
      call("{'[!U]*': 'x', 'default': 'd'}, 'os'"),
      call("{'web': 'W', 'db': 'D'}, grain='roles'"),
      call("{'x': 1, 'default': {'d': 1}}"),
      call("{'x': 1}"),
      call("{'x': 1, 'other': 2}, default='other'"),
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe("{'a': 1}|new|d|W|{'d': 1}|None|2");
  });

  it("merges base under the entry and merge over it, changing the entry as Salt does", () => {
    const src = [
      call("{'Debian': {'a': {'x': 1}}}, merge={'a': {'y': 2}}"),
      call("{'Debian': {'a': 1}, 'common': {'a': 0, 'c': 3}}, base='common'"),
      call("{}, merge={'b': 2}"),
      call("{'Debian': {'a': 1}}, merge=''"),
      "{% set m = {'Debian': {'a': 1}} %}{% do __salt__['grains.filter_by'](m, merge={'b': 2}) %}{{ m }}",
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe(
      "{'a': {'x': 1, 'y': 2}}|{'a': 1, 'c': 3}|{'b': 2}|{'a': 1}|{'Debian': {'a': 1, 'b': 2}}",
    );
  });

  it("refuses a merge value that is not a dict, and arguments Python would refuse", () => {
    expect(() => renderCase(call("{'Debian': {'a': 1}}, merge='str'"), {}, vars)).toThrow(
      "filter_by merge argument must be a dictionary",
    );
    expect(() => renderCase(call(""), {}, vars)).toThrow(
      "filter_by() missing 1 required positional argument: 'lookup_dict'",
    );
  });
});

describe("__salt__['defaults.merge'], ['defaults.deepcopy'] and ['slsutil.update']", () => {
  // Salt's salt/modules/defaults.py and slsutil.py, over salt.utils.dictupdate.update; outputs checked with Jinja2
  // 3.1.2 and those functions restated in Python.
  it("merges into the destination in place, or into a copy, as Salt's defaults.merge does", () => {
    const src = [
      "{% set d = {'a': {'x': 1, 'l': [1]}, 'b': 2} %}{% do __salt__['defaults.merge'](d, {'a': {'y': 2, 'l': [1, 3]}, 'c': 3}) %}{{ d }}",
      "{% set d = {'a': {'l': [1]}} %}{{ __salt__['defaults.merge'](d, {'a': {'l': [1, 3]}}, merge_lists=True) }}",
      "{% set d = {'a': 1} %}{{ __salt__['defaults.merge'](d, {'b': 2}, in_place=False) }}{{ d }}",
      "{% set s = {'a': [1]} %}{% set c = __salt__['defaults.deepcopy'](s) %}{% do c.a.append(2) %}{{ s }}{{ c }}",
    ].join("|");
    expect(renderCase(src)).toBe(
      "{'a': {'x': 1, 'l': [1, 3], 'y': 2}, 'b': 2, 'c': 3}|{'a': {'l': [1, 3]}}|{'a': 1, 'b': 2}{'a': 1}|{'a': [1]}{'a': [1, 2]}",
    );
    expect(() => renderCase("{{ __salt__['defaults.merge']({'a': 1}, 'x') }}")).toThrow(
      "Cannot update using non-dict types in dictupdate.update()",
    );
  });

  it("updates recursively or not, as Salt's slsutil.update does", () => {
    const src = [
      "{{ __salt__['slsutil.update']({'a': {'x': 1}}, {'a': {'y': 2}}) }}",
      "{{ __salt__['slsutil.update']({'a': {'x': 1}}, {'a': {'y': 2}}, recursive_update=False) }}",
      "{{ __salt__['slsutil.update']({'a': [1, 2]}, {'a': [2, 3, 3]}, merge_lists=True) }}",
    ].join("|");
    expect(renderCase(src)).toBe("{'a': {'x': 1, 'y': 2}}|{'a': {'y': 2}}|{'a': [1, 2, 3, 3]}");
  });
});
