import { isMergeError, PyDict, PyFloat } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { configPaths, type StackMatcher } from "./config.js";
import { NOT_FOUND, traverse } from "./traverse.js";

const sources = {
  pillar: { environment: "dev", tiers: ["front", { name: "back" }], num: 1, nested: { a: { b: "x" } } },
  grains: { custom: { grain: "value" }, cpus: 4, virtual: true, ip4: ["10.0.0.1", "10.0.0.2"] },
  opts: { id: "m1", nested: [{ k: "v" }] },
};

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isMergeError(error)) return error.code;
    throw error;
  }
  return "none";
}

describe("traverse (Salt's traverse_dict_and_list)", () => {
  it("follows mappings, list indexes (negative too) and mappings inside lists", () => {
    expect(traverse(sources.pillar, "nested:a:b")).toBe("x");
    expect(traverse(sources.pillar, "tiers:0")).toBe("front");
    expect(traverse(sources.pillar, "tiers:-1")).toEqual({ name: "back" });
    expect(traverse(sources.pillar, "tiers:name")).toBe("back");
    expect(traverse(sources.grains, "ip4: 1 ")).toBe("10.0.0.2");
  });

  it("retries a key read as YAML, as Salt does (True finds true, 0x10 finds 16)", () => {
    const data = { flags: { true: "on", "16": "hex", null: "nothing" } };
    expect(traverse(data, "flags:True")).toBe("on");
    expect(traverse(data, "flags:0x10")).toBe("hex");
    expect(traverse(data, "flags:~")).toBe("nothing");
    expect(traverse(data, "flags:yes")).toBe("on");
    expect(traverse(data, "flags:maybe")).toBe(NOT_FOUND);
    expect(traverse(data, "flags:None")).toBe("nothing");
    expect(traverse({ n: { "1000": "x" } }, "n:1_000")).toBe(NOT_FOUND);
    expect(traverse(new Map<unknown, unknown>([[true, "typed"]]), "True")).toBe("typed");
  });

  it("gives NOT_FOUND when the path breaks", () => {
    expect(traverse(sources.pillar, "nested:zz")).toBe(NOT_FOUND);
    expect(traverse(sources.pillar, "tiers:5")).toBe(NOT_FOUND);
    expect(traverse(sources.pillar, "environment:x")).toBe(NOT_FOUND);
    expect(traverse(sources.pillar, "constructor")).toBe(NOT_FOUND);
  });
});

describe("config forms", () => {
  it("takes one path or a list of paths as they are", () => {
    expect(configPaths("/srv/stack.cfg", sources)).toEqual(["/srv/stack.cfg"]);
    expect(configPaths(["a.cfg", "b.cfg", "a.cfg"], sources)).toEqual(["a.cfg", "b.cfg", "a.cfg"]);
  });

  it("selects configs through pillar, grains and opts matchers, in the map's order", () => {
    const config = {
      "pillar:environment": { dev: "dev.cfg", prod: "prod.cfg" },
      "grains:custom:grain": { value: ["g1.cfg", "g2.cfg"] },
      "opts:nested:k": { v: "opt.cfg" },
      "grains:ip4:0": { "10.0.0.1": "first-ip.cfg" },
      "pillar:missing": { x: "never.cfg" },
    };
    expect(configPaths(config, sources)).toEqual(["dev.cfg", "g1.cfg", "g2.cfg", "opt.cfg", "first-ip.cfg"]);
  });

  it("is type-sensitive: a number or boolean does not select a string key", () => {
    expect(
      configPaths({ "grains:cpus": { "4": "four.cfg" }, "grains:virtual": { True: "t.cfg" } }, sources),
    ).toEqual([]);
  });

  it("compares like Python's dict lookup when the matcher is a Map (4 == 4.0, true == 1, None for missing)", () => {
    const byValue = new Map<unknown, string>([
      [4, "four.cfg"],
      ["4", "string-four.cfg"],
    ]);
    const byBool = new Map<unknown, string>([[1, "one.cfg"]]);
    const byNone = new Map<unknown, string>([[null, "fallback.cfg"]]);
    expect(
      configPaths({ "grains:cpus": byValue, "grains:virtual": byBool, "pillar:nope": byNone }, sources),
    ).toEqual(["four.cfg", "one.cfg", "fallback.cfg"]);
  });

  it("selects on a whole float of the exact model as Python does (9.0 == 9), never calling it a mapping", () => {
    const exactSources = { ...sources, grains: new PyDict([["osrelease", new PyFloat(9)]]) };
    const byRelease = new PyDict<string>([
      [9, "nine.cfg"],
      ["9", "string-nine.cfg"],
    ]);
    expect(configPaths({ "grains:osrelease": byRelease } as never, exactSources as never)).toEqual([
      "nine.cfg",
    ]);
  });

  it("accepts the whole matcher map as a Map (as @merge/yaml reads it with typed keys)", () => {
    const config = new Map([["grains:cpus", new Map<unknown, string>([[4, "four.cfg"]])]]);
    expect(configPaths(config, sources)).toEqual(["four.cfg"]);
    expect(codeOf(() => configPaths(new Map([[1, "x"]]) as never, sources))).toBe("STACK_CONFIG");
  });

  it("accepts the config as @merge/yaml reads it with values: exact (PyDicts, typed keys, Python equality)", () => {
    const config = loadYaml(
      "grains:cpus: {4.0: four.cfg, '4': string-four.cfg}\ngrains:virtual: {1: one.cfg}\npillar:nope: {null: none.cfg}\n",
      { flavor: "salt", values: "exact" },
    ) as PyDict<StackMatcher>;
    expect(config).toBeInstanceOf(PyDict);
    expect(configPaths(config, sources)).toEqual(["four.cfg", "one.cfg", "none.cfg"]);
  });

  it("rejects an unknown matcher type, a matcher without ':' and non-string paths", () => {
    expect(codeOf(() => configPaths({ "mine:x": { a: "b" } }, sources))).toBe("STACK_CONFIG");
    expect(codeOf(() => configPaths({ pillar: { a: "b" } }, sources))).toBe("STACK_CONFIG");
    expect(codeOf(() => configPaths([1 as unknown as string], sources))).toBe("STACK_CONFIG");
    expect(codeOf(() => configPaths({ "pillar:num": new Map([[1, [2]]]) as never }, sources))).toBe(
      "STACK_CONFIG",
    );
  });

  it("rejects a list or mapping value as a selector, as Salt's dict lookup does", () => {
    expect(codeOf(() => configPaths({ "grains:ip4": { x: "y" } }, sources))).toBe("STACK_CONFIG");
  });
});
