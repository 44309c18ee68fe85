import type { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadYaml12 } from "./yaml12.js";

describe("loadYaml12", () => {
  it("reads the YAML 1.2 core schema: on, yes, 12:30 and 0755 are what they look like", () => {
    const loaded = loadYaml12(
      "on: yes\ntime: 12:30\nmode: 0755\noctal: 0o755\nflag: true\nnone: ~\nf: 1.5\n",
    );
    expect(loaded.value).toEqual({
      on: "yes",
      time: "12:30",
      mode: 755,
      octal: 493,
      flag: true,
      none: null,
      f: 1.5,
    });
  });

  it("has no merge keys, refuses a key written twice, and keeps typed keys and whole floats in the exact model", () => {
    expect(loadYaml12("a: &a {x: 1}\nb: {<<: *a}\n").value).toEqual({ a: { x: 1 }, b: { "<<": { x: 1 } } });
    expect(() => loadYaml12("a: 1\na: 2\n", { filename: "d.yml" })).toThrow(
      expect.objectContaining({
        code: "YAML_PARSE",
        source: expect.objectContaining({ file: "d.yml", line: 2 }),
      }),
    );
    const exact = loadYaml12("8080: port\nv: 9.0\n", { values: "exact" }).value as PyDict;
    expect([...exact.keys()]).toEqual([8080, "v"]);
    expect(String(exact.get("v"))).toBe("9.0");
  });

  it("gives the line and column of each key", () => {
    const loaded = loadYaml12("a:\n  b: [1, 2]\n");
    expect(loaded.positionOf(["a", "b"])).toEqual({ line: 2, column: 3 });
  });

  it("resolves each alias to the last anchor of its name before it", () => {
    expect(loadYaml12("a: &x 1\nb: *x\nc: &x 2\nd: *x\n").value).toEqual({ a: 1, b: 1, c: 2, d: 2 });
  });

  it("refuses unknown tags, collections as keys, several documents", () => {
    const code = (text: string) => {
      try {
        loadYaml12(text, { filename: "x.yml" });
      } catch (error) {
        return (error as { code: string }).code;
      }
      return "none";
    };
    expect(code("a: !!python/object/apply:os.system ['id']\n")).toBe("YAML_TAG");
    expect(code("a: !foo x\n")).toBe("YAML_TAG");
    expect(code("? [a]\n: 1\n")).toBe("YAML_KEY");
    expect(code("a: 1\n---\nb: 2\n")).toBe("YAML_PARSE");
  });

  it("keeps loadYaml's budgets: alias bombs, alias chains, recursion and deep nesting are coded errors", () => {
    let bomb = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      bomb += `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(",")}]\n`;
    expect(() => loadYaml12(bomb)).toThrow(expect.objectContaining({ code: "SIZE_LIMIT" }));
    let chain = "l0: &l0 x\n";
    for (let i = 1; i < 2000; i++) chain += `l${i}: &l${i} [*l${i - 1}, *l${i - 1}]\n`;
    expect(() => loadYaml12(chain)).toThrow(expect.objectContaining({ code: "SIZE_LIMIT" }));
    expect(() => loadYaml12("a: &a [*a]\n")).toThrow(expect.objectContaining({ code: "YAML_PARSE" }));
    expect(() => loadYaml12(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toThrow(
      expect.objectContaining({ code: "DEPTH_LIMIT" }),
    );
    expect(() => loadYaml12(`${"- ".repeat(100_000)}x\n`)).toThrow(
      expect.objectContaining({ code: "DEPTH_LIMIT" }),
    );
    expect(() => loadYaml12("a: [1]\n", { maxNodes: 2 })).toThrow(
      expect.objectContaining({ code: "SIZE_LIMIT" }),
    );
  });
});
