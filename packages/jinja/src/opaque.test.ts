import { isMergeError, PyDict, toExact } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markOpaque, markText, opaqueChar, plainOpaque } from "./opaque.js";
import { createRenderer } from "./renderer.js";

const M = (c: string) => String.fromCharCode(0xe000 + c.charCodeAt(0));

describe("marking a value", () => {
  it("leaves letters, digits, `_`, `-`, non-ASCII letters and dots between them unchanged", () => {
    for (const s of ["web1.example.com", "web-1_a", "Debian", "12.04", "Ünïcødé", "😀x", "a.b.c", ""]) {
      expect(markText(s)).toBe(s);
    }
  });

  it("marks every other character, one code unit for one", () => {
    expect(markText("Debian GNU/Linux")).toBe(`Debian${M(" ")}GNU${M("/")}Linux`);
    expect(markText("a\nb")).toBe(`a${M("\n")}b`);
    const separators = markText("x\u2028y\u0085z");
    expect([opaqueChar(separators.charCodeAt(1)), opaqueChar(separators.charCodeAt(3))]).toEqual([
      "\u2028",
      "\u0085",
    ]);
    for (const s of ["a b", "*?[]", "a\u2029\u00a0\ufeff\u200b", "😀 ", "\ud800x", "x\udc00"]) {
      expect(markText(s).length).toBe(s.length);
      expect(plainOpaque(markText(s)).length).toBe(s.length);
    }
  });

  it("marks a dot unless it sits between two inert characters other than dots", () => {
    expect(markText(".a")).toBe(`${M(".")}a`);
    expect(markText("a.")).toBe(`a${M(".")}`);
    expect(markText("a..b")).toBe(`a${M(".")}${M(".")}b`);
    expect(markText("..")).toBe(M(".").repeat(2));
    expect(markText("a./b")).toBe(`a${M(".")}${M("/")}b`);
    expect(markText("😀.😀")).toBe("😀.😀");
  });

  it("gives back the text, except that a lone surrogate becomes U+FFFD", () => {
    for (const s of [
      "Debian GNU/Linux",
      "x\n- minions/web1",
      "\\x2a",
      "a\u2028b",
      "\u0000\u001f\u007f\u009f",
    ]) {
      expect(plainOpaque(markText(s))).toBe(s);
    }
    expect(plainOpaque(markText("a\ud800b"))).toBe("a\ufffdb");
    expect(opaqueChar(markText("\ud800").charCodeAt(0))).toBeNull();
    expect(opaqueChar("a".charCodeAt(0))).toBeUndefined();
  });

  it("reads code points of the mark range in a value as marks: they stand for a literal character only", () => {
    expect(markText("\ue02a")).toBe("\ue02a");
    expect(plainOpaque("\ue02a")).toBe("*");
    expect(markText(markText("a b/c"))).toBe(markText("a b/c"));
  });

  it("marks strings and keys at any depth, keeping other values, sharing and cycles", () => {
    const shared = { "k y": "v w" };
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    const marked = markOpaque({
      a: [shared, shared, 1, true, null],
      b: new Map([["m n", "o p"]]),
      c: cyclic,
    }) as Record<string, unknown>;
    const [first, second] = marked.a as Record<string, unknown>[];
    expect(first).toBe(second);
    expect(first).toEqual({ [`k${M(" ")}y`]: `v${M(" ")}w` });
    expect((marked.b as Map<string, string>).get(`m${M(" ")}n`)).toBe(`o${M(" ")}p`);
    const c = marked.c as Record<string, unknown>;
    expect(c.self).toBe(c);
    let deep: unknown = "x y";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let out = markOpaque(deep);
    for (let i = 0; i < 100_000; i++) out = (out as unknown[])[0];
    expect(out).toBe(`x${M(" ")}y`);
  });
});

