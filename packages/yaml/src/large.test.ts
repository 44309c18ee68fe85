import { describe, expect, it } from "vitest";
import { fastParse } from "./fastpath.js";
import { loadYaml, loadYamlWithPositions } from "./load.js";

/** A carriage return keeps the fast path out, so `text + "\r\n"` is read by the full parser. */
const viaFullParser = (text: string): string => `${text}\r\n`;

/** JSON as configuration exports write it: nested records, escapes, negative and fractional numbers, unicode. */
function jsonDocument(records: number, indent: number | undefined): { value: unknown; text: string } {
  const hosts = [];
  for (let i = 0; i < records; i++) {
    hosts.push({
      id: i - 7,
      name: `host-${i}.example.com`,
      enabled: i % 3 === 0,
      weight: i + 0.25,
      note: i % 5 === 0 ? null : `line "${i}"\n\ttab \\ slash / é ${String.fromCodePoint(0x1f600)}`,
      tags: ["web", `t${i % 17}`, []],
      meta: { owner: "ops team", created: "2024-01-02", empty: {} },
    });
  }
  const value = { hosts, count: records };
  return { value, text: JSON.stringify(value, null, indent) };
}

describe("large documents", () => {
  it("loads a block mapping of 10^5 keys", () => {
    let text = "";
    for (let i = 0; i < 100_000; i++) text += `key_${i}: ${i % 2 === 0 ? i : "on"}\n`;
    const value = loadYaml(text) as Record<string, unknown>;
    const keys = Object.keys(value);
    expect(keys.length).toBe(100_000);
    expect(keys[0]).toBe("key_0");
    expect(keys[99_999]).toBe("key_99999");
    expect(value.key_99998).toBe(99_998);
    expect(value.key_99999).toBe(true);
  });

  it("loads a 1 MB JSON document to the value JSON.parse gives (no YAML 1.1 difference in it)", () => {
    let records = 2000;
    let doc = jsonDocument(records, 2);
    while (doc.text.length < 1_000_000) {
      records *= 2;
      doc = jsonDocument(records, 2);
    }
    expect(loadYaml(doc.text)).toEqual(doc.value);
    const compact = jsonDocument(records, undefined);
    expect(loadYaml(compact.text, { flavor: "salt" })).toEqual(compact.value);
  });

  it("reads JSON on the fast path exactly as the full parser does, in every flavour and mapping mode", () => {
    const { text } = jsonDocument(60, 1);
    expect(fastParse(text, 500)).toBeDefined();
    for (const options of [
      {},
      { flavor: "salt" as const },
      { mappings: "map" as const },
      { keepFloats: true },
    ]) {
      expect(loadYaml(text, options)).toEqual(loadYaml(viaFullParser(text), options));
    }
    const positions = loadYamlWithPositions(text);
    const slow = loadYamlWithPositions(viaFullParser(text));
    for (const path of [["hosts"], ["hosts", 3], ["hosts", 3, "meta"], ["hosts", 59, "tags", 2], ["count"]]) {
      expect(positions.positionOf(path)).toEqual(slow.positionOf(path));
    }
  });

  it("keeps YAML 1.1 meanings where JSON differs: exponents, duplicate keys, big integers, -0", () => {
    const text =
      '{"a": 1e3, "b": "\\/", "n": -0, "f": 1.0, "e": 1.5e+3,\n "big": 12345678901234567890, "a": 2}';
    // As PyYAML 6.0.3 loads it.
    const expected = { a: 2, b: "/", n: 0, f: 1, e: 1500, big: 12345678901234567890n };
    expect(loadYaml(text)).toEqual(expected);
    expect(Object.keys(loadYaml(text) as object)).toEqual(["a", "b", "n", "f", "e", "big"]);
    expect(() => loadYaml(text, { flavor: "salt" })).toThrow(/conflicting ID 'a'/);
    expect(loadYaml('["1e3", 1e3, 0755, 0x1F]')).toEqual(["1e3", "1e3", 493, 31]);
  });

  it("leaves flow text PyYAML reads differently from JSON to the full parser", () => {
    for (const text of [
      '{"a"\n: 1}', // a simple key must end on its own line
      `{"${"k".repeat(1100)}": 1,\n"b": 2}`, // and within 1024 characters
      "[1, 2,]",
      "{a:1}",
      "[a # comment\n]",
      '{"a": 1}\n...\n',
      '{"a": "x\\ty"}\ntrailing',
    ]) {
      expect(fastParse(text, 500), text).toBeUndefined();
    }
  });
});
