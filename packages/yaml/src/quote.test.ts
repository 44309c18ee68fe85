import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { yamlDoubleQuote, yamlEncode, yamlScalarStyle, yamlSingleQuote } from "./quote.js";

describe("yamlScalarStyle", () => {
  it("keeps plain what reads back as the same string", () => {
    for (const s of ["abc", "a b", "y", "n", "1e3", "a:b", "a#b", "x-y"])
      expect(yamlScalarStyle(s)).toBe("plain");
  });

  it("single-quotes what YAML 1.1 would read as something else or as syntax", () => {
    for (const s of [
      "yes",
      "123",
      "12:30",
      "",
      "<<",
      "null",
      "- a",
      "a: b",
      "a #b",
      " lead",
      "trail ",
      "l1\nl2",
    ]) {
      expect(yamlScalarStyle(s)).toBe("single");
    }
    expect(yamlScalarStyle("a,b")).toBe("plain");
    expect(yamlScalarStyle("a,b", { flow: true })).toBe("single");
    expect(yamlScalarStyle("a:b", { flow: true })).toBe("single");
  });

  it("double-quotes tabs, control characters, and non-ASCII unless allowed", () => {
    expect(yamlScalarStyle("a\tb")).toBe("double");
    expect(yamlScalarStyle("\u0001")).toBe("double");
    expect(yamlScalarStyle("é")).toBe("double");
    expect(yamlScalarStyle("é", { allowUnicode: true })).toBe("plain");
    expect(yamlScalarStyle("😀", { allowUnicode: true })).toBe("plain");
    expect(yamlScalarStyle("😀", { allowUnicode: true, libyaml: true })).toBe("double");
    expect(yamlScalarStyle("l1\nl2", { key: true })).toBe("double");
  });
});

describe("Salt's quoting filters", () => {
  it("yaml_dquote escapes as PyYAML's emitter does, without wrapping", () => {
    expect(yamlDoubleQuote('say "hi"\\')).toBe('"say \\"hi\\"\\\\"');
    expect(yamlDoubleQuote("a\tb\né\u0000😀")).toBe('"a\\tb\\n\\xE9\\0\\U0001F600"');
    expect(yamlDoubleQuote("x ".repeat(100)).includes("\n")).toBe(false);
  });

  it("yaml_squote doubles quotes and writes a newline as a blank line", () => {
    expect(yamlSingleQuote("it's")).toBe("'it''s'");
    expect(yamlSingleQuote("a\nb")).toBe("'a\n\nb'");
  });

  it("yaml_encode double-quotes strings and writes other scalars as YAML", () => {
    expect(yamlEncode("yes")).toBe('"yes"');
    expect(yamlEncode(true)).toBe("true");
    expect(yamlEncode(null)).toBe("null");
    expect(yamlEncode(1.5)).toBe("1.5");
    expect(yamlEncode(7)).toBe("7");
    expect(() => yamlEncode([1])).toThrow(expect.objectContaining({ code: "YAML_DUMP" }));
  });
});

describe("yaml_dquote / yaml_squote agree with PyYAML's emitter (recorded outputs)", () => {
  const rows = JSON.parse(
    readFileSync(new URL("../test/fixtures/pyyaml-quote.json", import.meta.url), "utf8"),
  ) as { text: string; dquote: string; squote: string }[];
  it(`quotes ${rows.length} strings as Salt's filters do`, () => {
    const failures = rows.filter(
      (r) => yamlDoubleQuote(r.text) !== r.dquote || yamlSingleQuote(r.text) !== r.squote,
    );
    expect(failures).toEqual([]);
  });
});
