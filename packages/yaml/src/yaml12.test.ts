import type { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
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

describe("keys written twice", () => {
  // Keys that are equal or nearly so under the core schema: ints written three ways, floats, -0, null and its
  // spellings, booleans, quoted look-alikes, NaN (never equal to itself), an empty key.
  const KEYS = [
    "1",
    "0x1",
    "0o1",
    '"1"',
    "1.0",
    "-0",
    "0",
    "0.0",
    "~",
    "null",
    '"null"',
    "",
    "true",
    "True",
    ".nan",
    "a",
    "'a'",
    "&k b",
    "*k",
  ];

  function answerOfYamlPackage(text: string): "duplicate" | "ok" | "other" {
    const doc = parseDocument(text, {
      version: "1.2",
      schema: "core",
      uniqueKeys: true,
      merge: false,
      intAsBigInt: true,
    });
    if (doc.errors.length === 0) return "ok";
    return doc.errors.some((e) => e.code === "DUPLICATE_KEY") ? "duplicate" : "other";
  }

  function ours(text: string): "duplicate" | "ok" | "other" {
    try {
      loadYaml12(text);
      return "ok";
    } catch (error) {
      return (error as Error).message.includes("Map keys must be unique") ? "duplicate" : "other";
    }
  }

  it("are refused exactly where the yaml package's uniqueKeys refuses them, in block and flow mappings", () => {
    let compared = 0;
    for (const a of KEYS) {
      for (const b of KEYS) {
        if (a === "*k" || (a === b && a.startsWith("&"))) continue;
        const block = `${a}: 1\n${b}: 2\n`;
        const flow = `{${a}: 1, ${b}: 2}\n`;
        for (const text of [block, flow]) {
          const want = answerOfYamlPackage(text);
          if (want === "other") continue;
          expect(ours(text), text).toBe(want);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("are found in one pass: a mapping of 50,000 keys, the last one repeated, names the last line", () => {
    const text = `${Array.from({ length: 50_000 }, (_, i) => `key${i}: ${i}`).join("\n")}\nkey7: again\n`;
    expect(() => loadYaml12(text, { filename: "big.yml" })).toThrow(
      expect.objectContaining({
        code: "YAML_PARSE",
        source: expect.objectContaining({ file: "big.yml", line: 50_001 }),
      }),
    );
  });
});
