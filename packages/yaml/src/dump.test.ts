import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { dumpYaml } from "./dump.js";
import { sortedKeys } from "./represent.js";
import { loadYaml } from "./load.js";
import { catchMergeError as fails } from "../../../test-kit/errors.js";

describe("dumpYaml presets", () => {
  const value = { b: [1, "two", null, true, 1.5], a: { v: "yes", w: "a: b", x: 'say "hi"' } };

  it("writes yaml.safe_dump's block style with sorted keys by default", () => {
    expect(dumpYaml(value)).toBe(
      "a:\n  v: 'yes'\n  w: 'a: b'\n  x: say \"hi\"\nb:\n- 1\n- two\n- null\n- true\n- 1.5\n",
    );
  });

  it("writes Salt's |yaml filter output", () => {
    expect(dumpYaml(value, { preset: "salt" })).toBe(
      "{a: {v: 'yes', w: 'a: b', x: say \"hi\"}, b: [1, two, null, true, 1.5]}",
    );
    expect(dumpYaml(value, { preset: "salt", style: "auto" })).toBe(
      "a: {v: 'yes', w: 'a: b', x: say \"hi\"}\nb: [1, two, null, true, 1.5]",
    );
    expect(dumpYaml("abc", { preset: "salt" })).toBe("abc");
    expect(dumpYaml(undefined, { preset: "salt" })).toBe("NULL");
    expect(dumpYaml({ e: "😀", f: "é" }, { preset: "salt" })).toBe('{e: "\\U0001F600", f: é}');
  });

  it("writes cloud-init's safeyaml.dumps output (indent 4, --- and ...)", () => {
    expect(dumpYaml({ users: [{ name: "bob", groups: ["a", "b"] }], x: 1 }, { preset: "cloud-init" })).toBe(
      "---\nusers:\n-   groups:\n    - a\n    - b\n    name: bob\nx: 1\n...\n",
    );
  });

  it("writes the readable preset in insertion order without aliases", () => {
    const shared = { k: 1 };
    expect(dumpYaml({ z: shared, a: shared, é: "ü" }, { preset: "readable" })).toBe(
      "z:\n  k: 1\na:\n  k: 1\né: ü\n",
    );
  });
});

describe("scalars", () => {
  // PyYAML with allow_unicode writes NEL raw inside single quotes, and every YAML 1.1 reader (its own included) reads
  // a space back; here it is double-quoted and escaped. (Checked against Debian's python3-yaml: test/oracle.)
  it("writes integers of more than 4,300 digits in hexadecimal, which Python reads back (decimal it refuses)", () => {
    const big = 60n ** 3000n;
    expect(dumpYaml({ a: big })).toBe(`a: 0x${big.toString(16)}\n`);
    expect(dumpYaml({ a: -big }, { preset: "salt" })).toBe(`{a: -0x${big.toString(16)}}`);
    expect(loadYaml(dumpYaml([big, -big, 10n ** 4299n]))).toEqual([big, -big, 10n ** 4299n]);
    expect(dumpYaml(10n ** 4299n)).toBe(`${10n ** 4299n}\n...\n`);
  });

  it("double-quotes NEL even with allow_unicode, so that it reads back", () => {
    expect(dumpYaml({ a: "x\u0085y" }, { preset: "readable" })).toBe('a: "x\\Ny"\n');
    expect(dumpYaml({ a: "x\u0085y" })).toBe('a: "x\\Ny"\n');
    expect(dumpYaml({ a: "x\u0085y" }, { preset: "salt" })).toBe('{a: "x\\Ny"}');
    for (const s of ["\u0085", "a\u0085b", "\u0085  x", "\u00df\u0085\u2029  "]) {
      expect(loadYaml(dumpYaml({ [s]: s }, { preset: "readable" }))).toEqual({ [s]: s });
    }
  });

  it("quotes strings that would read back as another type", () => {
    const strings = [
      "yes",
      "No",
      "on",
      "123",
      "0755",
      "12:30",
      "1.5",
      ".inf",
      "~",
      "null",
      "",
      "<<",
      "2001-12-14",
      "=",
    ];
    expect(dumpYaml(strings, { style: "flow" })).toBe(
      "['yes', 'No', 'on', '123', '0755', '12:30', '1.5', '.inf', '~', 'null', '', '<<',\n  '2001-12-14', '=']\n",
    );
    expect(dumpYaml(["y", "n", "1e3", "08", "abc"], { style: "flow" })).toBe("[y, n, 1e3, 08, abc]\n");
  });

  it("quotes leading indicators, ': ' and ' #', and flow indicators only in flow context", () => {
    expect(dumpYaml({ a: "- x", b: "a: b", c: "a #b", d: "a,b", e: "[x]", f: "a:b", g: "#x" })).toBe(
      "a: '- x'\nb: 'a: b'\nc: 'a #b'\nd: a,b\ne: '[x]'\nf: a:b\ng: '#x'\n",
    );
    expect(dumpYaml(["a,b", "a:b", "a}b"], { style: "flow" })).toBe("['a,b', 'a:b', 'a}b']\n");
  });

  it("double-quotes tabs, control characters and (without allow_unicode) non-ASCII", () => {
    expect(dumpYaml(["a\tb", "\u0007", "é", "trailing ", " lead"])).toBe(
      '- "a\\tb"\n- "\\a"\n- "\\xE9"\n- \'trailing \'\n- \' lead\'\n',
    );
  });

  it("writes newlines inside single quotes as blank lines", () => {
    expect(dumpYaml({ a: "l1\nl2" })).toBe("a: 'l1\n\n  l2'\n");
    expect(dumpYaml({ a: "l1\n  l2" })).toBe('a: "l1\\n  l2"\n');
  });

  it("wraps long strings at width 80", () => {
    const long = `${"word ".repeat(20)}end`;
    expect(dumpYaml({ k: long })).toBe(
      `k: word word word word word word word word word word word word word word word word\n  word word word word end\n`,
    );
    expect(dumpYaml({ k: long }, { width: 40 }).split("\n").length).toBeGreaterThan(3);
  });

  it("writes numbers as Python does", () => {
    expect(
      dumpYaml([
        1,
        -0,
        1.5,
        0.1,
        1e-5,
        1e16,
        1.5e300,
        Number.NaN,
        Infinity,
        -Infinity,
        12345678901234567890n,
      ]),
    ).toBe(
      "- 1\n- 0\n- 1.5\n- 0.1\n- 1.0e-05\n- 1.0e+16\n- 1.5e+300\n- .nan\n- .inf\n- -.inf\n- 12345678901234567890\n",
    );
  });

  it("writes timestamps, binary data and sets with their tags where needed", () => {
    const v = loadYaml("d: 2001-12-14\nt: 2001-12-14 21:59:43.10 -5\nn: 2001-12-14 21:59:43") as Record<
      string,
      unknown
    >;
    expect(dumpYaml(v)).toBe("d: 2001-12-14\nn: 2001-12-14 21:59:43\nt: 2001-12-14 21:59:43.100000-05:00\n");
    expect(dumpYaml(new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6)))).toBe(
      "2020-01-02 03:04:05.006000+00:00\n...\n",
    );
    expect(dumpYaml({ b: new Uint8Array(Buffer.from("hello")) })).toBe("b: !!binary |\n  aGVsbG8=\n");
    expect(dumpYaml(new Set(["b", "a"]))).toBe("!!set\na: null\nb: null\n");
  });
});

