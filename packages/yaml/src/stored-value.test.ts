import { readFileSync } from "node:fs";
import { PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadYaml } from "./load.js";
import { decodeYamlValue, encodeYamlValue } from "./stored-value.js";
import { YamlTimestamp } from "./timestamp.js";

/**
 * Fails unless `a` and `b` are the same value in every way the exact model tells apart: classes, key spellings and
 * their order, -0 and NaN, timestamp fields, bytes, and which containers are one object (the pairs met so far must
 * map one to one, so a value shared twice or holding itself is shared the same way on both sides).
 */
function expectSameValue(a: unknown, b: unknown): void {
  const pairs = new Map<object, object>();
  const reverse = new Map<object, object>();
  const walk = (x: unknown, y: unknown, at: string): void => {
    if (typeof x !== "object" || x === null) {
      if (!Object.is(x, y)) throw new Error(`${at}: ${String(x)} is not ${String(y)}`);
      return;
    }
    if (typeof y !== "object" || y === null) throw new Error(`${at}: an object against ${String(y)}`);
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) throw new Error(`${at}: classes differ`);
    if (pairs.has(x) || reverse.has(y)) {
      if (pairs.get(x) !== y || reverse.get(y) !== x) throw new Error(`${at}: shared differently`);
      return;
    }
    pairs.set(x, y);
    reverse.set(y, x);
    if (x instanceof PyFloat) {
      walk(x.value, (y as PyFloat).value, `${at}.value`);
      return;
    }
    if (x instanceof YamlTimestamp) {
      const t = y as YamlTimestamp;
      walk(x.getTime(), t.getTime(), `${at}.time`);
      walk(x.kind, t.kind, `${at}.kind`);
      walk(x.offsetMinutes, t.offsetMinutes, `${at}.offset`);
      walk(x.microsecond, t.microsecond, `${at}.microsecond`);
      return;
    }
    if (x instanceof Uint8Array) {
      expect([...(y as Uint8Array)]).toEqual([...x]);
      return;
    }
    if (x instanceof PyDict) {
      const other = y as PyDict;
      expect(other.isFrozen).toBe(x.isFrozen);
      const xs = [...x];
      const ys = [...other];
      if (xs.length !== ys.length) throw new Error(`${at}: ${xs.length} keys against ${ys.length}`);
      xs.forEach(([k, v], i) => {
        walk(k, ys[i]![0], `${at}[key ${i}]`);
        walk(v, ys[i]![1], `${at}[${String(k)}]`);
      });
      return;
    }
    if (Array.isArray(x) || x instanceof Set) {
      const xs = [...x];
      const ys = [...(y as Iterable<unknown>)];
      if (xs.length !== ys.length) throw new Error(`${at}: ${xs.length} items against ${ys.length}`);
      xs.forEach((v, i) => {
        walk(v, ys[i], `${at}[${i}]`);
      });
      return;
    }
    throw new Error(`${at}: a value of no known kind`);
  };
  walk(a, b, "$");
}

function roundTrip(value: unknown): unknown {
  const text = encodeYamlValue(value);
  if (text === undefined) throw new Error("not encodable");
  return decodeYamlValue(text);
}

interface LoadRow {
  text: string;
}

const corpus = JSON.parse(
  readFileSync(new URL("../test/fixtures/pyyaml-load.json", import.meta.url), "utf8"),
) as LoadRow[];

