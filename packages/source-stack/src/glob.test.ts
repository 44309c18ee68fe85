import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StackFiles } from "./files.js";
import { fnmatch, fnmatchRegex, globMatches, pyGlob, splitPath } from "./glob.js";
import { compareCodePoints } from "@merge/core";
import { makeTree } from "./test-tree.js";

// Expected results were worked out from CPython's glob/fnmatch rules (see glob.ts).
describe("fnmatch patterns as Python reads them", () => {
  const matches = (pattern: string, name: string) => fnmatchRegex(pattern).test(name);

  it("treats * and ? as wildcards that also match dots inside a name", () => {
    expect(matches("*.yml", "a.b.yml")).toBe(true);
    expect(matches("?.yml", "ab.yml")).toBe(false);
    expect(matches("**.yml", "x.yml")).toBe(true);
  });

  it("negates only with [!...]; [^...] is a set holding ^", () => {
    expect(matches("[!a]", "b")).toBe(true);
    expect(matches("[!a]", "a")).toBe(false);
    expect(matches("[^a]", "^")).toBe(true);
    expect(matches("[^a]", "b")).toBe(false);
  });

  it("reads ranges, a leading ] and a trailing - like Python", () => {
    expect(matches("[a-c]", "b")).toBe(true);
    expect(matches("[]a]", "]")).toBe(true);
    expect(matches("[a-]", "-")).toBe(true);
    expect(matches("[z-a]", "z")).toBe(false);
    expect(matches("[!z-a]", "q")).toBe(true);
    expect(matches("[a-c-e]", "-")).toBe(true);
    expect(matches("[a-c-e]", "d")).toBe(false);
  });

  it("keeps braces, parentheses, plus and backslashes literal, and an unclosed [ literal", () => {
    expect(matches("{a,b}.yml", "{a,b}.yml")).toBe(true);
    expect(matches("{a,b}.yml", "a.yml")).toBe(false);
    expect(matches("@(a).yml", "@(a).yml")).toBe(true);
    expect(matches("a\\*", "a\\bc")).toBe(true);
    expect(matches("[abc", "[abc")).toBe(true);
  });

  it("is case-sensitive and matches code points, not UTF-16 units", () => {
    expect(matches("A*", "a")).toBe(false);
    expect(matches("?.yml", "😀.yml")).toBe(true);
  });
});

