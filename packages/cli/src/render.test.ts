import { PyDict, PyFloat } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { renderValue } from "./render.js";

describe("renderValue", () => {
  it("quotes strings as PyYAML does where a YAML 1.1 reader would take them for booleans or numbers", () => {
    expect(renderValue({ a: "yes", b: "0755", c: "on", d: "plain", e: "1:30" }, "yaml")).toBe(
      "a: 'yes'\nb: '0755'\nc: 'on'\nd: plain\ne: '1:30'\n",
    );
  });

  it("writes the exact model as Python holds it: whole floats, int keys, keys in their order", () => {
    const value = new PyDict<unknown>([
      ["version", new PyFloat(9)],
      [8080, "a"],
      ["10", 1],
      ["9", 2],
    ]);
    expect(renderValue(value, "yaml")).toBe("version: 9.0\n8080: a\n'10': 1\n'9': 2\n");
    expect(renderValue(value, "json")).toBe(
      '{\n  "version": 9.0,\n  "8080": "a",\n  "10": 1,\n  "9": 2\n}\n',
    );
  });

  it("writes shared subtrees out again instead of anchors and aliases", () => {
    const shared = { x: 1 };
    expect(renderValue({ a: shared, b: shared }, "yaml")).toBe("a:\n  x: 1\nb:\n  x: 1\n");
  });

  it("never folds a long string", () => {
    const long = "word ".repeat(40).trim();
    expect(renderValue({ long }, "yaml")).toBe(`long: ${long}\n`);
  });

  it("writes what cloud-init writes in its style: keys sorted, indent 4, --- and ...", () => {
    expect(renderValue({ b: [1], a: { d: 1, c: 2 } }, "yaml", "cloud-init")).toBe(
      "---\na:\n    c: 2\n    d: 1\nb:\n- 1\n...\n",
    );
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}');
    expect(renderValue(value, "yaml")).toBe("__proto__:\n  x: 1\n");
    expect(renderValue(value, "json")).toBe('{\n  "__proto__": {\n    "x": 1\n  }\n}\n');
  });

  it("writes big integers exactly, binary data as !!binary and timestamps as written, read back the same", () => {
    const loaded = loadYaml(
      "big: 18446744073709551616\nday: 2001-12-14\nbin: !!binary aGk=\nset: !!set {x, y}\n",
      { values: "exact" },
    );
    const text = renderValue(loaded, "yaml");
    expect(text).toBe(
      "big: 18446744073709551616\nday: 2001-12-14\nbin: !!binary |\n  aGk=\nset: !!set\n  x: null\n  y: null\n",
    );
    expect(loadYaml(text, { values: "exact" })).toEqual(loaded);
    expect(renderValue(loaded, "json")).toBe(
      '{\n  "big": 18446744073709551616,\n  "day": "2001-12-14",\n  "bin": "aGk=",\n  "set": [\n    "x",\n    "y"\n  ]\n}\n',
    );
  });
});
