import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadYaml, loadYamlAll } from "./load.js";
import { YamlTimestamp } from "./timestamp.js";
import { catchMergeError as fails } from "../../../test-kit/errors.js";

const py = (text: string): unknown => loadYaml(text, { flavor: "pyyaml" });
const salt = (text: string): unknown => loadYaml(text, { flavor: "salt" });

describe("YAML 1.1 implicit types (PyYAML resolver)", () => {
  it("reads every YAML 1.1 boolean spelling but not y/n", () => {
    const words = "yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF".split(" ");
    for (const w of words)
      expect(py(`v: ${w}`)).toEqual({ v: ["yes", "true", "on"].includes(w.toLowerCase()) });
    for (const w of ["y", "Y", "n", "N", "yES", "tRUE", "oN"]) expect(py(`v: ${w}`)).toEqual({ v: w });
  });

  it("reads YAML 1.1 integers: binary, octal, hex, underscores, base 60", () => {
    expect(py("[0b1010, 0755, 0x1F, 1_000, '1_000', 1:30, 12:30, -1:30, +12, -0, 0, 0_7, 0x_1f]")).toEqual([
      10,
      493,
      31,
      1000,
      "1_000",
      90,
      750,
      -90,
      12,
      0,
      0,
      7,
      31,
    ]);
  });

  it("builds an explicit !!int as Python's int(text, base) does, YAML 1.2 octal included", () => {
    // Resolved implicitly `0o644` is a string; tagged, PyYAML hands "0o644" to int(..., 8), which takes the prefix.
    expect(
      py("mode: !!int 0o644\nplain: 0o644\nneg: !!int -0O17\nhex: !!int 0x0x1F\nbin: !!int 0b0b11"),
    ).toEqual({
      mode: 420,
      plain: "0o644",
      neg: -15,
      hex: 31,
      bin: 3,
    });
    expect(salt("neg: !!int -0o17\n")).toEqual({ neg: -15 });
    // Salt strips the leading zero first, and int("o644", 8) fails.
    expect(fails(() => salt("mode: !!int 0o644\n")).code).toBe("YAML_TAG");
    for (const text of ["a: !!int 0o", "a: !!int 0o8", "a: !!int 00o7", "a: !!int 0x"]) {
      expect(fails(() => py(text)).code).toBe("YAML_TAG");
    }
  });

  it("keeps digits that are no YAML 1.1 number as strings", () => {
    expect(py("[1e3, 0o17, 09, 0:30, 1:60, 1.0e3, 1__, 0b2]")).toEqual([
      "1e3",
      "0o17",
      "09",
      "0:30",
      "1:60",
      "1.0e3",
      1,
      "0b2",
    ]);
  });

  it("reads floats only with a dot, exponents only with a sign", () => {
    const v = py("[1.5, 1.0e+3, 1_0.5, .5, 1., -.inf, .Inf, +.INF, 1:30.5, 6.8523015e+5]") as number[];
    expect(v).toEqual([
      1.5,
      1000,
      10.5,
      0.5,
      1,
      Number.NEGATIVE_INFINITY,
      Infinity,
      Infinity,
      90.5,
      685230.15,
    ]);
    expect(Number.isNaN(py(".nan"))).toBe(true);
    expect(Number.isNaN(py(".NaN"))).toBe(true);
    expect(py(".NAn")).toBe(".NAn");
  });

  it("reads null as ~, null, Null, NULL and the empty value", () => {
    expect(py("a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nULL")).toEqual({
      a: null,
      b: null,
      c: null,
      d: null,
      e: null,
      f: "nULL",
    });
    expect(py("")).toBeNull();
    expect(py("# only a comment\n")).toBeNull();
  });

  it("keeps quoted and block scalars as strings", () => {
    expect(py(`- 'yes'\n- "123"\n- |\n  on\n- >-\n  12\n`)).toEqual(["yes", "123", "on\n", "12"]);
  });

  it("keeps integers beyond 2^53 exact as bigint", () => {
    expect(py("123456789012345678901234567890")).toBe(123456789012345678901234567890n);
    expect(py("9007199254740991")).toBe(9007199254740991);
    expect(py("0x1FFFFFFFFFFFFFFFF")).toBe(0x1ffffffffffffffffn);
  });

  it("builds PyYAML timestamps as YamlTimestamp dates", () => {
    const d = py("2001-12-14") as YamlTimestamp;
    expect(d).toBeInstanceOf(YamlTimestamp);
    expect(d).toBeInstanceOf(Date);
    expect(d.kind).toBe("date");
    expect(d.toISOString()).toBe("2001-12-14T00:00:00.000Z");
    const t = py("2001-12-14t21:59:43.10-05:00") as YamlTimestamp;
    expect(t.toISOString()).toBe("2001-12-15T02:59:43.100Z");
    expect(t.offsetMinutes).toBe(-300);
    expect(t.microsecond).toBe(100000);
    const naive = py("2001-12-14 21:59:43.1234567") as YamlTimestamp;
    expect(naive.offsetMinutes).toBeNull();
    expect(naive.microsecond).toBe(123456);
    expect(naive.toPythonIsoformat(" ")).toBe("2001-12-14 21:59:43.123456");
    expect((py("2001-12-14 21:59:43 Z") as YamlTimestamp).toPythonIsoformat(" ")).toBe(
      "2001-12-14 21:59:43+00:00",
    );
    expect(py("2001-1-14")).toBe("2001-1-14");
  });

  it("refuses impossible dates as datetime does", () => {
    expect(fails(() => py("2001-02-30")).code).toBe("YAML_TAG");
    expect(fails(() => py("2001-12-14 24:00:00")).code).toBe("YAML_TAG");
  });
});