describe("fnmatch without backtracking", () => {
  it("gives the answers of the expressions above", () => {
    const cases: [string, string, boolean][] = [
      ["*.yml", "a.b.yml", true],
      ["?.yml", "ab.yml", false],
      ["**.yml", "x.yml", true],
      ["[!a]", "b", true],
      ["[^a]", "^", true],
      ["[]a]", "]", true],
      ["[z-a]", "z", false],
      ["[a-c-e]", "-", true],
      ["[abc", "[abc", true],
      ["?.yml", "😀.yml", true],
      ["a*b*c", "abc", true],
      ["a*b*c", "acb", false],
      ["*a*a", "aa", true],
      ["*a*a", "a", false],
      ["a*", "a", true],
      ["*", "", true],
      ["", "", true],
      ["?", "", false],
      ["*?*?*?*?*?*?*?x", "a".repeat(49), false],
      ["*?*?*?*?*?*?*?x", `${"a".repeat(48)}x`, true],
      ["*\n*", "a\nb", true],
      ["a?b", "a\nb", true],
    ];
    for (const [pattern, name, expected] of cases)
      expect([pattern, name, fnmatch(name, pattern)]).toEqual([pattern, name, expected]);
  });

  it("agrees with the translated regular expression on small random patterns (fast-check)", () => {
    // Few enough stars that the backtracking expression stays fast; the alphabets make bracket expressions,
    // ranges, negations, unclosed brackets and surrogate pairs likely.
    const patternChar = fc.constantFrom(
      "a",
      "b",
      "-",
      "]",
      "[",
      "!",
      "^",
      "?",
      "*",
      ".",
      "\\",
      "é",
      "😀",
      "z",
    );
    const nameChar = fc.constantFrom("a", "b", "-", "]", "[", "!", "^", ".", "\\", "é", "😀", "z", "\n");
    const pattern = fc
      .array(patternChar, { maxLength: 9 })
      .map((cs) => cs.join(""))
      .filter((p) => (p.match(/\*/g) ?? []).length <= 4);
    const name = fc.array(nameChar, { maxLength: 10 }).map((cs) => cs.join(""));
    // Names made from the pattern itself (stars filled, `?` and brackets replaced by a character) match often.
    const fill = fc.array(nameChar, { maxLength: 3 }).map((cs) => cs.join(""));
    const near = fc
      .tuple(pattern, fc.array(fill, { minLength: 10, maxLength: 10 }))
      .map(([p, fills]) => [p, p.replace(/\*/g, () => fills.pop() ?? "").replace(/[?[]/g, "a")] as const);
    let matched = 0;
    fc.assert(
      fc.property(fc.oneof(fc.tuple(pattern, name), near), ([p, n]) => {
        const expected = fnmatchRegex(p).test(n);
        if (expected) matched++;
        expect(fnmatch(n, p)).toBe(expected);
      }),
      { numRuns: 4000 },
    );
    expect(matched).toBeGreaterThan(400);
  });
});

describe("glob over a directory", () => {
  const root = makeTree({
    "b.yml": "",
    "a.yml": "",
    ".hidden.yml": "",
    "Z.yml": "",
    "sub/c.yml": "",
    "sub/deep/d.yml": "",
    "sub/.e.yml": "",
    "{x,y}.yml": "",
    "é.yml": "",
  });
  const fs = new StackFiles(root, true);
  const glob = (pattern: string) => pyGlob(pattern, fs).sort(compareCodePoints);

  it("leaves dotfiles out of wildcard matches but returns a literal dotfile", () => {
    expect(glob("*.yml")).toEqual(["Z.yml", "a.yml", "b.yml", "{x,y}.yml", "é.yml"]);
    expect(glob(".hidden.yml")).toEqual([".hidden.yml"]);
    expect(glob(".*.yml")).toEqual([".hidden.yml"]);
  });

  it("does not recurse on **", () => {
    expect(glob("**/*.yml")).toEqual(["sub/c.yml"]);
    expect(glob("*/*/*.yml")).toEqual(["sub/deep/d.yml"]);
  });

  it("matches directories too (the loader refuses them) and, with a trailing slash, only directories", () => {
    expect(glob("s*")).toEqual(["sub"]);
    expect(glob("*/")).toEqual(["sub/"]);
  });

  it("returns a literal path when it exists and nothing when it does not", () => {
    expect(glob("sub/c.yml")).toEqual(["sub/c.yml"]);
    expect(glob("sub/missing.yml")).toEqual([]);
    expect(glob("nope/*.yml")).toEqual([]);
  });

  it("sorts by code point as Python's sorted() does", () => {
    expect(["é", "z", "😀", "\uffff"].sort(compareCodePoints)).toEqual(["z", "é", "\uffff", "😀"]);
  });

  it("splits paths like os.path.split", () => {
    expect(splitPath("a/b/c.cfg")).toEqual(["a/b", "c.cfg"]);
    expect(splitPath("c.cfg")).toEqual(["", "c.cfg"]);
    expect(splitPath("/c.cfg")).toEqual(["/", "c.cfg"]);
    expect(splitPath("a//b")).toEqual(["a", "b"]);
  });
});

describe("globMatches (would pyGlob name this path)", () => {
  it("matches segment by segment, wildcards never across a slash nor onto a leading dot", () => {
    expect(globMatches("/srv/common/*.yml", "/srv/common/new.yml")).toBe(true);
    expect(globMatches("/srv/common/*.yml", "/srv/common/.new.yml")).toBe(false);
    expect(globMatches("/srv/common/.*.yml", "/srv/common/.new.yml")).toBe(true);
    expect(globMatches("/srv/common/*.yml", "/srv/common/sub/new.yml")).toBe(false);
    expect(globMatches("/srv/*/x.yml", "/srv/a/x.yml")).toBe(true);
    expect(globMatches("/srv/minions/w[*]b.yml", "/srv/minions/w*b.yml")).toBe(true);
    expect(globMatches("/srv/minions/w[*]b.yml", "/srv/minions/wxb.yml")).toBe(false);
  });

  it("compares a segment without wildcards as it is", () => {
    expect(globMatches("a/{x,y}.yml", "a/{x,y}.yml")).toBe(true);
    expect(globMatches("a/{x,y}.yml", "a/x.yml")).toBe(false);
  });

  it("with leading, also matches the directories a pattern descends into", () => {
    expect(globMatches("/srv/*/x.yml", "/srv/a", true)).toBe(true);
    expect(globMatches("/srv/*/x.yml", "/srv", true)).toBe(true);
    expect(globMatches("/srv/*/x.yml", "/srv/.git", true)).toBe(false);
    expect(globMatches("/srv/*/x.yml", "/other", true)).toBe(false);
    expect(globMatches("/srv/*/x.yml", "/srv/a", false)).toBe(false);
  });
});
