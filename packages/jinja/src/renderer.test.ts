import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMergeError, type MergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createRenderer, type TemplateWarning } from "./renderer.js";
import { renderCase, tempTree, VARS } from "./test-vars.js";

function failure(run: () => unknown): MergeError {
  try {
    run();
  } catch (e) {
    if (isMergeError(e)) return e;
    throw e;
  }
  throw new Error("expected a MergeError");
}

describe("errors", () => {
  it("reports a syntax error as TEMPLATE_SYNTAX with file, line and column", () => {
    const e = failure(() => renderCase("a: 1\nb: {% if %}\n"));
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.source?.file).toMatch(/case\.yml$/);
    expect(e.source?.line).toBe(2);
    expect(e.source?.column).toBeGreaterThan(0);
  });

  it("prints an undefined variable as nothing but fails on an attribute of it, naming file and line", () => {
    expect(renderCase("[{{ nope }}]")).toBe("[]");
    const e = failure(() => renderCase("line1\nline2: {{ nope.bar }}\n"));
    expect(e.code).toBe("TEMPLATE_RENDER");
    expect(e.message).toBe("'nope' is undefined");
    expect(e.source?.line).toBe(2);
    expect(e.source?.file).toMatch(/case\.yml$/);
  });

  it("says what Jinja says of the missing step of a dotted path (the position names the expression)", () => {
    const e = failure(() => renderCase("{{ pillar.missing.deeper }}"));
    expect(e.message).toBe("'dict object' has no attribute 'missing'");
    expect(failure(() => renderCase("{{ nope.deeper }}")).message).toBe("'nope' is undefined");
  });

  it("fails on an unknown filter at compile time, as Jinja does", () => {
    const e = failure(() => renderCase("{{ 1|nosuchfilter }}"));
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.message).toBe("No filter named 'nosuchfilter'.");
  });

  it("raises Python's errors for bad operands", () => {
    expect(failure(() => renderCase("{{ 'a' + 1 }}")).message).toBe(
      'TypeError: can only concatenate str (not "int") to str',
    );
    expect(failure(() => renderCase("{{ 10 / 0 }}")).message).toBe("ZeroDivisionError: division by zero");
    expect(failure(() => renderCase("{% for x in 3 %}{% endfor %}")).message).toBe(
      "TypeError: 'int' object is not iterable",
    );
    expect(failure(() => renderCase("{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}")).message).toBe(
      "TypeError: macro 'm' takes not more than 1 argument(s)",
    );
  });

  it("reports an error inside an imported file at that file's line", () => {
    const e = failure(() =>
      renderCase("{% from 'm.sls' import f %}\n{{ f() }}", {
        "m.sls": "{% macro f() %}\nok\n{{ nope.x }}\n{% endmacro %}",
      }),
    );
    expect(e.source?.file).toMatch(/m\.sls$/);
    expect(e.source?.line).toBe(3);
  });

  it("reports a syntax error inside an imported file", () => {
    const e = failure(() => renderCase("{% import 'bad.sls' as b %}", { "bad.sls": "x\n{% for %}" }));
    expect(e.code).toBe("TEMPLATE_SYNTAX");
    expect(e.source?.file).toMatch(/bad\.sls$/);
    expect(e.source?.line).toBe(2);
  });
});