describe("collections", () => {
  it("writes an object met twice once, with &id001 / *id001", () => {
    const x = [1];
    const y = { k: "v" };
    expect(dumpYaml({ a: x, b: x, c: y, d: y })).toBe(
      "a: &id001\n- 1\nb: *id001\nc: &id002\n  k: v\nd: *id002\n",
    );
    expect(dumpYaml({ a: x, b: x }, { aliases: false })).toBe("a:\n- 1\nb:\n- 1\n");
  });

  it("writes a recursive structure with an alias, and refuses it without aliases", () => {
    const loop: unknown[] = [];
    loop.push(loop);
    expect(dumpYaml(loop)).toBe("&id001\n- *id001\n");
    expect(fails(() => dumpYaml(loop, { aliases: false })).code).toBe("YAML_DUMP");
  });

  it("sorts keys by code point, and keeps insertion order for keys Python cannot compare", () => {
    expect(dumpYaml({ b: 1, B: 2, _: 3, a: 4, "10": 5, "9": 6 }, { style: "flow" })).toBe(
      "{'10': 5, '9': 6, B: 2, _: 3, a: 4, b: 1}\n",
    );
    expect(
      dumpYaml(
        new Map<unknown, unknown>([
          [10, "a"],
          [9, "b"],
        ]),
        { style: "flow" },
      ),
    ).toBe("{9: b, 10: a}\n");
    expect(
      dumpYaml(
        new Map<unknown, unknown>([
          ["x", 1],
          [1, 2],
        ]),
        { style: "flow" },
      ),
    ).toBe("{x: 1, 1: 2}\n");
  });

  it("writes empty collections in flow style and long keys as complex keys", () => {
    expect(dumpYaml({ a: [], b: {} })).toBe("a: []\nb: {}\n");
    expect(dumpYaml({ ["k".repeat(130)]: 1 })).toBe(`? ${"k".repeat(130)}\n: 1\n`);
  });

  it("round-trips through the loader", () => {
    const value = {
      s: ["yes", "0755", "1:30", "a: b", "multi\nline", "tab\there", "", "~"],
      n: [1, 1.5, -2],
      o: { "1": true },
    };
    for (const preset of ["pyyaml", "cloud-init", "salt", "readable"] as const) {
      expect(loadYaml(dumpYaml(value, { preset }))).toEqual(value);
    }
  });

  it("refuses values YAML cannot hold", () => {
    expect(fails(() => dumpYaml({ f: () => 1 })).code).toBe("YAML_DUMP");
    expect(fails(() => dumpYaml(new (class Point {})())).code).toBe("YAML_DUMP");
    expect(fails(() => dumpYaml({ u: undefined }, { undefinedAs: "error" })).code).toBe("YAML_DUMP");
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = [deep];
    expect(fails(() => dumpYaml(deep)).code).toBe("DEPTH_LIMIT");
  });
});