describe("base 60 and Python's int limits", () => {
  it("sums base-60 floats in PyYAML's order and overflows where Python does", () => {
    expect(py("a: 190:20:30.15")).toEqual({ a: 685230.15 });
    expect(py('a: !!float " 1 : 2 "')).toEqual({ a: 62 });
    expect(py("a: !!float 1_0:1_0.5")).toEqual({ a: 610.5 });
    expect((py(`a: 1${":1".repeat(170)}.5`) as { a: number }).a).toBe(1.9634136409562277e302);
    expect(fails(() => py(`a: 1${":1".repeat(180)}.5`)).message).toMatch(/int too large to convert to float/);
  });

  it("reads long base-60 integers exactly and refuses decimal ints of more than 4,300 digits, as Python 3.11 does", () => {
    expect(py(`a: 1${":00".repeat(3000)}`)).toEqual({ a: 60n ** 3000n });
    expect(py(`a: 1${"1".repeat(4299)}`)).toEqual({ a: BigInt(`1${"1".repeat(4299)}`) });
    expect(fails(() => py(`a: 1${"1".repeat(4300)}`)).message).toMatch(/Exceeds the limit \(4300 digits\)/);
    expect(fails(() => salt(`a: 0${"1".repeat(4301)}`)).code).toBe("YAML_TAG");
    expect(py(`a: 0x${"f".repeat(5000)}`)).toEqual({ a: 16n ** 5000n - 1n });
  });
});

describe("salt flavour (SaltYamlSafeLoader)", () => {
  it("strips leading zeros of unsigned integers but keeps signed octal", () => {
    expect(salt("[0123, -012, +012, 0, 00, 0x1F, 0b11, 0_7, 1_000]")).toEqual([
      123, -10, 10, 0, 0, 31, 3, 7, 1000,
    ]);
    expect(salt("!!int '0755'")).toBe(755);
    expect(py("!!int '0755'")).toBe(493);
  });

  it("keeps timestamps as strings", () => {
    expect(salt("a: 2001-12-14\nb: 2001-12-14 21:59:43.10 -5\nc: !!timestamp 2002-01-01")).toEqual({
      a: "2001-12-14",
      b: "2001-12-14 21:59:43.10 -5",
      c: "2002-01-01",
    });
  });

  it("reads !!timestamp and !!omap as the released loader of Salt 3006 and 3007 does", () => {
    // Expected: salt/utils/yamlloader.py run on PyYAML 6.0 with libyaml. A 3007 variant that built datetimes for
    // !!timestamp and ordered mappings for !!omap (refusing a repeated key) was proposed but never released.
    expect(salt("a: !!timestamp x\n")).toEqual({ a: "x" });
    expect(loadYaml("a: !!omap [{x: 1}, {x: 2}]\n", { flavor: "salt", values: "exact" })).toEqual(
      loadYaml("a: [[x, 1], [x, 2]]\n", { flavor: "salt", values: "exact" }),
    );
    expect(fails(() => salt("a: !!omap {x: 1}\n")).source).toMatchObject({ line: 1, column: 4 });
  });

  it("refuses duplicate keys with a coded error at the second key", () => {
    const error = fails(() => loadYaml("a: 1\nb: 2\na: 3\n", { flavor: "salt", filename: "top.sls" }));
    expect(error.code).toBe("YAML_DUPLICATE_KEY");
    expect(error.message).toContain("found conflicting ID 'a'");
    expect(error.source).toMatchObject({ file: "top.sls", line: 3, column: 1 });
    // Python compares keys by value: 1 and true are the same key, 1 and "1" are not.
    expect(fails(() => salt("{1: a, true: b}")).code).toBe("YAML_DUPLICATE_KEY");
  });

  it("lets explicit keys win over merged ones, and refuses a key merged twice", () => {
    expect(salt("b: &b {x: 1, y: 2}\nc:\n  <<: *b\n  x: 9")).toEqual({
      b: { x: 1, y: 2 },
      c: { x: 9, y: 2 },
    });
    const error = fails(() => salt("p: &p {q: 1}\nr: &r {q: 2}\ns:\n  <<: [*p, *r]\n"));
    expect(error.code).toBe("YAML_DUPLICATE_KEY");
  });

  it("reads !!python/unicode as a string (PyYAML's safe loader refuses it)", () => {
    expect(salt("!!python/unicode x")).toBe("x");
    expect(fails(() => py("!!python/unicode x")).code).toBe("YAML_TAG");
  });

  it("refuses !!python/unicode on a collection only after the rest of the document, which Salt reads on", () => {
    // Salt's constructor hands back the collection's nodes, building nothing inside and raising nothing.
    const inside = fails(() => salt("k: !!python/unicode [!foo a]\n"));
    expect(inside.code).toBe("YAML_TAG");
    expect(inside.source).toMatchObject({ line: 1, column: 4 });
    const later = fails(() => salt("k: !!python/unicode [a]\nx: 1\nx: 2\n"));
    expect(later.code).toBe("YAML_DUPLICATE_KEY");
    expect(later.source).toMatchObject({ line: 3, column: 1 });
    expect(fails(() => salt("k: !!python/unicode {a: 1}\nb: !foo x\n")).source).toMatchObject({
      line: 2,
      column: 4,
    });
    // Merged, it is a mapping like any other.
    expect(salt("m:\n  <<: !!python/unicode {a: 1}\n")).toEqual({ m: { a: 1 } });
    expect(fails(() => py("k: !!python/unicode [a]\nx: 1\nx: 2\n")).source).toMatchObject({
      line: 1,
      column: 4,
    });
  });
});