describe("encodeYamlValue / decodeYamlValue", () => {
  it("gives back every document of the PyYAML corpus exactly, in both flavors", () => {
    let compared = 0;
    for (const row of corpus) {
      for (const flavor of ["pyyaml", "salt"] as const) {
        let loaded: unknown;
        try {
          loaded = loadYaml(row.text, { flavor, values: "exact" });
        } catch {
          continue; // a document PyYAML refuses has nothing to keep
        }
        try {
          expectSameValue(loaded, roundTrip(loaded));
        } catch (error) {
          throw new Error(`${JSON.stringify(row.text)} (${flavor}): ${(error as Error).message}`);
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2900);
  });

  it("keeps what the exact model tells apart: key spellings, whole floats, big ints, -0, NaN, infinities", () => {
    const doc = loadYaml(
      [
        "1: int",
        "1.0: float, same key as 1 in Python",
        "true: bool",
        "null: none",
        "2.0: whole float key",
        "values: [1.0, -0.0, .nan, -.inf, .inf, 0.5, 12345678901234567890, -9007199254740993, 0o17]",
        "nested: {a: [~, yes, 'yes']}",
      ].join("\n"),
      { flavor: "pyyaml", values: "exact" },
    ) as PyDict;
    const back = roundTrip(doc) as PyDict;
    expectSameValue(doc, back);
    // 1, 1.0 and true are one key in Python: the first spelling stays, the last value wins.
    expect(back.keyList()).toEqual([1, null, new PyFloat(2), "values", "nested"]);
    expect(back.get(1)).toBe("bool");
    const values = back.get("values") as unknown[];
    expect(values[0]).toBeInstanceOf(PyFloat);
    expect(Object.is((values[1] as PyFloat).value, -0)).toBe(true);
    expect(values[2]).toBeNaN();
    expect(values[6]).toBe(12345678901234567890n);
  });

  it("keeps timestamps, binary data and sets", () => {
    const doc = loadYaml(
      [
        "day: 2001-12-14",
        "aware: 2001-12-14t21:59:43.10-05:00",
        "naive: 2001-12-14 21:59:43.000123",
        "raw: !!binary aGVsbG8gd29ybGQ=",
        "set: !!set {b, a, 3}",
        "pairs: !!pairs [a: 1, a: 2]",
      ].join("\n"),
      { flavor: "pyyaml", values: "exact" },
    ) as PyDict;
    const back = roundTrip(doc) as PyDict;
    expectSameValue(doc, back);
    expect((back.get("aware") as YamlTimestamp).toPythonIsoformat(" ")).toBe(
      "2001-12-14 21:59:43.100000-05:00",
    );
    expect(new TextDecoder().decode(back.get("raw") as Uint8Array)).toBe("hello world");
    expect([...(back.get("set") as Set<unknown>)]).toEqual(["b", "a", 3]);
  });

  it("keeps the sharing of aliases, and a value that holds itself", () => {
    const doc = loadYaml("base: &b {x: [1]}\ncopy: *b\nlist: &l [*b, *b]\nagain: *l\n", {
      flavor: "salt",
      values: "exact",
    }) as PyDict;
    const back = roundTrip(doc) as PyDict;
    expectSameValue(doc, back);
    expect(back.get("copy")).toBe(back.get("base"));
    expect((back.get("list") as unknown[])[1]).toBe(back.get("base"));
    expect(back.get("again")).toBe(back.get("list"));

    const loop = new PyDict();
    const items: unknown[] = [loop];
    loop.set("self", loop);
    loop.set("items", items);
    items.push(items);
    const loopBack = roundTrip(loop) as PyDict;
    expect(loopBack.get("self")).toBe(loopBack);
    const itemsBack = loopBack.get("items") as unknown[];
    expect(itemsBack[0]).toBe(loopBack);
    expect(itemsBack[1]).toBe(itemsBack);
  });

  it("declines values it cannot keep exactly", () => {
    expect(encodeYamlValue({ plain: "object" })).toBeUndefined();
    expect(encodeYamlValue(new PyDict([["a", new Map()]]))).toBeUndefined();
    expect(encodeYamlValue(new PyDict([["a", 1]]).freeze())).toBeUndefined();
    expect(encodeYamlValue([new Date(0)])).toBeUndefined();
    expect(encodeYamlValue([Buffer.from("x")])).toBeUndefined();
    expect(encodeYamlValue([undefined])).toBeUndefined();
    expect(encodeYamlValue(Object.freeze(["a"]))).toBeUndefined();
  });

  it("refuses texts it did not write", () => {
    for (const text of [
      '["x"]',
      '["r", 0]',
      '["l", ["r", 5]]',
      '["d", "odd"]',
      '["i", "12a"]',
      '["n", "0"]',
      '["f", "1"]',
      '["t", 0, "time", null, 0]',
      '["b", "%%%"]',
      '{"a": 1}',
    ]) {
      expect(() => decodeYamlValue(text), text).toThrow(TypeError);
    }
    expect(() => decodeYamlValue('["l", 1')).toThrow(SyntaxError);
  });
});
