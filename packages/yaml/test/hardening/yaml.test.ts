import { isMergeError } from "@merge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dumpYaml, loadYaml, loadYamlAll, type YamlFlavor } from "../../src/index.js";
import { expectPristine, hostileJsonTexts, ownHostileKeys } from "../../../../test-kit/hostile.js";
import { figure, reportCounts, tally } from "../../../../test-kit/tally.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/yaml", import.meta.url);

const FLAVORS: readonly YamlFlavor[] = ["pyyaml", "salt"];

function laughs(levels: number, width = 9): string {
  let text = `l0: &l0 [${Array.from({ length: width }, () => '"lol"').join(",")}]\n`;
  for (let i = 1; i < levels; i++) {
    text += `l${i}: &l${i} [${Array.from({ length: width }, () => `*l${i - 1}`).join(",")}]\n`;
  }
  return text;
}

describe("prototype pollution from YAML", () => {
  it("loads hostile keys (JSON is YAML) as own data keys at any depth and inside lists", () => {
    let cases = 0;
    for (const text of hostileJsonTexts()) {
      for (const flavor of FLAVORS) {
        const value = loadYaml(text, { flavor });
        expect(ownHostileKeys(value)).toEqual(ownHostileKeys(JSON.parse(text)));
        expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
        expectPristine();
        cases++;
      }
    }
    tally("pollution", cases);
  });

  it("keeps hostile keys as data through anchors, aliases and << merge keys", () => {
    const texts = [
      "a: &a {__proto__: {polluted: 1}}\nb:\n  <<: *a\n",
      "a: &a {__proto__: {polluted: 1}}\nb:\n  <<: [*a, {constructor: {prototype: {isAdmin: true}}}]\n",
      "<<: {__proto__: {polluted: 1}, prototype: {hacked: 1}}\n",
      "list:\n  - &x {__proto__: {polluted: 1}}\n  - *x\n  - <<: *x\n    __proto__: {hacked: 1}\n",
      "deep: {a: {b: {c: {<<: {constructor: {prototype: {isAdmin: true}}}}}}}\n",
      "? __proto__\n: {polluted: 1}\n",
      '"__proto__": !!map {polluted: 1}\n',
      "__proto__: &p [1, 2]\nx: {__proto__: *p}\n",
    ];
    let cases = 0;
    for (const text of texts) {
      for (const flavor of FLAVORS) {
        for (const mappings of ["object", "map"] as const) {
          const value = loadYaml(text, { flavor, mappings });
          if (mappings === "object") expect(ownHostileKeys(value).length).toBeGreaterThan(0);
          expectPristine();
          cases++;
        }
      }
    }
    tally("pollution", cases);
  });

  it("writes hostile keys back as ordinary keys, and reads back what it wrote", () => {
    let cases = 0;
    for (const text of hostileJsonTexts()) {
      const value = JSON.parse(text);
      for (const preset of ["pyyaml", "cloud-init", "salt", "readable"] as const) {
        const dumped = dumpYaml(value, { preset });
        expect(loadYaml(dumped)).toEqual(value);
        expect(ownHostileKeys(loadYaml(dumped)).sort()).toEqual(ownHostileKeys(value).sort());
        expectPristine();
        cases++;
      }
    }
    tally("pollution", cases);
  });
});

