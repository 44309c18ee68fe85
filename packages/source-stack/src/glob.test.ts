import { describe, expect, it } from "vitest";
import { StackFiles } from "./files.js";
import { fnmatchRegex, pyGlob, splitPath } from "./glob.js";
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
