// The mergers on the exact value model (PyDict mappings, PyFloat floats), as cloud-init's Python sees the values.
import { PyDict, PyFloat, toPlain } from "@merge/core";
import { describe, expect, it } from "vitest";
import { formatCloudConfig } from "./output.js";
import { mergeCloudConfig } from "./parts.js";
import { createCloudInitRegistry } from "./plugins.js";
import { mergeUserData } from "./user-data.js";

const registry = createCloudInitRegistry();
const merge = (spec: string, base: unknown, incoming: unknown) =>
  registry.resolve(spec).merge(base, incoming);

describe("cloud-init mergers on PyDict values", () => {
  it("appends a mapping's keys in insertion order (cloud-init: list(append) of {'k': 1, '10': 2} gives ['k', '10'])", () => {
    const incoming = new PyDict([
      ["k", 1],
      ["10", 2],
    ]);
    expect(merge("list(append)", [], incoming)).toEqual(["k", "10"]);
    expect(merge("list(prepend)", ["x"], new PyDict([[0, "a"]]))).toEqual([0, "x"]);
  });

  it("keeps int and string keys apart and the result a PyDict", () => {
    const base = new PyDict<unknown>([
      [8080, "a"],
      ["8080", "b"],
    ]);
    const out = merge("dict(replace)+list()+str()", base, new PyDict([[8080, "c"]])) as PyDict;
    expect(out).toBeInstanceOf(PyDict);
    expect([...out.entries()]).toEqual([
      [8080, "c"],
      ["8080", "b"],
    ]);
    expect(base.get(8080)).toBe("a");
  });

  it("merges True into the key 1 (Python's key equality) and keeps the first spelling", () => {
    const out = merge("dict(replace)", new PyDict([[1, "int"]]), new PyDict([[true, "bool"]])) as PyDict;
    expect(out.keyList()).toEqual([1]);
    expect(out.get(1)).toBe("bool");
  });

  it("deletes with allow_delete and recurses into nested PyDicts", () => {
    const base = new PyDict<unknown>([
      ["a", new PyDict([["x", 1]])],
      ["b", 2],
    ]);
    const incoming = new PyDict<unknown>([
      ["a", new PyDict([["y", new PyFloat(2)]])],
      ["b", null],
    ]);
    const out = merge("dict(allow_delete)", base, incoming) as PyDict;
    expect(out.keyList()).toEqual(["a"]);
    const a = out.get("a") as PyDict;
    expect([...a.entries()]).toEqual([
      ["x", 1],
      ["y", new PyFloat(2)],
    ]);
  });

  it("no_replace against a mapping reads int keys 0..n-1, as Python indexes new[i]", () => {
    expect(
      merge(
        "list(no_replace)",
        [1, 2],
        new PyDict([
          [0, "a"],
          [1, "b"],
        ]),
      ),
    ).toEqual([1, 2]);
    expect(() => merge("list(no_replace)", [1], new PyDict([["0", "a"]]))).toThrow(/no key 0/);
  });

  it("treats a whole float as a number for str(append)", () => {
    expect(() => merge("str(append)", "a", new PyFloat(1))).toThrow(/cannot append a number/);
    expect(merge("str()", "a", new PyFloat(1))).toEqual(new PyFloat(1));
  });
});

describe("mergeCloudConfig's values option", () => {
  const parts = [
    "#cloud-config\nversion: 9.0\n'10': ten\n'9': nine\nports: {8080: a}\n",
    "#cloud-config\nmerge_how: 'dict(recurse_list)+list(append)'\nruncmd: [x]\nports: {'8080': b}\n",
  ];

  it("gives plain values by default, toPlain of the exact result that result.exact holds", () => {
    const result = mergeCloudConfig(parts);
    expect(result.value).toEqual({
      version: 9,
      "10": "ten",
      "9": "nine",
      ports: { "8080": "b" },
      runcmd: ["x"],
    });
    const exact = result.exact as PyDict;
    expect(exact).toBeInstanceOf(PyDict);
    expect(exact.keyList()).toEqual(["version", "10", "9", "ports", "runcmd"]);
    expect(toPlain(exact)).toEqual(result.value);
  });

  it("gives the exact model with values: exact, the same object as result.exact", () => {
    const result = mergeCloudConfig(parts, { values: "exact" });
    expect(result.value).toBe(result.exact);
    const ports = (result.value as PyDict).get("ports") as PyDict;
    expect([...ports.entries()]).toEqual([
      [8080, "a"],
      ["8080", "b"],
    ]);
    expect((result.value as PyDict).get("version")).toEqual(new PyFloat(9));
  });

  it("writes the same text from either, and from a hand-made { value, merged }", () => {
    const written = formatCloudConfig(mergeCloudConfig(parts));
    expect(formatCloudConfig(mergeCloudConfig(parts, { values: "exact" }))).toBe(written);
    expect(written).toContain("version: 9.0\n");
    expect(written).toContain("ports:\n    8080: a\n    '8080': b\n");
    expect(formatCloudConfig({ value: { a: 1 }, merged: ["x"] })).toBe(
      "#cloud-config\n\n# from 1 files\n# x\n\n---\na: 1\n...\n",
    );
  });

  it("converts data parts with toExact and keeps PyDict data as given", () => {
    const result = mergeCloudConfig(
      [
        { data: { b: 1, a: { x: 1 } } },
        {
          data: new PyDict<unknown>([
            [1, "int"],
            ["1", "str"],
          ]),
        },
      ],
      { values: "exact" },
    );
    expect((result.value as PyDict).keyList()).toEqual(["b", "a", 1, "1"]);
  });

  it("refuses an unknown values option with a coded error", () => {
    expect(() => mergeCloudConfig([], { values: "json" as "plain" })).toThrow(
      expect.objectContaining({ code: "CLOUD_CONFIG_MODE" }),
    );
  });

  it("applies JSON patches in the exact model: a float stays a float, int keys stay apart", async () => {
    const result = await mergeUserData(
      'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\nports: {8080: a}\n--B\nContent-Type: text/cloud-config-jsonp\n\n[{"op": "add", "path": "/ports/8080", "value": 1.0}]\n--B--\n',
      { values: "exact" },
    );
    expect(result.errors).toEqual([]);
    expect([...((result.value as PyDict).get("ports") as PyDict).entries()]).toEqual([
      [8080, "a"],
      ["8080", new PyFloat(1)],
    ]);
  });
});