// Templates read marked values as the plain text they stand for: for each expression and value, the opaque render
// of the marked value, unmarked, is what the ordinary render of the plain value gives (or both fail alike).
const EXPRESSIONS = [
  "v",
  "v ~ '.yml'",
  "'%s' % v",
  "'%r' % v",
  "'%.3s|' % v",
  "'{}'.format(v)",
  "'{!r}'.format(v)",
  "'{:>12}'.format(v)",
  "v|upper",
  "v|lower",
  "v|title",
  "v.title()",
  "v|capitalize",
  "v.swapcase()",
  "v|length",
  "v|count",
  "v|trim",
  "v|trim('. ')",
  "v|replace('/', '_')",
  "v|replace(' ', '')",
  "v|replace('.', '-')",
  "v.replace('a', '')",
  "v.replace('', '-')",
  "v.replace('.', '', 1)",
  "v|reverse",
  "v|list",
  "v|first",
  "v|last",
  "v|join('-')",
  "v|center(30)",
  "v|int",
  "v|int(7)",
  "v|float",
  "v|round",
  "v|string",
  "v|wordcount",
  "v|truncate(9)",
  "v|e",
  "v|urlencode",
  "v|striptags",
  "v|load_yaml",
  "v.split()",
  "v.split('/')",
  "v.split('.')",
  "v.split(' ', 1)",
  "v.split(sep=':')",
  "v.split()[0]",
  "v.rsplit('/', 1)",
  "v.rsplit(None, 1)",
  "v.splitlines()",
  "v.splitlines(True)",
  "v.strip()",
  "v.strip('./')",
  "v.lstrip()",
  "v.rstrip('\\n')",
  "v.partition('/')",
  "v.partition(' ')",
  "v.startswith('Deb')",
  "v.startswith(('x', ' '))",
  "v.endswith('x')",
  "v.find('/')",
  "v.rfind(':')",
  "v.index('a') if 'a' in v else -1",
  "v.count('.')",
  "v.isdigit()",
  "v.isalpha()",
  "v.isalnum()",
  "v.isspace()",
  "v.islower()",
  "v.isupper()",
  "v.zfill(12)",
  "v.ljust(20, '*')",
  "v.center(9, '=')",
  "v[1:4]",
  "v[::-1]",
  "v[::2]",
  "v[0] if v else 'empty'",
  "v[-1] if v else 'empty'",
  "v == 'Debian GNU/Linux'",
  "v != 'a b'",
  "v < 'm'",
  "v >= 'a b'",
  "'/' in v",
  "' ' in v",
  "v in ['a b', 'Debian GNU/Linux', 'line\\nbreak']",
  "v in 'xx Debian GNU/Linux xx'",
  "v is lower",
  "v is upper",
  "v is string",
  "v is in(['a b', 'x'])",
  "v is equalto('a b')",
  "[v, 'b', 'a b']|sort",
  "[v, 'a b', v]|unique|list",
  "[v, 'zz']|max",
  "[v, 'a b']|min",
  "[v]",
  "(v, 1)",
  "{v: 1}",
  "{'k': v}",
  "[v, 'x y']|select('equalto', 'x y')|list",
  "[v, 'x y']|reject('in', ['a b'])|list",
  "[v]|map('upper')|list",
  "[{'n': v}, {'n': 'a b'}]|sort(attribute='n')|map(attribute='n')|list",
  "[{'n': v}]|groupby('n')|map('first')|list",
  "p.get(v, 'none')",
  "p[v] if v in p else 'no'",
  "g.get('a b', 'none')",
  "'a b' in g",
  "g[v]",
  "g|dictsort",
  "g.items()|list",
  "g.keys()|list",
  "g == {v: 'one', 'a b': 'two'}",
  "__salt__['grains.get']('n:a b', 'none')",
  "__salt__['grains.get'](v, 'none')",
  "__salt__['pillar.get'](v, 'none')",
  "l|sort",
  "l|join(', ')",
  "l|map('upper')|list",
  "l|select('equalto', 'x y')|list",
  "l.index('x y') if 'x y' in l else -1",
  "l.count(v)",
];

const VALUES = [
  "web1.example.com",
  "web-1_a",
  "Debian GNU/Linux",
  "12.04",
  " 42 ",
  "a b",
  "x y",
  "Ünïcødé",
  "😀 a",
  "",
  "a/b/c",
  "a:b:c",
  "it's",
  'say "hi"',
  "back\\slash",
  "tab\there",
  "line\nbreak",
  "cr\r\nlf",
  "x\u2028y",
  "nel\u0085x",
  "nbsp\u00a0x",
  "*?[]",
  "..",
  ".a.",
  "a..b",
  "%s %d",
  "{0}",
  "{{ x }}",
  "#comment",
  "- item",
  "key: value",
  "\u0000nul",
  "zw\u200bsp",
  "\ufeffbom",
  "a.b.c",
  ".hidden",
  "trailing.",
  "1e5",
  "-12",
  "+7",
  "inf",
  "0x1f",
  "ß",
  "<b>bold</b> & co",
];

