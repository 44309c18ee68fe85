import { afterEach, expect, test, vi } from "vitest";

// Building a pattern with Unicode property classes (`\p{L}`) costs V8 a good fraction of a millisecond. Every run of
// `merge stack` loads this engine, so patterns only `wordwrap` and `urlize` use are built when those filters first run.

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Records the source of every pattern made with `new RegExp` while the stub is in place. */
function recordPatterns(): string[] {
  const made: string[] = [];
  const spy = new Proxy(RegExp, {
    construct(target, args: [string | RegExp, string?]) {
      made.push(String(args[0]));
      return Reflect.construct(target, args);
    },
  });
  vi.stubGlobal("RegExp", spy);
  return made;
}

const unicodeClasses = (made: readonly string[]) => made.filter((source) => source.includes("\\p{"));

test("loading wordwrap's and urlize's modules builds no Unicode pattern; their first use does, once", async () => {
  const made = recordPatterns();
  const { wrapLine } = await import("./textwrap.js");
  const { urlize } = await import("./urlize.js");
  expect(unicodeClasses(made)).toEqual([]);

  const wrap = { width: 10, breakLongWords: true, splitAtHyphens: true, cutAtHyphens: true };
  expect(wrapLine("well-known words here", wrap)).toEqual(["well-known", "words here"]);
  expect(unicodeClasses(made)).toHaveLength(1);
  const link = urlize("see www.example.org or ann@example.org", false, {});
  expect(link).toContain('<a href="https://www.example.org"');
  expect(link).toContain('<a href="mailto:ann@example.org">');
  expect(unicodeClasses(made)).toHaveLength(3);

  // Later uses reuse the patterns.
  wrapLine("another well-known text", wrap);
  urlize("www.example.net", false, {});
  expect(unicodeClasses(made)).toHaveLength(3);
});

test("loading the engine builds no Unicode name pattern: compiling builds one only for a name that is not ASCII", async () => {
  const made = recordPatterns();
  const { createRenderer } = await import("./renderer.js");
  expect(unicodeClasses(made)).toEqual([]);
  const render = (text: string) => createRenderer().render(text, "/srv/t.sls", {}, "/srv/stack.cfg");
  expect(render("{% set abc = 1 %}{{ abc }}")).toBe("1");
  expect(unicodeClasses(made)).toEqual([]);
  expect(render("{% set é = 2 %}{{ é }}")).toBe("2");
  expect(unicodeClasses(made)).toHaveLength(1);
  // A template that does not compile is read again as Jinja reads it, for Jinja's message: its two name patterns.
  expect(() => render("{{ a b }}")).toThrow(/expected token 'end of print statement', got 'b'/);
  expect(unicodeClasses(made)).toHaveLength(3);
  expect(() => render("{{ c d }}")).toThrow();
  expect(render("{% set ü = 3 %}{{ ü }}")).toBe("3");
  expect(unicodeClasses(made)).toHaveLength(3);
});

test("str.title() and repr() build their Unicode pattern only for a character past ASCII", async () => {
  const made = recordPatterns();
  const { createRenderer } = await import("./renderer.js");
  const render = (text: string) => createRenderer().render(text, "/srv/t.sls", {}, "/srv/stack.cfg");
  expect(render("{{ 'hello wORLD'.title() }} {{ ['a\\tb'] }}")).toBe("Hello World ['a\\tb']");
  expect(unicodeClasses(made)).toEqual([]);
  expect(render("{{ 'élan vital'.title() }}")).toBe("Élan Vital");
  expect(unicodeClasses(made)).toHaveLength(1);
  expect(render("{{ ['é', '\u00a0'] }}")).toBe("['é', '\\xa0']");
  expect(unicodeClasses(made)).toHaveLength(2);
});
