import { isMap, isScalar, isSeq } from "yaml";
import { describe, expect, it } from "vitest";
import { fastParse } from "./fastpath.js";
import { loadYaml } from "./load.js";

describe("the fast path", () => {
  it("reads the common shape of configuration files itself", () => {
    const text = [
      "#cloud-config",
      "users:",
      "  - name: bob",
      "    groups: [wheel, 'docker']",
      "    shell: /bin/bash   # comment",
      "packages:",
      "- git",
      '- "vim"',
      "write_files: {}",
      "mode: 0755",
      "",
    ].join("\n");
    const result = fastParse(text, 500);
    expect(result).toBeDefined();
    expect(isMap(result!.root)).toBe(true);
    expect(loadYaml(text)).toEqual({
      users: [{ name: "bob", groups: ["wheel", "docker"], shell: "/bin/bash" }],
      packages: ["git", "vim"],
      write_files: {},
      mode: 493,
    });
  });

  it("builds sequences and lone scalars", () => {
    expect(isSeq(fastParse("- a\n- - b\n  - c\n", 500)!.root)).toBe(true);
    expect(isScalar(fastParse("just text\n", 500)!.root)).toBe(true);
    expect(fastParse("# only a comment\n", 500)!.root).toBeNull();
  });

  it("leaves everything unusual to the full parser", () => {
    const unusual = [
      "a: &x 1\nb: *x",
      "a: !!str 1",
      "a: |\n  text",
      "a: >\n  text",
      "a: multi\n  line",
      'a: "esc\\t"',
      "a: 'two\n  lines'",
      "---\na: 1\n---\nb: 2",
      "--- a",
      "%YAML 1.1\n---\na: 1",
      "a:\tb",
      "a: 1\r\nb: 2",
      "? complex\n: key",
      "[a, b]: c",
      "a: b: c",
      "a: [1,\n  2]",
      "a: {b:1}",
      "a: [x, ]",
      "a:\n  - 1\n b: 2",
      "- a\nb: 1",
      `${"k".repeat(1100)}: v`,
    ];
    for (const text of unusual) expect(fastParse(text, 500), text).toBeUndefined();
  });

  it("gives up beyond maxDepth so the full parser reports DEPTH_LIMIT", () => {
    const deep = Array.from({ length: 30 }, (_, i) => `${" ".repeat(i)}k:`).join("\n");
    expect(fastParse(deep, 10)).toBeUndefined();
    expect(() => loadYaml(deep, { maxDepth: 10 })).toThrow(expect.objectContaining({ code: "DEPTH_LIMIT" }));
  });
});