describe("mappings", () => {
  it("keeps the last duplicate key in its first position (PyYAML)", () => {
    const v = py("a: 1\nb: 2\na: 3") as Record<string, unknown>;
    expect(v).toEqual({ a: 3, b: 2 });
    expect(Object.keys(v)).toEqual(["a", "b"]);
  });

  it("names non-string keys as json.dumps does", () => {
    expect(py("{1: a, 1.5: b, 2.0: c, false: d, null: e, .inf: f, 0x10: g, 2001-12-14: h}")).toEqual({
      1: "a",
      "1.5": "b",
      "2.0": "c",
      false: "d",
      null: "e",
      Infinity: "f",
      16: "g",
      "2001-12-14": "h",
    });
  });

  it("treats keys equal in Python (1, 1.0, true) as one key", () => {
    expect(py("{1: a, 1.0: b, true: c}")).toEqual({ 1: "c" });
  });

  it("keeps typed keys apart in exact mode (and in the older map mode)", () => {
    const v = loadYaml("1: int\n'1': str\nfalse: bool\n~: none", { values: "exact" }) as PyDict;
    expect(v).toBeInstanceOf(PyDict);
    expect(loadYaml("1: a", { mappings: "map" })).toBeInstanceOf(PyDict);
    expect([...v.entries()]).toEqual([
      [1, "int"],
      ["1", "str"],
      [false, "bool"],
      [null, "none"],
    ]);
    expect(v.get(1)).toBe("int");
    expect(v.get("1")).toBe("str");
  });

  it("refuses collection keys as unhashable", () => {
    const error = fails(() => py("? [a, b]\n: 1"));
    expect(error.code).toBe("YAML_KEY");
    expect(fails(() => py("{{a: 1}: 2}")).code).toBe("YAML_KEY");
  });

  it("applies << merge keys: explicit keys win, earlier mappings of a list win", () => {
    const text = "x: &a {p: 1, q: 2}\ny: &b {q: 3, r: 4}\nz:\n  <<: [*a, *b]\n  p: 9\n";
    expect(py(text)).toEqual({ x: { p: 1, q: 2 }, y: { q: 3, r: 4 }, z: { q: 2, r: 4, p: 9 } });
    expect(py("a: &a {k: 1}\nb:\n  k: 0\n  <<: *a")).toEqual({ a: { k: 1 }, b: { k: 0 } });
    expect(py("b:\n  <<: {k: 1, <<: {m: 2}}")).toEqual({ b: { m: 2, k: 1 } });
    expect(py("'<<': 1")).toEqual({ "<<": 1 });
  });

  it("refuses merging a scalar or a list holding a scalar", () => {
    expect(fails(() => py("a:\n  <<: 1")).code).toBe("YAML_PARSE");
    expect(fails(() => py("a:\n  <<: [1]")).message).toContain("expected a mapping for merging");
  });
});

describe("a mapping that merges itself (values recorded from PyYAML 6.0 and Salt's loader)", () => {
  /** The keys of each mapping in order, as `[key, value]` lists: the order PyYAML's dict keeps. */
  const entries = (value: unknown): unknown =>
    value instanceof PyDict
      ? [...value].map(([key, inner]) => [key, entries(inner)])
      : Array.isArray(value)
        ? value.map(entries)
        : value;
  const read = (text: string, flavor: "pyyaml" | "salt"): unknown =>
    entries(loadYaml(text, { flavor, values: "exact" }));

  it("takes the entries the mapping holds once its own << is taken out", () => {
    const text = "large: &l\n  <<: [*l]\n  cpu: 8\n  cpu: 9\n";
    // PyYAML reads cpu four times (twice merged, twice written): the last one wins.
    expect(read(text, "pyyaml")).toEqual([["large", [["cpu", 9]]]]);
    // Salt keeps the written ones only, and refuses the key written twice.
    const error = fails(() => read(text, "salt"));
    expect(error.code).toBe("YAML_DUPLICATE_KEY");
    expect(error.message).toContain("found conflicting ID 'cpu'");
    expect(error.source).toMatchObject({ line: 4, column: 3 });
    for (const flavor of ["pyyaml", "salt"] as const) {
      expect(read("large: &l\n  <<: *l\n  cpu: 8\n", flavor)).toEqual([["large", [["cpu", 8]]]]);
      expect(read("l: &l\n  a: 1\n  <<: *l\n  b: 2\n  <<: *l\n", flavor)).toEqual([
        [
          "l",
          [
            ["a", 1],
            ["b", 2],
          ],
        ],
      ]);
      expect(read("l: &l {<<: *l, <<: {a: 1}}\n", flavor)).toEqual([["l", [["a", 1]]]]);
      expect(read("a: &a\n  - <<: *a\n", flavor)).toEqual([["a", [[]]]]);
    }
  });

  it("puts merged entries first in PyYAML and drops those written again in Salt", () => {
    const text = "l: &l\n  a: 1\n  <<: [{b: 2}, *l]\n  c: 3\n";
    expect(read(text, "pyyaml")).toEqual([
      [
        "l",
        [
          ["a", 1],
          ["c", 3],
          ["b", 2],
        ],
      ],
    ]);
    expect(read(text, "salt")).toEqual([
      [
        "l",
        [
          ["b", 2],
          ["a", 1],
          ["c", 3],
        ],
      ],
    ]);
    // A mapping inside merges its parent as the parent stands when it is built: `n` comes along.
    const nested = "l: &l\n  m:\n    <<: *l\n    m: 1\n  n: 2\n";
    expect(read(nested, "pyyaml")).toEqual([
      [
        "l",
        [
          [
            "m",
            [
              ["m", 1],
              ["n", 2],
            ],
          ],
          ["n", 2],
        ],
      ],
    ]);
    expect(read(nested, "salt")).toEqual([
      [
        "l",
        [
          [
            "m",
            [
              ["n", 2],
              ["m", 1],
            ],
          ],
          ["n", 2],
        ],
      ],
    ]);
  });

  it("reports the errors PyYAML meets in it", () => {
    for (const flavor of ["pyyaml", "salt"] as const) {
      const tag = fails(() => read("l: &l\n  <<: *l\n  x: !foo 1\n", flavor));
      expect(tag.code).toBe("YAML_TAG");
      expect(tag.source).toMatchObject({ line: 3, column: 6 });
      const scalar = fails(() => read("l: &l\n  <<: [*l, 1]\n", flavor));
      expect(scalar.message).toContain("expected a mapping for merging, but found scalar");
      expect(scalar.source).toMatchObject({ line: 2, column: 12 });
    }
    const twice = "m: &m {a: 0}\nl: &l\n  <<: [*m, *l]\n  a: 1\n  a: 2\n";
    expect(read(twice, "pyyaml")).toEqual([
      ["m", [["a", 0]]],
      ["l", [["a", 2]]],
    ]);
    expect(fails(() => read(twice, "salt")).source).toMatchObject({ line: 5, column: 3 });
  });

  it("refuses a merge that makes a value hold itself, as any recursive alias, unless a written key replaces it", () => {
    for (const flavor of ["pyyaml", "salt"] as const) {
      // `m` takes `m: <m>` from its parent: PyYAML builds a cycle.
      const error = fails(() => read("l: &l\n  x: 1\n  m:\n    <<: *l\n", flavor));
      expect(error.code).toBe("YAML_PARSE");
      expect(error.message).toContain("recursive alias");
      // Written again in `m`, the key no longer leads back.
      expect(read("l: &l\n  m:\n    <<: *l\n    m: 1\n", flavor)).toEqual([["l", [["m", [["m", 1]]]]]]);
    }
  });
});