describe("size and shape", () => {
  it("stops alias bombs of lists, mappings and merge keys at the node budget, quickly", () => {
    let mapBomb = "m0: &m0 {a: lol, b: lol, c: lol, d: lol}\n";
    for (let i = 1; i < 20; i++) mapBomb += `m${i}: &m${i} {a: *m${i - 1}, b: *m${i - 1}, c: *m${i - 1}}\n`;
    const bombs = [laughs(10), laughs(30, 3), laughs(9, 40), mapBomb];
    let cases = 0;
    for (const bomb of bombs) {
      expect(bomb.length).toBeLessThan(5000);
      for (const flavor of FLAVORS) {
        const started = performance.now();
        const error = failure(() => loadYaml(bomb, { flavor, filename: "bomb.yml" }));
        figure(`yaml: bomb ${cases} refused (ms)`, Math.round(performance.now() - started));
        expect(error.code).toBe("SIZE_LIMIT");
        expect(error.source?.file).toBe("bomb.yml");
        cases++;
      }
    }
    tally("size", cases);
  });

  it("refuses 10^5 levels of block, flow and list nesting with DEPTH_LIMIT and a position", () => {
    const texts = [
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      `${"{a: ".repeat(100_000)}1${"}".repeat(100_000)}`,
      `${"- ".repeat(100_000)}x`,
      Array.from({ length: 2000 }, (_, i) => `${" ".repeat(i)}k:`).join("\n"),
    ];
    for (const text of texts) {
      const error = failure(() => loadYaml(text, { filename: "deep.yml" }));
      expect(error.code).toBe("DEPTH_LIMIT");
      expect(error.source?.line).toBeGreaterThan(0);
      expect(error.source?.column).toBeGreaterThan(0);
    }
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { k: deep };
    expect(failure(() => dumpYaml(deep)).code).toBe("DEPTH_LIMIT");
    tally("size", texts.length + 1);
  });

  it("reports a recursive alias as a coded error instead of building a cycle", () => {
    // The last one through a merge key: `b` takes `b: <b>` from its parent.
    const texts = ["&a [*a]", "&a {x: *a}", "a: &a\n  b: *a\n", "a: &a\n  b:\n    <<: *a\n"];
    for (const text of texts) {
      for (const flavor of FLAVORS) {
        const error = failure(() => loadYaml(text, { flavor }));
        expect(error.code).toMatch(/^YAML_/);
        expect(error.source?.line).toBeGreaterThan(0);
      }
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    // The dumper writes a cycle with an anchor (as PyYAML does) and refuses it without aliases.
    expect(dumpYaml(cyclic)).toBe("&id001\nme: *id001\n");
    expect(failure(() => dumpYaml(cyclic, { aliases: false })).code).toMatch(/LIMIT|YAML_DUMP|CYCLIC/);
    tally("size", texts.length * FLAVORS.length + 2);
  });

  it("loads a mapping of 10^5 keys, a list of 10^5 items and a 100 MB string", () => {
    let keys = "";
    for (let i = 0; i < 100_000; i++) keys += `k${i}: ${i}\n`;
    const map = loadYaml(keys) as Record<string, number>;
    expect(Object.keys(map).length).toBe(100_000);
    const listText = `[${Array.from({ length: 100_000 }, (_, i) => i).join(",")}]`;
    const list = loadYaml(listText) as number[];
    expect(list.length).toBe(100_000);
    expect(failure(() => loadYaml(listText, { maxNodes: 50_000 })).code).toBe("SIZE_LIMIT");
    const big = loadYaml(`s: ${"a".repeat(100 * 1024 * 1024)}\n`) as { s: string };
    expect(big.s.length).toBe(100 * 1024 * 1024);
    const dumped = dumpYaml(big);
    expect(dumped.length).toBe(big.s.length + 4);
    expect(dumped.startsWith("s: aaaa")).toBe(true);
    tally("size", 5);
  });

  // Issue 17: a 400 KB base-60 integer took 44 s (its digits were folded into one growing bigint). Every path a
  // long plain scalar can take through the resolver and the constructors now costs time in proportion to its
  // length (or n·log n for the big numbers); each case here is sized by work and checks the value, never the time.
  it("reads 400 KB scalars on every resolver and constructor path: base 60, floats, ints, timestamps, binary", () => {
    const n = 100_000; // parts or characters: each text is 200-400 KB
    const cases: [string, (value: unknown) => void][] = [
      // 1 followed by n zero digits in base 60 is 60^n.
      [`a: 1${":00".repeat(n)}`, (v) => expect(v).toBe(60n ** BigInt(n))],
      [`a: -1${":1".repeat(n)}`, (v) => expect(typeof v).toBe("bigint")],
      [`a: !!int 1${":1".repeat(n)}`, (v) => expect(typeof v).toBe("bigint")],
      [`a: 0x${"f".repeat(n)}`, (v) => expect(v).toBe(16n ** BigInt(n) - 1n)],
      [`a: 0b${"1".repeat(n)}`, (v) => expect(v).toBe(2n ** BigInt(n) - 1n)],
      [`a: 1${"_0".repeat(n)}.5`, (v) => expect(v).toBe(Number.POSITIVE_INFINITY)],
      [`a: 1${":1".repeat(n)}x`, (v) => expect(v).toBe(`1${":1".repeat(n)}x`)],
      [`a: 1${":1".repeat(n)}.5x`, (v) => expect(typeof v).toBe("string")],
      [`a: 2001-12-14 ${" ".repeat(n)}x`, (v) => expect(typeof v).toBe("string")],
      [`a: 2001-12-14t01:02:03.${"1".repeat(n)}x`, (v) => expect(typeof v).toBe("string")],
      [`a: ${"1".repeat(n)}e`, (v) => expect(typeof v).toBe("string")],
      [`a: .${"1".repeat(n)}x`, (v) => expect(typeof v).toBe("string")],
      [`a: !!binary ${"QUFB".repeat(n)}`, (v) => expect((v as Uint8Array).length).toBe(3 * n)],
      [`a: ${"x:y ".repeat(n)}`, (v) => expect((v as string).length).toBe(4 * n - 1)],
    ];
    for (const [text, check] of cases) {
      for (const flavor of FLAVORS) check((loadYaml(text, { flavor }) as { a: unknown }).a);
    }
    // PyYAML's answers where Python refuses: a base-60 float past 60^173 overflows (OverflowError), a decimal int
    // of more than 4,300 digits is refused (ValueError), and float() refuses a long run of digits with a stray end.
    const refused = [
      `a: 1${":1".repeat(n)}.5`,
      `a: ${"1".repeat(n)}`,
      `a: !!float ${"1".repeat(n)}x`,
      `a: !!float ${"1".repeat(n)}.5e`,
      `a: !!int ${"1".repeat(n)}x`,
    ];
    for (const text of refused) {
      for (const flavor of FLAVORS) expect(failure(() => loadYaml(text, { flavor })).code).toBe("YAML_TAG");
    }
    // An octal int for PyYAML; Salt strips the leading zero, and the decimal rest is too long for Python.
    expect(loadYaml(`a: 0${"7".repeat(n)}`)).toEqual({ a: 8n ** BigInt(n) - 1n });
    expect(failure(() => loadYaml(`a: 0${"7".repeat(n)}`, { flavor: "salt" })).code).toBe("YAML_TAG");
    tally("size", (cases.length + refused.length) * FLAVORS.length + 2);
  });
});

interface OddCase {
  readonly name: string;
  readonly text: string | Uint8Array;
  /** Expected value per flavor, or the error code (and line, column) expected. */
  readonly pyyaml: unknown;
  readonly salt: unknown;
}

const err = (code: string, line: number, column: number) => ({ error: code, line, column });

const ODD: readonly OddCase[] = [
  {
    name: "int, bool and null keys",
    text: "1: a\n2: b\nnull: c\n",
    pyyaml: { 1: "a", 2: "b", null: "c" },
    salt: { 1: "a", 2: "b", null: "c" },
  },
  {
    name: "keys equal in Python (1 and true)",
    text: "1: a\ntrue: b\n",
    pyyaml: { 1: "b" },
    salt: err("YAML_DUPLICATE_KEY", 2, 1),
  },
  {
    name: "a complex (sequence) key",
    text: "? [a, b]\n: 1\n",
    pyyaml: err("YAML_KEY", 1, 3),
    salt: err("YAML_KEY", 1, 3),
  },
  {
    name: "a mapping key",
    text: "? {x: 1}\n: 1\n",
    pyyaml: err("YAML_KEY", 1, 3),
    salt: err("YAML_KEY", 1, 3),
  },
  {
    name: "duplicate keys",
    text: "a: 1\nb: 0\na: 2\n",
    pyyaml: { a: 2, b: 0 },
    salt: err("YAML_DUPLICATE_KEY", 3, 1),
  },
  {
    name: "duplicate keys in flow",
    text: '{"a": 1, "a": 2}',
    pyyaml: { a: 2 },
    salt: err("YAML_DUPLICATE_KEY", 1, 10),
  },
  {
    name: "!!python/object",
    text: "p: !!python/object:os.system [ls]\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "!!python/name",
    text: "p: !!python/name:os.system\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "!!python/object/apply",
    text: "p: !!python/object/apply:os.system ['id']\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "!!js/function",
    text: "f: !!js/function 'function(){}'\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "!!js/undefined",
    text: "f: !!js/undefined ''\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "an unknown local tag",
    text: "x: !foo bar\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "a wrong-kind tag",
    text: "a: !!map [1]\n",
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  {
    name: "a bad !!int",
    text: 'a: !!int "xx"\n',
    pyyaml: err("YAML_TAG", 1, 4),
    salt: err("YAML_TAG", 1, 4),
  },
  { name: "a UTF-8 BOM", text: "\uFEFFa: 1\n", pyyaml: { a: 1 }, salt: { a: 1 } },
  {
    name: "a UTF-8 BOM in bytes",
    text: new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x3a, 0x20, 0x31]),
    pyyaml: { a: 1 },
    salt: { a: 1 },
  },
  {
    name: "UTF-16LE with BOM",
    text: new Uint8Array([0xff, 0xfe, 0x61, 0, 0x3a, 0, 0x20, 0, 0x31, 0]),
    pyyaml: { a: 1 },
    salt: { a: 1 },
  },
  {
    name: "several documents",
    text: "a: 1\n---\nb: 2\n",
    pyyaml: err("YAML_PARSE", 2, 1),
    salt: err("YAML_PARSE", 2, 1),
  },
  {
    name: "a tab as indentation",
    text: "a:\n\tb: 1\n",
    pyyaml: err("YAML_PARSE", 2, 1),
    salt: err("YAML_PARSE", 2, 1),
  },
  { name: "a tab after a value", text: "a: 1\t\n", pyyaml: err("YAML_PARSE", 1, 5), salt: { a: 1 } },
  {
    name: "a NUL character",
    text: "a: x\u0000y\n",
    pyyaml: err("YAML_PARSE", 1, 5),
    salt: err("YAML_PARSE", 1, 5),
  },
  {
    name: "an undefined alias",
    text: "a: *nope\n",
    pyyaml: err("YAML_PARSE", 1, 4),
    salt: err("YAML_PARSE", 1, 4),
  },
  {
    name: "a scalar merge key",
    text: "a:\n  <<: 1\n",
    pyyaml: err("YAML_PARSE", 2, 7),
    salt: err("YAML_PARSE", 2, 7),
  },
  { name: "an empty file", text: "", pyyaml: null, salt: null },
  { name: "a comment only", text: "# nothing\n", pyyaml: null, salt: null },
  {
    name: "an unclosed flow sequence",
    text: "a: [1, 2\n",
    pyyaml: { error: "YAML_PARSE" },
    salt: { error: "YAML_PARSE" },
  },
  {
    name: "an unclosed quote",
    text: 'a: "x\n',
    pyyaml: { error: "YAML_PARSE" },
    salt: { error: "YAML_PARSE" },
  },
];