function variables(v: string): Record<string, unknown> {
  return {
    v,
    p: { [v]: "from pillar", "a b": "ab" },
    g: { [v]: "one", "a b": "two" },
    l: [v, "x y", "a"],
    __grains__: { n: { "a b": v }, [v]: "by key" },
    pillar: { [v]: "pillar value" },
  };
}

function outcome(render: () => string): string {
  try {
    return `ok:${plainOpaque(render())}`;
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return `error:${error.code}:${plainOpaque(error.message)}`;
  }
}

describe("opaque text in a render", () => {
  const renderer = createRenderer();
  const render = (expr: string, vars: Record<string, unknown>, opaqueText: boolean) =>
    renderer.render(`{{ ${expr} }}`, "/srv/stack/case.cfg", vars, "/srv/stack/case.cfg", { opaqueText });

  it("answers every expression on a marked value as it answers on the plain value", () => {
    const differences: string[] = [];
    let compared = 0;
    for (const expr of EXPRESSIONS) {
      for (const v of VALUES) {
        const plain = outcome(() => render(expr, variables(v), false));
        const marked = outcome(() => render(expr, markOpaque(variables(v)) as Record<string, unknown>, true));
        compared++;
        if (plain !== marked) differences.push(`${expr} on ${JSON.stringify(v)}: ${plain} / ${marked}`);
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBe(EXPRESSIONS.length * VALUES.length);
  });

  it("does so when the variables are in the exact model (PyDict mappings), as PillarStack gives them", () => {
    const exact = (vars: Record<string, unknown>) =>
      Object.fromEntries(toExact(vars) as PyDict) as Record<string, unknown>;
    const differences: string[] = [];
    for (const expr of EXPRESSIONS) {
      for (const v of VALUES) {
        const plain = outcome(() => render(expr, exact(variables(v)), false));
        const marked = markOpaque(toExact(variables(v))) as PyDict;
        expect(marked).toBeInstanceOf(PyDict);
        const got = outcome(() => render(expr, Object.fromEntries(marked) as Record<string, unknown>, true));
        if (plain !== got) differences.push(`${expr} on ${JSON.stringify(v)}: ${plain} / ${got}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("does so on random values too (fast-check)", () => {
    const char = fc.constantFrom(..."ab. /:\\\n\r\t\u2028\u0085*?[]'\"#-_,{}%😀é\u00a0\u200b".split(/(?:)/u));
    const value = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(value, fc.constantFrom(...EXPRESSIONS), (v, expr) => {
        const plain = outcome(() => render(expr, variables(v), false));
        const marked = outcome(() => render(expr, markOpaque(variables(v)) as Record<string, unknown>, true));
        expect(marked).toBe(plain);
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the marks on every piece a string operation returns", () => {
    const vars = markOpaque({ v: "x\n- ../web*" }) as Record<string, unknown>;
    for (const expr of [
      "v",
      "v.split('-')[1]",
      "v.partition(' ')[2]",
      "v|replace('x', 'y')",
      "v[2:]",
      "v.strip('x')",
      "'%s' % v",
      "'{}'.format(v)",
      "v ~ ''",
      "[v]|join",
      "v|trim",
      "(v|list)[1:]|join",
      "v.splitlines(True)|join",
    ]) {
      const out = render(expr, vars, true);
      expect([expr, out]).not.toEqual([expr, expect.stringMatching(/[\n*/]|\.\./)]);
      expect(plainOpaque(out)).toMatch(/\.\.\/web\*$/);
    }
  });

  it("marks a dot a cut leaves at the end of a piece, so cut dots never make a `..` segment", () => {
    const vars = markOpaque({ v: "a.b.c" }) as Record<string, unknown>;
    expect(vars.v).toBe("a.b.c");
    for (const expr of ["v[1] ~ v[3]", "v[1::2]", "v.replace('b', '')", "v.split('b')|join"]) {
      const out = render(expr, vars, true);
      expect(plainOpaque(out)).toContain("..");
      expect(out).not.toContain("..");
    }
  });

  it("turns marked text a template decodes into marked data", () => {
    const vars = markOpaque({ v: '{"a b": ["x/y", 1]}' }) as Record<string, unknown>;
    expect(render("(v|load_json)['a b'][0]", vars, true)).toBe(markText("x/y"));
    expect(render("(v|load_yaml)['a b'][1]", vars, true)).toBe("1");
  });

  it("leaves marks as ordinary private-use characters when opaque text is off", () => {
    expect(render("v == '*'", { v: "\ue02a" }, false)).toBe("False");
    expect(render("v == '*'", { v: "\ue02a" }, true)).toBe("True");
  });
});