describe("tags (SafeLoader)", () => {
  it("constructs the standard tags", () => {
    const v = py(
      "- !!str 123\n- !!int '42'\n- !!float '1e3'\n- !!bool 'YeS'\n- !!null 'x'\n- !!binary aGVsbG8=\n- !!map {a: 1}\n- !!seq [1]\n- ! 123\n- !!timestamp 2001-12-14\n",
    ) as unknown[];
    expect(v.slice(0, 5)).toEqual(["123", 42, 1000, true, null]);
    expect(v[5]).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(v[5] as Uint8Array).toString()).toBe("hello");
    expect(v.slice(6, 9)).toEqual([{ a: 1 }, [1], 123]);
    expect(v[9]).toBeInstanceOf(YamlTimestamp);
  });

  it("decodes !!binary as Python's base64.decodebytes does, padding in the middle included", () => {
    const text = (v: unknown) => Buffer.from(v as Uint8Array).toString();
    // Padding that completes a group ends the data; padding that cannot is skipped, like any other character.
    expect(text(py("!!binary aGVsbG8===\n"))).toBe("hello");
    expect(text(py("!!binary aGk=aGk=\n"))).toBe("hi");
    expect(text(py("!!binary =aGk=\n"))).toBe("hi");
    expect(text(py("!!binary |\n  aGVs\n  bG8=\n  ....\n"))).toBe("hello");
    expect(text(salt("!!binary aGk=.. trailing\n"))).toBe("hi");
    expect(text(py("!!binary aGVsbG8=a\n"))).toBe("hello");
    for (const bad of ["!!binary aGk", "!!binary a", "!!binary aGVsb"]) {
      expect(fails(() => py(bad)).code).toBe("YAML_TAG");
    }
  });

  it("builds !!set as a Set and !!omap / !!pairs as key-value pairs", () => {
    expect(py("!!set {a, b, 1}")).toEqual(new Set(["a", "b", 1]));
    expect(py("!!omap [a: 1, b: 2]")).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(py("!!pairs [a: 1, a: 2]")).toEqual([
      ["a", 1],
      ["a", 2],
    ]);
    expect(fails(() => py("!!omap [a: 1, {b: 2, c: 3}]")).code).toBe("YAML_TAG");
  });

  it("refuses python and js tags and unknown local tags", () => {
    for (const text of [
      "!!python/object:os.system x",
      "!!python/name:os.system ''",
      "!js/function x",
      "!foo x",
      "!foo {a: 1}",
    ]) {
      const error = fails(() => py(text));
      expect(error.code).toBe("YAML_TAG");
      expect(error.message).toContain("could not determine a constructor");
    }
  });

  it("places a tag error at the tag, as PyYAML does", () => {
    // Also when the tag ends the line before its node (expected marks: PyYAML and libyaml).
    expect(fails(() => salt("a: 1\nk: !!python/name:os.system\n  x: 1\n")).source).toMatchObject({
      line: 2,
      column: 4,
    });
    expect(fails(() => py("k: &a !ref\n  - 1\n")).source).toMatchObject({ line: 1, column: 4 });
    expect(fails(() => py("k: !ref &a\n\n  - 1\n")).source).toMatchObject({ line: 1, column: 4 });
    // An anchor on the line before belongs to the mapping, not to the tagged key.
    expect(fails(() => py("m: &m\n  !foo k: 8\n")).source).toMatchObject({ line: 2, column: 3 });
    expect(fails(() => py("a: !foo x")).source).toMatchObject({ line: 1, column: 4 });
    expect(fails(() => py("- 1\n- !!int abc")).source).toMatchObject({ line: 2, column: 3 });
    // The node starts at its first property, the anchor here.
    expect(fails(() => py("a: &x !!python/name:os.system ''")).source).toMatchObject({ line: 1, column: 4 });
  });

  it("marks a key without its ':' where libyaml finds out: the ':' after a key run onto the next line", () => {
    // A templated state ID rendered across two lines, then `file.managed:` (marks recorded with libyaml).
    const state = "a:\n  b: 1\n/etc/x.pub\n  \n  file.managed:\n    - user: root\n";
    expect(fails(() => salt(state)).source).toMatchObject({ line: 5, column: 15 });
    expect(fails(() => salt("k: v\nfoo\n  bar: 1\n")).source).toMatchObject({ line: 3, column: 6 });
    expect(fails(() => py("- foo\n  bar: 1\n")).source).toMatchObject({ line: 2, column: 6 });
    expect(fails(() => py("foo\n  bar  : 1\n")).source).toMatchObject({ line: 2, column: 8 });
    expect(fails(() => py("? a\n  b: 1\n")).source).toMatchObject({ line: 2, column: 4 });
    expect(fails(() => py("foo\nbar: 1\n")).source).toMatchObject({ line: 2, column: 4 });
    // A key that cannot go on (the next line is no deeper than the open mapping, or a comment): what comes next.
    expect(fails(() => salt("a: 1\nfoo\nb: 2\n")).source).toMatchObject({ line: 3, column: 1 });
    expect(fails(() => salt("a:\n  x: 1\n  foo\n  y: 2\n")).source).toMatchObject({ line: 4, column: 3 });
    expect(fails(() => salt("a: 1\nfoo\n  # c\nb: 2\n")).source).toMatchObject({ line: 3, column: 3 });
    expect(fails(() => salt("a: 1\nfoo # c\n\n  # x\nb: 2\n")).source).toMatchObject({ line: 5, column: 1 });
    expect(fails(() => salt("a: 1\n{'x': [1, 2]}\n\nc: 3\n")).source).toMatchObject({ line: 4, column: 1 });
    // A key starting with what cannot start a token stays marked there.
    expect(fails(() => salt("@\n    a: b\n")).source).toMatchObject({ line: 1, column: 1 });
  });

  it("reports, of several errors, the one PyYAML meets first: shallow collections are built before deep ones", () => {
    // PyYAML fills a collection only after the collections met before it, level by level: the unknown tag on
    // line 4 is met before the one on line 3, which sits one level deeper (as in some Google Cloud SDK files).
    const text = "a:\n  b:\n    c: !ref x\n  d: !ref y\n";
    for (const load of [py, salt])
      expect(fails(() => load(text)).source).toMatchObject({ line: 4, column: 6 });
    expect(fails(() => py("- [[!x 1]]\n- [!y 2]\n")).source).toMatchObject({ line: 2, column: 4 });
    // A tag no collection can take fails where it is met, before the deeper contents of earlier collections.
    expect(fails(() => py("- [[!x 1]]\n- !!str [2]\n")).source).toMatchObject({ line: 2, column: 3 });
    // Salt builds a value before it checks that its key is new.
    const dup = fails(() => salt("a: 1\na: !foo x\n"));
    expect(dup.code).toBe("YAML_TAG");
    expect(dup.source).toMatchObject({ line: 2, column: 4 });
    const nested = fails(() => salt("a: 1\na:\n  b: !foo x\n"));
    expect(nested.code).toBe("YAML_DUPLICATE_KEY");
    expect(nested.source).toMatchObject({ line: 2, column: 1 });
  });

  it("reads a key tagged !!value as the text it holds, as flatten_mapping retags it a string", () => {
    for (const load of [py, salt]) {
      expect(load("{!!value x: 1}")).toEqual({ x: 1 });
      expect(load("? !!value |\n  x\n: 1\n")).toEqual({ "x\n": 1 });
      expect(load("=: 1\n")).toEqual({ "=": 1 });
    }
  });

  it("refuses a collection's tag on a scalar where PyYAML fills the collection, after the nodes met before", () => {
    for (const load of [py, salt]) {
      const error = fails(() => load("b: !!seq x\nd: !foo {a: 1}\n"));
      expect(error.message).toContain("'!foo'");
      expect(error.source).toMatchObject({ line: 2, column: 4 });
      expect(fails(() => load("b: !!set x\n")).message).toContain(
        "expected a mapping node, but found scalar",
      );
    }
  });

  it("refuses a tag on the wrong kind of node or a value it cannot build", () => {
    expect(fails(() => py("!!int abc")).code).toBe("YAML_TAG");
    expect(fails(() => py("!!bool maybe")).code).toBe("YAML_TAG");
    expect(fails(() => py("!!str [a]")).code).toBe("YAML_TAG");
    expect(fails(() => py("!!map a")).code).toBe("YAML_TAG");
    expect(fails(() => py("!!seq {a: 1}")).code).toBe("YAML_TAG");
  });
});