function outcome(text: string | Uint8Array, flavor: YamlFlavor, withPosition: boolean): unknown {
  try {
    return loadYaml(text, { flavor, filename: "odd.yml" });
  } catch (error) {
    if (!isMergeError(error)) throw error;
    expect(error.source?.file).toBe("odd.yml");
    return withPosition
      ? { error: error.code, line: error.source?.line, column: error.source?.column }
      : { error: error.code };
  }
}

describe("odd YAML", () => {
  it.each(ODD)("$name gives the documented value or a coded error with file, line and column", (c) => {
    for (const flavor of FLAVORS) {
      const expected = c[flavor] as Record<string, unknown> | null;
      const withPosition = expected !== null && typeof expected === "object" && "line" in expected;
      expect(outcome(c.text, flavor, withPosition)).toEqual(expected);
    }
    tally("odd-yaml", FLAVORS.length);
  });

  it("reads !!binary as bytes and !!set as a Set", () => {
    const value = loadYaml("b: !!binary aGVsbG8=\ns: !!set {a, b}\n") as { b: Uint8Array; s: Set<string> };
    expect(Buffer.from(value.b).toString()).toBe("hello");
    expect([...value.s]).toEqual(["a", "b"]);
    tally("odd-yaml", 2);
  });

  it("refuses invalid UTF-8 with YAML_ENCODING naming the file and the byte", () => {
    const inputs = [
      [0x61, 0x3a, 0x20, 0xff, 0x0a],
      [0x61, 0x3a, 0x20, 0xc3, 0x28],
      [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0x61, 0x3a, 0x20, 0xe2, 0x82],
    ];
    for (const bytes of inputs) {
      const error = failure(() => loadYaml(new Uint8Array(bytes), { filename: "bad.yml" }));
      expect(error.code).toBe("YAML_ENCODING");
      expect(error.source?.file).toBe("bad.yml");
      expect(error.message).toMatch(/position \d+/);
    }
    tally("odd-yaml", inputs.length);
  });

  it("reads several documents with loadYamlAll", () => {
    expect(loadYamlAll("a: 1\n---\nb: 2\n...\n---\n- 3\n")).toEqual([{ a: 1 }, { b: 2 }, [3]]);
    tally("odd-yaml", 1);
  });
});