describe("serializer tags", () => {
  it("resolves import_yaml relative to the config file's directory, not the importing file's", () => {
    const dir = tempTree({
      "defaults/app.yml": "port: 8080\n",
      "roles/web.yml": "{% import_yaml 'defaults/app.yml' as app %}port: {{ app.port }}\n",
    });
    const r = createRenderer();
    const file = join(dir, "roles/web.yml");
    const out = r.render(
      "{% import_yaml 'defaults/app.yml' as app %}port: {{ app.port }}\n",
      file,
      VARS,
      join(dir, "config.cfg"),
    );
    expect(out).toBe("port: 8080");
  });

  it("refuses names that leave the config directory, and missing files", () => {
    expect(failure(() => renderCase("{% import_yaml '../x.yml' as x %}")).message).toContain(
      "TemplateNotFound",
    );
    expect(failure(() => renderCase("{% import_yaml 'missing.yml' as x %}")).message).toBe(
      "TemplateNotFound: missing.yml",
    );
  });

  it("fails on invalid YAML or JSON", () => {
    expect(
      failure(() => renderCase("{% import_yaml 'b.yml' as x %}", { "b.yml": "a: [1\n" })).message,
    ).toMatch(/^Encountered error loading yaml from .*b\.yml: /);
    expect(failure(() => renderCase("{% load_json as j %}{nope{% endload %}")).message).toMatch(
      /^Unable to load json/,
    );
  });

  it("reads the imported YAML the way Salt's loader does", () => {
    const out = renderCase("{% import_yaml 'v.yml' as v %}{{ v }}", {
      "v.yml": "a: [yes, 0123, -012, 1e3, 12:30, 2001-01-01]\n",
    });
    expect(out).toBe("{'a': [True, 123, -10, '1e3', 750, '2001-01-01']}");
  });

  it("load_yaml renders its block with the current variables, including stack", () => {
    expect(
      renderCase("{% load_yaml as y %}\nuid: {{ stack.users.tom.uid }}\n{% endload %}{{ y.uid + 1 }}"),
    ).toBe("501");
  });

  it("renders a file imported without context once per config run, and again for another host", () => {
    const dir = tempTree({ "counter.yml": "{% do pillar.hits.append(1) %}n: {{ pillar.hits|length }}\n" });
    const r = createRenderer();
    const cfg = join(dir, "config.cfg");
    const src = "{% import_yaml 'counter.yml' as c %}{{ c.n }}";
    const host1 = { ...VARS, pillar: { hits: [] as number[] }, minion_id: "h1" };
    expect(r.render(src, join(dir, "a.yml"), host1, cfg)).toBe("1");
    expect(r.render(src, join(dir, "b.yml"), host1, cfg)).toBe("1");
    const host2 = { ...VARS, pillar: { hits: [] as number[] }, minion_id: "h2" };
    expect(r.render(src, join(dir, "a.yml"), host2, cfg)).toBe("1");
  });

  it("makes a template's module once per config run: every import gets the same values, a change included", () => {
    // Jinja keeps a template's module (`_get_default_module`) and PillarStack renders a config's files in one
    // environment: with Debian's jinja2 3.1.2, `two` prints {'a': 1, 'x': 1} after `one` changed the mapping.
    const dir = tempTree({ "d.jinja": "{% set d = {'a': 1} %}{% do pillar.hits.append(1) %}" });
    const r = createRenderer();
    const cfg = join(dir, "config.cfg");
    const host1 = { ...VARS, pillar: { hits: [] as number[] }, minion_id: "h1" };
    const one = "{% from 'd.jinja' import d %}{% do d.update({'x': 1}) %}{{ d }}";
    const two =
      "{% from 'd.jinja' import d %}{{ d }}|{% import 'd.jinja' as m %}{{ m.d }}|{{ pillar.hits|length }}";
    expect(r.render(one, join(dir, "one.yml"), host1, cfg)).toBe("{'a': 1, 'x': 1}");
    expect(r.render(two, join(dir, "two.yml"), host1, cfg)).toBe("{'a': 1, 'x': 1}|{'a': 1, 'x': 1}|1");
    // Another host is another run: a module of its own.
    const host2 = { ...VARS, pillar: { hits: [] as number[] }, minion_id: "h2" };
    expect(r.render(two, join(dir, "two.yml"), host2, cfg)).toBe("{'a': 1}|{'a': 1}|1");
    // With context, Jinja makes the module afresh at every import.
    const fresh = "{% import 'd.jinja' as m with context %}{{ m.d }}|{{ pillar.hits|length }}";
    expect(r.render(fresh, join(dir, "three.yml"), host1, cfg)).toBe("{'a': 1}|2");
  });

  it("exports import_yaml targets, so other templates can import them (Salt's catalog)", () => {
    const out = renderCase("{% from 'catalog.sls' import conf %}{{ conf.x }}", {
      "catalog.sls": "{% load_yaml as conf %}\nx: 42\n{% endload %}",
    });
    expect(out).toBe("42");
  });
});