describe("documents, encoding and syntax errors", () => {
  it("refuses a second document but loadYamlAll reads them all", () => {
    const error = fails(() => loadYaml("a: 1\n---\nb: 2\n", { filename: "x.yaml" }));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.message).toContain("expected a single document");
    expect(error.source).toMatchObject({ file: "x.yaml", line: 2 });
    expect(loadYamlAll("a: 1\n---\nb: 2\n---\n")).toEqual([{ a: 1 }, { b: 2 }, null]);
    expect(loadYamlAll("")).toEqual([]);
    expect(py("--- a\n...\n")).toBe("a");
  });

  it("skips a byte-order mark and decodes UTF-8 and UTF-16 buffers", () => {
    expect(py("\ufeffa: 1")).toEqual({ a: 1 });
    expect(loadYaml(Buffer.from("\ufeffa: é"))).toEqual({ a: "é" });
    expect(loadYaml(Buffer.from("\ufeffa: 1", "utf16le"))).toEqual({ a: 1 });
  });

  it("ends lines at CR LF and at a lone CR", () => {
    expect(py("a: 1\r\nb: [x, y]\r\nc: |\r\n  l1\r\n  l2\r\n")).toEqual({
      a: 1,
      b: ["x", "y"],
      c: "l1\nl2\n",
    });
    expect(py("- a\r- b\r")).toEqual(["a", "b"]);
  });

  it("ends lines at NEL as YAML 1.1 does", () => {
    expect(py("a: x\u0085b: y")).toEqual({ a: "x", b: "y" });
    expect(py("a: 'p\u0085  q'")).toEqual({ a: "p q" });
    expect(py("a: |\n  l1\u0085  l2\n")).toEqual({ a: "l1\nl2\n" });
    expect(py("- a\u0085- b")).toEqual(["a", "b"]);
  });

  // Expected values: PyYAML 6.0 (Debian's python3-yaml), yaml.safe_load and CSafeLoader.
  it("ends lines at LINE and PARAGRAPH SEPARATOR too, keeping the separator where PyYAML keeps it", () => {
    for (const load of [py, salt]) {
      expect(load("a: x\u2028b: y")).toEqual({ a: "x", b: "y" });
      expect(load("# comment\u2029a: 1")).toEqual({ a: 1 });
      expect(load("a: 'x\u2028y'")).toEqual({ a: "x\u2028y" });
      expect(load('a: "x \u2028 y"')).toEqual({ a: "x\u2028y" });
      expect(load("a: x\u2028 y")).toEqual({ a: "x\u2028y" });
      expect(load("k: |\n  x\u2028  y\n")).toEqual({ k: "x\u2028y\n" });
      expect(load("k: >\n  a\u2028  b\n  c\n\n  d\n")).toEqual({ k: "a\u2028b c\nd\n" });
      expect(load("k: >\n  a\u2029\n  b\u2029\n")).toEqual({ k: "a\u2029\nb\u2029" });
    }
  });

  it("reads quoted scalars whose lines are indented no deeper than their key (issue 11)", () => {
    for (const load of [py, salt]) {
      expect(load("a: 'x\ny'")).toEqual({ a: "x y" });
      expect(load('k:\n  a: "x\n  y"\n  b: 1')).toEqual({ k: { a: "x y", b: 1 } });
      expect(load("- 'a\nb'\n- c")).toEqual(["a b", "c"]);
      expect(load("a:\n  - b: 'c\n d'\n    e: 2")).toEqual({ a: [{ b: "c d", e: 2 }] });
      expect(load("a: 'p  \n\n\n  q  '")).toEqual({ a: "p\n\nq  " });
      expect(load('a: "p\\\n   q"')).toEqual({ a: "pq" });
      expect(load('a: "p \\\n\n   q"')).toEqual({ a: "p \nq" });
      // Flow collections check no indentation either.
      expect(load("k: [a,\nb]\nz: 1")).toEqual({ k: ["a", "b"], z: 1 });
      expect(load("k: [x  \ny z, 'p\nq']")).toEqual({ k: ["x y z", "p q"] });
      // A document marker inside a quoted scalar ends it, and the missing quote is an error.
      expect(fails(() => load("a: 'x\n---\n  y'")).code).toBe("YAML_PARSE");
    }
  });

  it("scans flow keys and anchors as PyYAML does", () => {
    for (const load of [py, salt]) {
      for (const text of [
        "{a: 1, b\n: 2}",
        "{'q\n': v}",
        "[: a]",
        "{: a}",
        "[:a]",
        "{!!str\n: v}",
        "k: &&",
        "k: &a.b x",
      ]) {
        expect(fails(() => load(text)).code).toBe("YAML_PARSE");
      }
      expect(fails(() => load(`{${"a".repeat(1100)}: v}`)).code).toBe("YAML_PARSE");
      expect(load("[a:b, &x-1 c, *x-1]")).toEqual(["a:b", "c", "c"]);
    }
    // PyYAML ends a plain scalar at `?` in a flow collection; libyaml does not.
    expect(fails(() => py("[http://x.y/z?a=b]")).code).toBe("YAML_PARSE");
    expect(salt("[http://x.y/z?a=b]")).toEqual(["http://x.y/z?a=b"]);
  });

  it("refuses invalid UTF-8 and special characters", () => {
    expect(fails(() => loadYaml(Buffer.from([0x61, 0x3a, 0x20, 0xff]))).code).toBe("YAML_ENCODING");
    const error = fails(() => py("a: 1\nb: \u0007"));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source).toMatchObject({ line: 2, column: 4 });
  });

  it("refuses tab indentation with a position", () => {
    const error = fails(() => loadYaml("a:\n\tb: 1\n", { filename: "t.yaml" }));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source).toMatchObject({ file: "t.yaml", line: 2 });
  });

  it("refuses a node after an explicit key that has no value indicator", () => {
    const error = fails(() => py("? a\n? b\n- c"));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source).toMatchObject({ line: 3, column: 1 });
    expect(py("? a\n: - c")).toEqual({ a: ["c"] });
  });

  it("follows libyaml's tab rules in the salt flavour and PyYAML's in the pyyaml flavour", () => {
    for (const text of ["a:\t1", "a: [\tb]", "a: 1\t", "a: 1\n  \t# c\n"]) {
      expect(salt(text)).toEqual(py(text.replace(/\t/g, " ")));
      expect(fails(() => py(text)).code).toBe("YAML_PARSE");
    }
    for (const text of ["? \ta", "-\ta", "a:\n  -\tb", "  \ta: 1", "\n    \t", "\t# c\na: 1"]) {
      expect(fails(() => salt(text)).code).toBe("YAML_PARSE");
    }
    expect(py("a: 'x\ty'\nb: |\n  p\tq\n# \tc")).toEqual({ a: "x\ty", b: "p\tq\n" });
  });

  it("refuses escaped surrogates in the salt flavour, as libyaml does, and reads them in the pyyaml flavour", () => {
    // An emoji in JSON written with ensure_ascii (Jinja's tojson): a surrogate pair of escapes.
    for (const text of ['{"icon": "\\ud83d\\ude00"}\n', 'motd: "hi \\ud83d\\ude00"\n', 'a: ["\\udfff"]\n']) {
      const error = fails(() => salt(text));
      expect(error.code).toBe("YAML_PARSE");
      expect(error.message).toContain("invalid Unicode character escape code");
    }
    expect(py('{"icon": "\\ud83d\\ude00"}\n')).toEqual({ icon: "\u{1f600}" });
    // An escaped backslash before `u` is no escape of a code point; other code points are fine in both.
    expect(salt('a: "\\\\ud83d \\u00e9 \\U0001F600"\n')).toEqual({ a: "\\ud83d \u00e9 \u{1f600}" });
  });

  it("takes a block scalar on the line after its key, at the key's indentation, for the key's value", () => {
    for (const load of [py, salt]) {
      expect(load("after_success:\n|-\n  - run coveralls\nnext: 1\n")).toEqual({
        after_success: "- run coveralls",
        next: 1,
      });
      expect(load("p:\n  k:\n  # c\n  >\n    folded\n  z: 1\nq: 2\n")).toEqual({
        p: { k: "folded\n", z: 1 },
        q: 2,
      });
      // An anchor or tag there starts a simple key, which then lacks its colon.
      expect(fails(() => load("k:\n&a |\n  x\n")).code).toBe("YAML_PARSE");
      // Lines at the key's indentation end the scalar (empty here), and a deeper line after them is refused.
      expect(fails(() => load("p:\n  c:\n  |-\n  t: o\n    d: u\n")).code).toBe("YAML_PARSE");
    }
  });

  it("refuses a comment glued to a block scalar's indicators in the pyyaml flavour only", () => {
    for (const text of ["motd: |# shown at login\n  hello\n", "a: >-#c\n  x\n", "- |2#\n   x\n"]) {
      expect(fails(() => py(text)).message).toContain("expected chomping or indentation indicators");
      expect(() => salt(text)).not.toThrow();
    }
    expect(salt("motd: |# shown at login\n  hello\n")).toEqual({ motd: "hello\n" });
    expect(py("motd: | # shown at login\n  hello\n")).toEqual({ motd: "hello\n" });
  });

  it("checks %YAML and %TAG directives as PyYAML's parser and libyaml do", () => {
    for (const load of [py, salt]) {
      const flavor = load === py ? "pyyaml" : "salt";
      // Each document has directives of its own.
      expect(loadYamlAll("%YAML 1.2\n--- a\n...\n%YAML 1.1\n--- b\n", { flavor })).toEqual(["a", "b"]);
      expect(load("%TAG !e! tag:example.com,2000:\n---\nk: v\n")).toEqual({ k: "v" });
      for (const text of [
        "%YAML 1.1\n%YAML 1.1\n---\na: 1\n",
        "%YAML 2.0\n---\na: 1\n",
        "%TAG !e! tag:x,2000:\n%TAG !e! tag:y,2000:\n---\na: 1\n",
      ]) {
        expect(fails(() => load(text)).code).toBe("YAML_PARSE");
      }
    }
    // PyYAML takes any 1.x and skips a directive it does not know; libyaml takes 1.1 and 1.2 only, and no other name.
    for (const text of ["%YAML 1.3\n---\na: 1\n", "%YAML 1.0\n---\na: 1\n", "%FOO bar\n---\na: 1\n"]) {
      expect(py(text)).toEqual({ a: 1 });
      expect(fails(() => salt(text)).code).toBe("YAML_PARSE");
    }
    // libyaml marks an unknown directive at the end of its name.
    expect(fails(() => salt("%FOO bar\n---\na: 1\n")).source).toMatchObject({ line: 1, column: 5 });
  });

  it("takes tabs between a directive's parts in the salt flavour and refuses them, at the tab, in the pyyaml one", () => {
    // Expected: libyaml (Salt) reads each of these; PyYAML's pure-Python scanner stops at the tab's line and column.
    const cases: [string, unknown, number, number][] = [
      ["%YAML\t1.1\n---\na: 1\n", { a: 1 }, 1, 6],
      ["%YAML \t1.1\n---\na: 1\n", { a: 1 }, 1, 7],
      ["%YAML 1.1\t\n---\na: 1\n", { a: 1 }, 1, 10],
      ["%YAML 1.1 \t# c\n--- a\n", "a", 1, 11],
      ["%TAG\t!e! tag:example.com,2000:\n---\na: !e!x 1\n", undefined, 1, 5],
      ["%TAG !e!\ttag:example.com,2000:\n---\na: !e!x 1\n", undefined, 1, 9],
      ["%TAG !e! tag:example.com,2000:\t\n---\na: 1\n", { a: 1 }, 1, 31],
    ];
    for (const [text, value, line, column] of cases) {
      if (value === undefined) {
        // The handle is declared: the tag it names is then unknown to both loaders, on line 3.
        expect(fails(() => salt(text)).source).toMatchObject({ line: 3, column: 4 });
      } else expect(salt(text)).toEqual(value);
      const error = fails(() => py(text));
      expect(error.code).toBe("YAML_PARSE");
      expect(error.source).toMatchObject({ line, column });
    }
    // A tab right after an unknown directive's name too; after its first parameter PyYAML skips the rest.
    expect(fails(() => py("%FOO\tbar\n---\na: 1\n")).source).toMatchObject({ line: 1, column: 5 });
    expect(py("%FOO bar\tbaz\n---\na: 1\n")).toEqual({ a: 1 });
  });

  it("skips a document end marker repeated after another, as PyYAML and libyaml do", () => {
    for (const load of [py, salt]) {
      expect(load("a: 1\n...\n...\n")).toEqual({ a: 1 });
      expect(load("---\na: 1\n...\n# c\n\n...\n...\n")).toEqual({ a: 1 });
      expect(fails(() => load("a: 1\n...\n---\n")).source).toMatchObject({ line: 3, column: 1 });
    }
    expect(loadYamlAll("a\n...\n...\n---\nb\n...\n...\n")).toEqual(["a", "b"]);
  });

  it("reports syntax errors with 1-based line and column", () => {
    const error = fails(() => py("a: [1, 2\nb: 3\n"));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source?.line).toBeGreaterThanOrEqual(1);
    expect(error.source?.column).toBeGreaterThanOrEqual(1);
  });
});