describe("properties", () => {
  it("never throws anything but a MergeError on arbitrary text or bytes", () => {
    const yamlish = fc.stringMatching(/^[-a-z0-9 :[\]{}&*!|>'"#%@`,?\n\t]{0,60}$/);
    const runs = 1500;
    fc.assert(
      fc.property(
        fc.oneof(yamlish, fc.string({ unit: "binary" }), fc.uint8Array({ maxLength: 40 })),
        (input) => {
          for (const flavor of FLAVORS) {
            try {
              loadYaml(input, { flavor });
            } catch (error) {
              if (!isMergeError(error)) throw error;
            }
          }
          expectPristine();
        },
      ),
      { numRuns: runs },
    );
    tally("property", runs);
  });

  it("reads back what it writes for JSON-like data, hostile keys included", () => {
    const key = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom("__proto__", "constructor", "prototype", "<<", "yes", "1"),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("list"), tie("dict")),
      leaf: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 12 })),
      list: fc.array(tie("tree"), { maxLength: 4 }),
      dict: fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
    }));
    const runs = 500;
    fc.assert(
      fc.property(
        tree,
        fc.constantFrom("pyyaml", "cloud-init", "readable") as fc.Arbitrary<"pyyaml">,
        (value, preset) => {
          const before = JSON.stringify(value);
          const back = loadYaml(dumpYaml(value, { preset }));
          expect(JSON.stringify(value)).toBe(before);
          expect(back).toEqual(value);
        },
      ),
      { numRuns: runs },
    );
    tally("property", runs);
  });
});
