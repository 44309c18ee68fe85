import type { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { dumpYaml } from "./dump.js";
import { loadYaml, loadYamlWithPositions } from "./load.js";

describe("README examples", () => {
  it("are true", () => {
    expect(loadYaml("mode: 0755\nenabled: on\ntime: 1:30\nsize: 1e3\n")).toEqual({
      mode: 493,
      enabled: true,
      time: 90,
      size: "1e3",
    });
    expect(loadYaml("a: 0123\nb: -012\nc: 2001-12-14\n", { flavor: "salt" })).toEqual({
      a: 123,
      b: -10,
      c: "2001-12-14",
    });
    expect(dumpYaml({ b: [1, "two", null], a: { v: "yes", w: "a: b" } }, { preset: "salt" })).toBe(
      "{a: {v: 'yes', w: 'a: b'}, b: [1, two, null]}",
    );
    expect(dumpYaml({ users: [{ name: "bob" }] }, { preset: "cloud-init" })).toBe(
      "---\nusers:\n-   name: bob\n...\n",
    );
    const top = loadYaml("10: a\n'9': b\n1: int\n'1': str\nversion: 9.0\n", { values: "exact" }) as PyDict;
    expect(top.keyList()).toEqual([10, "9", 1, "1", "version"]);
    expect(top.get(1)).toBe("int");
    expect(top.get("1")).toBe("str");
    expect(String(top.get("version"))).toBe("9.0");
    expect(dumpYaml(top)).toBe("10: a\n'9': b\n1: int\n'1': str\nversion: 9.0\n");
    expect(
      dumpYaml(
        { port: 8080 },
        { preset: "readable", header: ["from a.yml"], comment: (path) => `at ${path.join(".")}` },
      ),
    ).toBe("# from a.yml\nport: 8080 # at port\n");
    const { positionOf } = loadYamlWithPositions("a:\n  b: 1\n", { filename: "top.sls" });
    expect(positionOf(["a", "b"])).toEqual({ line: 2, column: 3 });
  });
});