describe("comments", () => {
  const at = (path: readonly unknown[]) => `at ${JSON.stringify(path)}`;

  it("writes a comment at the end of each value's line, after `key:` or `-` for block collections", () => {
    const value = { a: 1, list: [1, { b: 2 }, [3], []], m: { x: "y" } };
    expect(dumpYaml(value, { preset: "readable", comment: at, header: ["title", ""] })).toBe(
      [
        "# title",
        "#",
        'a: 1 # at ["a"]',
        'list: # at ["list"]',
        '- 1 # at ["list",0]',
        '- # at ["list",1]',
        '  b: 2 # at ["list",1,"b"]',
        '- # at ["list",2]',
        '  - 3 # at ["list",2,0]',
        '- [] # at ["list",3]',
        'm: # at ["m"]',
        '  x: y # at ["m","x"]',
        "",
      ].join("\n"),
    );
  });

  it("names keys as given (an int key as a number) and skips values without a comment", () => {
    const value = new Map<unknown, unknown>([
      [8080, "a"],
      ["8080", "b"],
    ]);
    const comment = (path: readonly unknown[]) => (typeof path[0] === "number" ? "int key" : undefined);
    expect(dumpYaml(value, { preset: "readable", comment })).toBe("8080: a # int key\n'8080': b\n");
  });

  it("puts a block scalar's comment on its header and a complex key's on a line above it", () => {
    const value = new Map<unknown, unknown>([
      ["bin", new Uint8Array([1, 2, 3])],
      ["k".repeat(130), 1],
    ]);
    const text = dumpYaml(value, { preset: "readable", comment: () => "here" });
    expect(text).toBe(`bin: !!binary | # here\n  AQID\n# here\n? ${"k".repeat(130)}\n: 1\n`);
    expect(loadYaml(text)).toEqual({ bin: new Uint8Array([1, 2, 3]), ["k".repeat(130)]: 1 });
  });

  it("escapes line breaks and characters PyYAML refuses, so a comment stays one comment line", () => {
    const text = dumpYaml(
      { a: 1 },
      { preset: "readable", comment: () => "x\ny\u2028z\u0085\u0001\ufeff\ud800" },
    );
    expect(text).toBe("a: 1 # x\\ny\\u2028z\\x85\\x01\\ufeff\\ud800\n");
    expect(dumpYaml({ a: 1 }, { preset: "readable", header: ["one\ntwo"] })).toBe("# one\\ntwo\na: 1\n");
  });

  it("writes no comments inside flow collections", () => {
    expect(dumpYaml({ a: [1, 2] }, { preset: "salt", comment: () => "no" })).toBe("{a: [1, 2]}");
  });
});

describe("dumpYaml for a reader that follows the document", () => {
  it("asks for a header function's lines after every comment", () => {
    const asked: string[] = [];
    const text = dumpYaml(
      { b: 1, a: { c: 2 } },
      {
        preset: "readable",
        comment: (path) => {
          asked.push(path.join("."));
          return undefined;
        },
        header: () => [`${asked.length} comments asked for: ${asked.join(", ")}`],
      },
    );
    expect(text).toBe("# 3 comments asked for: b, a, a.c\nb: 1\na:\n  c: 2\n");
  });

  it("writes a long document whole (the emitter joins its pieces)", () => {
    const value = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`key${i}`, `value ${i}`]));
    const text = dumpYaml(value, { preset: "readable", comment: (path) => `at ${path[0]}` });
    const lines = text.split("\n");
    expect(lines).toHaveLength(3001);
    expect(lines[2999]).toBe("key2999: value 2999 # at key2999");
    expect(loadYaml(text)).toEqual(value);
  });
});

describe("sortedKeys", () => {
  it("gives the order the cloud-init preset writes a mapping's keys in", () => {
    const keys = ["b", "a", "B", "é", "10", "9"];
    const dict = new PyDict();
    for (const key of keys) dict.set(key, 1);
    const written = loadYaml(dumpYaml(dict, { preset: "cloud-init" }), { values: "exact" }) as PyDict;
    expect(sortedKeys(keys)).toEqual(written.keyList());
    expect(sortedKeys(keys)).toEqual(["10", "9", "B", "a", "b", "é"]);
  });

  it("keeps keys Python cannot compare in their order", () => {
    expect(sortedKeys([2, "a", 1])).toEqual([2, "a", 1]);
    expect(sortedKeys([3, 1, 2])).toEqual([1, 2, 3]);
  });
});
