// The exact model (`values: "exact"`): what PyYAML builds, key types, key order and floats included. Expected values
// are PyYAML 6.0's (`yaml.safe_load` / `yaml.safe_dump` on Debian's python3-yaml).
import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { dumpYaml } from "./dump.js";
import { loadYaml, loadYamlWithPositions } from "./load.js";
import { createYamlLoader } from "./loader.js";

const exact = (text: string, flavor: "pyyaml" | "salt" = "pyyaml") =>
  loadYaml(text, { values: "exact", flavor }) as PyDict;

describe("values: exact", () => {
  it("keeps key types, document order and Python's key equality", () => {
    // {10: 'a', '9': 'b', 'B': 'c', 1.0: 't', 0: 'z', None: 'n', 'v': 9.0}
    const d = exact("10: a\n'9': b\nB: c\n1.0: f\n00: z\ntrue: t\n~: n\nv: 9.0\n");
    expect(d.keyList().map(String)).toEqual(["10", "9", "B", "1.0", "0", "null", "v"]);
    expect(d.keyList()[0]).toBe(10);
    expect(d.keyList()[1]).toBe("9");
    expect(d.keyList()[3]).toBeInstanceOf(PyFloat);
    expect(d.get(1)).toBe("t");
    expect(d.get(0)).toBe("z");
    expect(String(d.get("v"))).toBe("9.0");
  });

  it("writes back what PyYAML writes", () => {
    const d = exact("10: a\n'9': b\nB: c\n1.0: f\n00: z\ntrue: t\n~: n\nv: 9.0\n");
    // mixed key types cannot be sorted in Python: safe_dump keeps the insertion order
    expect(dumpYaml(d)).toBe("10: a\n'9': b\nB: c\n1.0: t\n0: z\nnull: n\nv: 9.0\n");
    expect(dumpYaml(exact("b: 1\na: 2\n'10': 3\n'9': 4\n"))).toBe("'10': 3\n'9': 4\na: 2\nb: 1\n");
    expect(dumpYaml(exact("a: y\n1: x\n"))).toBe("a: y\n1: x\n");
    expect(dumpYaml(exact("2: x\n1.5: y\ntrue: z\n"))).toBe("true: z\n1.5: y\n2: x\n");
  });

  it("keeps whole floats as floats in values and keys, in both flavours", () => {
    for (const flavor of ["pyyaml", "salt"] as const) {
      const d = exact("version: 9.0\nbig: 1.0e+22\nz: -0.0\nint: 9\n2.0: two\n", flavor);
      expect(d.get("version")).toEqual(new PyFloat(9));
      expect(String(d.get("big"))).toBe("1e+22");
      expect(String(d.get("z"))).toBe("-0.0");
      expect(d.get("int")).toBe(9);
      expect(String(d.keyList()[4])).toBe("2.0");
    }
  });

  it("refuses a repeated key in Salt's flavour by Python equality", () => {
    expect(() => exact("1: a\ntrue: b\n", "salt")).toThrow(/found conflicting ID/);
    expect(() => exact("1: a\n'1': b\n", "salt")).not.toThrow();
  });

  it("gives positions of typed keys", () => {
    const { value, positionOf } = loadYamlWithPositions("ports:\n  8080: a\n  '8080': b\nl:\n  - x\n", {
      values: "exact",
    });
    expect(value).toBeInstanceOf(PyDict);
    expect(positionOf(["ports", 8080])).toEqual({ line: 2, column: 3 });
    expect(positionOf(["ports", "8080"])).toEqual({ line: 3, column: 3 });
    expect(positionOf(["l", 0])).toEqual({ line: 5, column: 5 });
  });

  it("keeps merge keys, sets and timestamps as PyYAML does", () => {
    const d = exact(
      "base: &b {1: one, x: 2}\nnew:\n  <<: *b\n  x: 3\ns: !!set {1, a}\nd: {2001-12-14: day}\n",
    );
    const merged = d.get("new") as PyDict;
    expect([...merged.entries()]).toEqual([
      [1, "one"],
      ["x", 3],
    ]);
    expect([...(d.get("s") as Set<unknown>)]).toEqual([1, "a"]);
    const days = d.get("d") as PyDict;
    expect(days.get(new Date(Date.UTC(2001, 11, 14)))).toBeUndefined(); // a plain Date is not a YAML date
    expect(days.get(days.keyList()[0])).toBe("day");
  });

  it("freezes cached PyDicts in a loader", () => {
    const loader = createYamlLoader({ values: "exact" });
    const d = loader.load("a: {b: 1}") as PyDict;
    expect(() => d.set("c", 2)).toThrow(TypeError);
    expect(() => (d.get("a") as PyDict).set("c", 2)).toThrow(TypeError);
  });
});