describe("Salt globals", () => {
  it("provides __salt__ built-ins with ':' paths and defaults", () => {
    const vars = {
      ...structuredClone(VARS),
      pillar: { a: { b: [10, { c: "deep" }] } },
      __grains__: { os: "Debian", ip: ["10.0.0.1"] },
      __opts__: { id: "minion-a", shared: "from-opts" },
    };
    const src = [
      "{{ __salt__['pillar.get']('a:b:0') }}",
      "{{ __salt__['pillar.get']('a:b:c') }}",
      "{{ __salt__['pillar.get']('a:zz', 'dflt') }}",
      "[{{ __salt__['pillar.get']('nope') }}]",
      "{{ __salt__['grains.get']('ip:0') }}",
      "{{ __salt__['grains.get']('os', default='x') }}",
      "{{ __salt__['config.get']('id') }}",
      "{{ __salt__['config.get']('os') }}",
      "{{ __salt__['config.get']('a:b:1:c') }}",
      "{{ __salt__['config.get']('none', 'd') }}",
      "{{ __salt__['pillar.get']('a/b/0', delimiter='/') }}",
      "{{ __salt__['grains.get']('ip/0', '', '/') }}",
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe(
      "10|deep|dflt|[]|10.0.0.1|Debian|minion-a|Debian|deep|d|10|10.0.0.1",
    );
  });

  it("merges pillar.get's default with the pillar's value when merge is true, as Salt's pillar.get does", () => {
    // Salt's salt/modules/pillar.py `get` with `merge=True`: a copy of a mapping default with the pillar's mapping
    // merged in key by key (dictupdate.update), a copy of a list default followed by the pillar's items it lacks;
    // anything else as without `merge`. Outputs checked with Jinja2 3.1.2 and that function restated in Python.
    const vars = {
      ...structuredClone(VARS),
      pillar: { app: { port: 8080, opts: { a: 1 }, l: [2, 3] }, pkgs: ["b", "c", "c"], txt: "text" },
    };
    const get = (args: string) => `{{ __salt__['pillar.get'](${args}) }}`;
    const src = [
      get("'app', {'port': 80, 'host': 'h', 'opts': {'b': 2}}, merge=True"),
      "{% set d = {'x': 1} %}{% set r = __salt__['pillar.get']('nope', d, merge=True) %}{% do r.update({'y': 2}) %}{{ d }}{{ r }}",
      get("'pkgs', ['a', 'b'], merge=True"),
      "{{ __salt__['pillar.get']('app', {'l': [1, 2]}, merge=True, merge_nested_lists=True).l }}",
      "{{ __salt__['pillar.get']('app', {'l': [1, 2]}, True).l }}",
      `${get("'txt', {'a': 1}, merge=True")}${get("'app:zz', 'd', merge=True")}${get("'app:port', [], merge=True")}`,
      get("'app', {'port': 1}, merge=False"),
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe(
      [
        "{'port': 8080, 'host': 'h', 'opts': {'b': 2, 'a': 1}, 'l': [2, 3]}",
        "{'x': 1}{'x': 1, 'y': 2}",
        "['a', 'b', 'c', 'c']",
        "[1, 2, 3]",
        "[2, 3]",
        "textd8080",
        "{'port': 8080, 'opts': {'a': 1}, 'l': [2, 3]}",
      ].join("|"),
    );
  });

  it("gives back an undefined default as undefined, as Jinja's Undefined comes back under Salt", () => {
    // Jinja2 3.1.2: `salt['pillar.get']('x', defaults.nope)` returns the Undefined it was given, which prints as
    // nothing and is not defined (a YAML value left empty, not the text None).
    const src = [
      "[{{ __salt__['pillar.get']('nope', pillar.nope) }}]",
      "[{{ __salt__['pillar.get']('nope', default=pillar.nope) }}]",
      "[{{ __salt__['grains.get']('nope', pillar.nope) }}]",
      "[{{ __salt__['config.get']('nope', pillar.nope) }}]",
      "{{ __salt__['pillar.get']('nope', pillar.nope) is defined }}",
      "[{{ __stack__.traverse(pillar, 'nope', pillar.nope) }}]",
      "[{{ {'a': 1}.get('b', pillar.nope) }}]{{ {'a': 1}.get('b', pillar.nope) is defined }}",
      "{{ {'a': 1}.get('b') }}",
      "{% set d = {} %}[{{ d.setdefault('a', pillar.nope) }}]{{ d }}{{ d.a is defined }}{{ d.setdefault('b') }}",
    ].join("|");
    expect(renderCase(src)).toBe("[]|[]|[]|[]|False|[]|[]False|None|[]{'a': }FalseNone");
  });

  it("gives back the |traverse filter's undefined default as undefined; a default left out is None", () => {
    // Jinja2 3.1.2 with Salt's traverse_dict_and_list as the `traverse` filter, d = {'a': {'b': 1}}.
    const vars = { ...structuredClone(VARS), d: { a: { b: 1 } } };
    const src = [
      "[{{ d|traverse('a:x', nope) }}]",
      "[{{ d|traverse('a:x', default=nope) }}]",
      "{{ d|traverse('a:x', nope) is defined }}",
      "[{{ d|traverse('a:x') }}]",
      "[{{ d|traverse('a:x', none) }}]",
      "[{{ d|traverse('a:b', nope) }}]",
      "[{{ d|traverse('a/x', nope, '/') }}]",
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe("[]|[]|False|[None]|[None]|[1]|[]");
  });

  it("binds __stack__.traverse's arguments by position or keyword, as Python binds traverse_dict_and_list's", () => {
    const vars = { ...structuredClone(VARS), pillar: { a: { b: [10, 20] } } };
    const src = [
      "{{ __stack__.traverse(pillar, 'a:b:1') }}",
      "{{ __stack__.traverse(pillar, 'a:x', default='d') }}",
      "{{ __stack__.traverse(pillar, 'a/b/0', delimiter='/') }}",
      "{{ __stack__.traverse(key='a:b', data=pillar) }}",
      "{{ __stack__.traverse(pillar, 'nope') }}",
    ].join("|");
    expect(renderCase(src, {}, vars)).toBe("20|d|10|[10, 20]|None");
    expect(failure(() => renderCase("{{ __stack__.traverse(pillar, 'a', nope=1) }}")).message).toContain(
      "traverse_dict_and_list() got an unexpected keyword argument 'nope'",
    );
    expect(failure(() => renderCase("{{ __stack__.traverse(pillar) }}")).message).toContain(
      "traverse_dict_and_list() missing 1 required positional argument: 'key'",
    );
  });

  it("gives each config run a __stack__ of its own, which a template may change for that run only", () => {
    const dir = tempTree({});
    const r = createRenderer();
    const cfg = join(dir, "config.cfg");
    const src =
      "{{ __stack__.seen is defined }}{% do __stack__.update({'seen': minion_id}) %}|{{ __stack__.seen }}";
    const host1 = { ...VARS, pillar: {}, minion_id: "h1" };
    expect(r.render(src, join(dir, "a.yml"), host1, cfg)).toBe("False|h1");
    // The same run (host and config): the change shows.
    expect(r.render(src, join(dir, "b.yml"), host1, cfg)).toBe("True|h1");
    // Another host is another run, as PillarStack makes the dict anew for each.
    expect(r.render(src, join(dir, "a.yml"), { ...VARS, pillar: {}, minion_id: "h2" }, cfg)).toBe("False|h2");
  });

  it("provides file.join / dirname / basename / file_exists like os.path", () => {
    const dir = tempTree({ "here.txt": "x" });
    const src = [
      "{{ __salt__['file.join']('a', 'b', 'c.yml') }}",
      "{{ __salt__['file.join']('a/', '/abs', 'x') }}",
      "{{ __salt__['file.dirname']('/srv/pillar/top.sls') }}",
      "{{ __salt__['file.basename']('/srv/pillar/top.sls') }}",
      `{{ __salt__['file.file_exists']('${join(dir, "here.txt")}') }}`,
      `{{ __salt__['file.file_exists']('${join(dir, "nothere.txt")}') }}`,
    ].join("|");
    expect(renderCase(src)).toBe(`a/b/c.yml|/abs/x|/srv/pillar|top.sls|True|False`);
  });

  it("routes log.warning to onWarning and ignores log.debug; log functions return None", () => {
    const warnings: TemplateWarning[] = [];
    const out = renderCase(
      "{% do __salt__['log.debug']('quiet') %}{% do __salt__['log.warning']('careful ' ~ minion_id) %}{{ __salt__['log.info']('x') }}",
      {},
      structuredClone(VARS),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(out).toBe("None");
    expect(warnings.map((w) => w.message)).toEqual(["careful test-1-dev"]);
    expect(warnings[0]?.file).toMatch(/case\.yml$/);
  });

  it("calls the caller's functions, which override built-ins", () => {
    const out = renderCase(
      "{{ __salt__['mine.get']('web*', 'ip') }}|{{ __salt__['pillar.get']('x') }}",
      {},
      structuredClone(VARS),
      {
        salt: {
          "mine.get": (tgt: unknown, fn: unknown) => ({ [String(tgt)]: fn }),
          "pillar.get": () => "mine",
        },
      },
    );
    expect(out).toBe("{'web*': 'ip'}|mine");
  });

  it("gives __stack__.cfg_path and ymlpath", () => {
    const dir = tempTree({});
    const r = createRenderer();
    const cfg = join(dir, "config.cfg");
    expect(r.render("{{ __stack__.cfg_path }}|{{ ymlpath }}", join(dir, "core.yml"), VARS, cfg)).toBe(
      `${cfg}|${join(dir, "core.yml")}`,
    );
    expect(r.render("[{{ ymlpath }}]", cfg, VARS, cfg)).toBe("[]");
  });

  it("leaves __stack__.cfg_path and ymlpath undefined with strictSalt, as Salt's bundled stack.py", () => {
    const dir = tempTree({});
    const cfg = join(dir, "config.cfg");
    const src =
      "[{{ __stack__.cfg_path is defined }}|{{ ymlpath is defined }}|{{ __stack__.traverse({'a': 1}, 'a') }}]";
    const strict = createRenderer({ strictSalt: true });
    expect(strict.render(src, join(dir, "core.yml"), VARS, cfg)).toBe("[False|False|1]");
    const salt = createRenderer({ upstreamPillarStack: false });
    expect(salt.render(src, join(dir, "core.yml"), VARS, cfg)).toBe("[False|False|1]");
    const upstream = createRenderer({ strictSalt: true, upstreamPillarStack: true });
    expect(upstream.render(src, join(dir, "core.yml"), VARS, cfg)).toBe("[True|True|1]");
  });

  it("lets a template change the live stack object that later files see", () => {
    const stack: Record<string, unknown> = { users: { tom: {} } };
    const r = createRenderer();
    const dir = tempTree({});
    r.render(
      "{% do stack.update({'seen': [minion_id]}) %}{% do stack.users.tom.update({'uid': 1}) %}",
      join(dir, "a.yml"),
      { ...VARS, stack },
      join(dir, "c.cfg"),
    );
    expect(stack).toEqual({ users: { tom: { uid: 1 } }, seen: ["test-1-dev"] });
    expect(r.render("{{ stack.seen[0] }}", join(dir, "b.yml"), { ...VARS, stack }, join(dir, "c.cfg"))).toBe(
      "test-1-dev",
    );
  });
});

describe("Salt's extra filters", () => {
  it("yaml_dquote, yaml_squote and yaml_encode quote as PyYAML's emitter", () => {
    const out = renderCase(
      "{{ s|yaml_dquote }}|{{ s|yaml_squote }}|{{ 'a\\nb'|yaml_squote }}|{{ u|yaml_dquote }}|{{ none|yaml_encode }}|{{ true|yaml_encode }}|{{ 12|yaml_encode }}|{{ 1.5|yaml_encode }}|{{ 'yes'|yaml_encode }}",
      {},
      { ...structuredClone(VARS), s: `it's "q"` },
    );
    expect(out).toBe(`"it's \\"q\\""|'it''s "q"'|'a\n\nb'|"\\xE9\\U0001F600\\t<tag>"|null|true|12|1.5|"yes"`);
  });

  it("traverse filter walks ':' paths", () => {
    expect(renderCase("{{ stack|traverse('users:tom:uid') }}|{{ stack|traverse('x:y', 'no') }}")).toBe(
      "500|no",
    );
  });

  it("strictSalt leaves them out, as in real PillarStack templates", () => {
    for (const f of ["yaml_dquote", "yaml_squote", "yaml_encode", "traverse"]) {
      const e = failure(() => renderCase(`{{ 'x'|${f} }}`, {}, structuredClone(VARS), { strictSalt: true }));
      expect(e.code).toBe("TEMPLATE_SYNTAX");
    }
    expect(renderCase("{{ {'a': 1}|json }}", {}, structuredClone(VARS), { strictSalt: true })).toBe(
      '{"a": 1}',
    );
  });
});

describe("compilation cache", () => {
  it("compiles a template once for many hosts and again when its text changes", () => {
    const dir = tempTree({ "macros.sls": "{% macro m(x) %}<{{ x }}>{% endmacro %}" });
    const r = createRenderer();
    const cfg = join(dir, "config.cfg");
    const src = "{% from 'macros.sls' import m %}{{ m(minion_id) }}";
    for (let i = 0; i < 200; i++) {
      expect(r.render(src, join(dir, "host.yml"), { ...VARS, minion_id: `h${i}` }, cfg)).toBe(`<h${i}>`);
    }
    expect(r.compiledCount).toBe(2);
    r.render(`${src}!`, join(dir, "host.yml"), VARS, cfg);
    expect(r.compiledCount).toBe(3);
    writeFileSync(join(dir, "macros.sls"), "{% macro m(x) %}[{{ x }}]{% endmacro %}");
    // host.yml's text changed back (compile 4) and macros.sls changed on disk (compile 5); files are checked
    // again in the next config run (another host).
    expect(r.render(src, join(dir, "host.yml"), { ...VARS, minion_id: "next" }, cfg)).toBe("[next]");
    expect(r.compiledCount).toBe(5);
  });
});

describe("safety", () => {
  it("refuses a symlink that leads out of the config directory", () => {
    const outside = tempTree({ "secret.yml": "password: hunter2\n" });
    const dir = tempTree({});
    symlinkSync(join(outside, "secret.yml"), join(dir, "link.yml"));
    const e = failure(() =>
      createRenderer().render(
        "{% import_yaml 'link.yml' as s %}{{ s }}",
        join(dir, "a.yml"),
        VARS,
        join(dir, "c.cfg"),
      ),
    );
    expect(e.message).toContain("outside the config directory");
  });

  it("keeps constructors and prototypes out of reach", () => {
    expect(
      renderCase(
        "[{{ loop }}][{{ range.constructor }}][{{ ''.constructor }}][{{ {}.__proto__ }}][{{ namespace().constructor }}]",
      ),
    ).toBe("[][][][][]");
    expect(() => renderCase("{{ range.constructor.constructor('return 1')() }}")).toThrow();
    const stack: Record<string, unknown> = {};
    renderCase(
      "{% do stack.update({'__proto__': {'polluted': 1}}) %}",
      {},
      { ...structuredClone(VARS), stack },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(stack)).toEqual(["__proto__"]);
  });

  it("an empty load_yaml block gives None", () => {
    expect(renderCase("{% load_yaml as e %}{% endload %}{{ e }}|{{ e is none }}")).toBe("None|True");
  });
});

describe("import errors", () => {
  it("name the line of the import statement", () => {
    const e = failure(() => renderCase("a: 1\n\n{% include 'nope.sls' %}"));
    expect(e.message).toBe("TemplateNotFound: nope.sls");
    expect(e.source?.line).toBe(3);
    // A name the template does not export fails where it is used, with the import's line in Jinja's message.
    const f = failure(() =>
      renderCase("a: 1\n{% from 'm.sls' import missing %}\nb: {{ missing() }}", {
        "m.sls": "{% macro other() %}{% endmacro %}",
      }),
    );
    expect(f.message).toBe(
      "the template 'm.sls' (imported on line 2) does not export the requested name 'missing'",
    );
    expect(f.source?.line).toBe(3);
  });

  it("leave an error after an include or import to the file and line it happened in", () => {
    const files = { "part.sls": "a: 1\n", "m.sls": "{% macro f() %}x{% endmacro %}" };
    const after = failure(() => renderCase("{% include 'part.sls' %}\nx: {{ nosuch.attr }}\n", files));
    expect(after.message).toBe("'nosuch' is undefined");
    expect(after.source).toMatchObject({ line: 2 });
    expect(after.source?.file).toMatch(/case\.yml$/);
    const imported = failure(() => renderCase("{% from 'm.sls' import f %}\n{{ f() }}\n{{ 1 / 0 }}", files));
    expect(imported.message).toBe("ZeroDivisionError: division by zero");
    expect(imported.source).toMatchObject({ line: 3 });
    expect(imported.source?.file).toMatch(/case\.yml$/);
    // An error inside the included file still names that file.
    const inside = failure(() => renderCase("a: 1\n{% include 'bad.sls' %}", { "bad.sls": "\n{{ 1 / 0 }}" }));
    expect(inside.source).toMatchObject({ line: 2 });
    expect(inside.source?.file).toMatch(/bad\.sls$/);
  });

  it("include ignore missing renders nothing", () => {
    expect(renderCase("[{% include 'nope.sls' ignore missing %}]")).toBe("[]");
  });
});

describe("names", () => {
  it("do not resolve to inherited object properties", () => {
    expect(renderCase("[{{ constructor }}][{{ toString }}][{{ hasOwnProperty is defined }}]")).toBe(
      "[][][False]",
    );
  });
});