describe("aliases", () => {
  it("shares the anchored value, as PyYAML does", () => {
    const v = py("a: &x [1, 2]\nb: *x") as { a: unknown; b: unknown };
    expect(v.b).toBe(v.a);
  });

  it("ends an anchor's name at a colon, anchoring an empty key as PyYAML does", () => {
    // A list item written `- &name:` with its keys below: the anchor is `name`, on a null key of the item.
    for (const load of [py, salt]) {
      const exact = (text: string) =>
        loadYaml(text, { flavor: load === py ? "pyyaml" : "salt", values: "exact" });
      const item = (exact("- &server:\n  host: db1\n  port: 5432\n") as PyDict[])[0]!;
      expect(item.keyList()).toEqual([null, "host", "port"]);
      expect(item.get(null)).toBe(null);
      expect(load("&x: 1\n")).toEqual({ null: 1 });
      expect(load("one: &n 1\n*n: alias key\n")).toEqual({ one: 1, 1: "alias key" });
      expect(load("{&k: v}")).toEqual({ null: "v" });
      // As the first key of a nested mapping too (with or without a space before the colon); a property on a
      // line of its own still belongs to the mapping below it.
      expect(load("schema:\n  &note:\n    type: object\nagain: *note\n")).toEqual({
        schema: { null: { type: "object" } },
        again: null,
      });
      expect(load("p:\n  &o : 2\n")).toEqual({ p: { null: 2 } });
      expect(load("p:\n  !!str :\n    t: o\n")).toEqual({ p: { "": { t: "o" } } });
      expect(load("p:\n  &m\n  k: v\nq: *m\n")).toEqual({ p: { k: "v" }, q: { k: "v" } });
      // Text after the colon is another token; a name of other characters is still refused.
      expect(fails(() => load("a: &x: 1\n")).code).toBe("YAML_PARSE");
      expect(fails(() => load("a: &b.c x\n")).code).toBe("YAML_PARSE");
    }
  });

  it("refuses a colon followed by a question mark inside a flow plain scalar, as libyaml and PyYAML do", () => {
    // Expected: libyaml (Salt) "found unexpected ':'" at the colon; PyYAML stops at the question mark.
    for (const [text, column] of [
      ["[a:?b]", 3],
      ["- {action:? DROP}\n", 10],
      ["[ab:?]", 4],
    ] as const) {
      expect(fails(() => salt(text)).source).toMatchObject({ line: 1, column });
      expect(fails(() => py(text)).code).toBe("YAML_PARSE");
    }
    // Outside flow collections, and without the colon in libyaml, it is text.
    expect(salt("x: a:?b\n")).toEqual({ x: "a:?b" });
    expect(salt("[a?b, a:b?c]")).toEqual(["a?b", "a:b?c"]);
  });

  it("takes a colon after an anchor, alias or tag in a flow collection for the value indicator, space or not", () => {
    // Expected values: PyYAML 6.0's SafeLoader and CSafeLoader, and Salt's SaltYamlSafeLoader, all alike.
    for (const flavor of ["pyyaml", "salt"] as const) {
      const load = (text: string): unknown => loadYaml(text, { flavor });
      expect(load("[&a:b]")).toEqual([{ null: "b" }]);
      expect(load("[&a :b]")).toEqual([{ null: "b" }]);
      expect(load("{&a:b}")).toEqual({ null: "b" });
      expect(load("[x, &a:b:c, &d:]")).toEqual(["x", { null: "b:c" }, { null: null }]);
      expect(load("k: &n 1\nl: [*n:b, *n :c]\n")).toEqual({ k: 1, l: [{ 1: "b" }, { 1: "c" }] });
      expect(load("[!!str :b]")).toEqual([{ "": "b" }]);
      // Only right after those properties: a plain scalar keeps its colon, a block context starts a scalar
      // with it, and the key and its colon must share a line.
      expect(load("[x:b]")).toEqual(["x:b"]);
      expect(load("- &a:b\n")).toEqual([":b"]);
      expect(fails(() => load("[&a\n:b]")).code).toBe("YAML_PARSE");
      expect(fails(() => load("[&a::b]")).code).toBe("YAML_PARSE");
    }
  });

  it("refuses undefined, duplicate and recursive anchors", () => {
    expect(fails(() => py("a: *nope")).message).toContain("found undefined alias");
    expect(fails(() => py("a: &x 1\nb: &x 2")).message).toContain("found duplicate anchor");
    expect(fails(() => py("a: &x [*x]")).message).toContain("recursive");
  });
});
