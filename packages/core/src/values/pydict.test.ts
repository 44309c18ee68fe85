import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { isMergeError } from "../errors.js";
import { kindOf } from "../kinds.js";
import { keyIdentity, keyText, PY_KEY, PyDict } from "./pydict.js";
import { PyFloat } from "./pyfloat.js";

describe("PyDict", () => {
  it("keeps every key where it was inserted, integer-like strings included", () => {
    const d = new PyDict<number>([
      ["10", 1],
      ["9", 2],
      ["B", 3],
    ]);
    expect([...d.keys()]).toEqual(["10", "9", "B"]);
    d.set("9", 20);
    expect([...d.entries()]).toEqual([
      ["10", 1],
      ["9", 20],
      ["B", 3],
    ]);
  });

  it("holds int keys apart from string keys", () => {
    const ports = new PyDict([
      [8080, "a"],
      [443, "b"],
      ["8080", "c"],
    ]);
    expect(ports.size).toBe(3);
    expect(ports.get(8080)).toBe("a");
    expect(ports.get("8080")).toBe("c");
    expect(ports.keyList()).toEqual([8080, 443, "8080"]);
  });

  it("treats 1, 1.0, 1n and True as one key and keeps the first spelling, as Python does", () => {
    // Python: {1: 'a', True: 'b', 1.0: 'c'} == {1: 'c'}; {True: 'x', 1: 'y'} prints {True: 'y'}
    const d = new PyDict<string>([
      [1, "a"],
      [true, "b"],
      [new PyFloat(1), "c"],
    ]);
    expect(d.size).toBe(1);
    expect(d.keyList()).toEqual([1]);
    expect(d.get(true)).toBe("c");
    expect(d.get(1n)).toBe("c");
    const e = new PyDict<string>([
      [true, "x"],
      [1, "y"],
    ]);
    expect(e.keyList()).toEqual([true]);
    expect(e.get(1)).toBe("y");
    const f = new PyDict<string>([[new PyFloat(2), "two"]]);
    expect(String(f.keyList()[0])).toBe("2.0");
    expect(f.has(2)).toBe(true);
    expect(new PyDict([[false, 1]]).has(0)).toBe(true);
  });

  it("keeps an undefined key apart from None, as Jinja keeps its Undefined (equal only to another Undefined)", () => {
    const d = new PyDict<number>([[null, 1]]);
    d.set(undefined as never, 2);
    d.set(undefined as never, 3);
    expect(d.size).toBe(2);
    expect(d.keyList()).toEqual([null, undefined]);
    expect(d.get(null)).toBe(1);
    expect(d.get(undefined)).toBe(3);
    d.delete(null);
    expect(d.has(undefined)).toBe(true);
    expect(d.has(null)).toBe(false);
  });

  it("keeps None, floats, big ints and timestamps as keys", () => {
    const d = new PyDict<number>();
    d.set(null, 1);
    d.set(1.5, 2);
    d.set(12345678901234567890n, 3);
    d.set(new Date(Date.UTC(2001, 11, 14)), 4);
    expect(d.get(null)).toBe(1);
    expect(d.get(undefined)).toBeUndefined();
    expect(d.get(1.5)).toBe(2);
    expect(d.get(12345678901234567890n)).toBe(3);
    expect(d.get(new Date(Date.UTC(2001, 11, 14)))).toBe(4);
    // 2^60 as a float equals the int 2^60 in Python
    d.set(2 ** 60, 5);
    expect(d.get(2n ** 60n)).toBe(5);
  });

  it("uses PY_KEY for hashable objects", () => {
    class Pair {
      constructor(
        readonly a: number,
        readonly b: number,
      ) {}
      [PY_KEY](): string {
        return `pair:${this.a},${this.b}`;
      }
    }
    const d = new PyDict([[new Pair(1, 2), "x"]]);
    expect(d.get(new Pair(1, 2))).toBe("x");
    expect(d.get(new Pair(2, 1))).toBeUndefined();
  });

  it("makes a PY_KEY object that returns a number one key with that int or float", () => {
    class Num {
      constructor(
        readonly text: string,
        readonly identity: number | bigint | string,
      ) {}
      [PY_KEY](): number | bigint | string {
        return this.identity;
      }
    }
    const d = new PyDict<unknown>([[1, "int"]]);
    d.set(new Num("1.00", 1), "decimal");
    expect(d.size).toBe(1);
    expect(d.keyList()).toEqual([1]);
    expect(d.get(1)).toBe("decimal");
    d.set(new Num("2.50", 2.5), "x");
    expect(d.get(2.5)).toBe("x");
    d.set(new Num("big", 2n ** 60n), "y");
    expect(d.get(2n ** 60n)).toBe("y");
    // a text identity stays apart from the string of the same text
    d.set(new Num("t", "0.1"), "z");
    expect(d.get("0.1")).toBeUndefined();
    expect(d.get(new Num("t", "0.1"))).toBe("z");
  });

  it("refuses unhashable keys with a coded error", () => {
    for (const key of [[1], { a: 1 }, new PyDict(), new Set()]) {
      let caught: unknown;
      try {
        new PyDict().set(key, 1);
      } catch (error) {
        caught = error;
      }
      expect(isMergeError(caught) && caught.code).toBe("UNHASHABLE_KEY");
    }
    expect(() => keyIdentity([1])).toThrow("unhashable type: 'list'");
  });

  it("keeps __proto__ as an ordinary key", () => {
    const d = new PyDict([["__proto__", { polluted: true }]]);
    expect(d.get("__proto__")).toEqual({ polluted: true });
    const plain = d.toJSON();
    expect(Object.keys(plain)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("deletes, copies and clears", () => {
    const d = new PyDict<number>([
      [true, 1],
      ["a", 2],
    ]);
    const copy = d.copy();
    expect(d.delete(1)).toBe(true);
    expect(d.delete(1)).toBe(false);
    d.set(1, 3);
    expect(d.keyList()).toEqual(["a", 1]);
    expect(copy.keyList()).toEqual([true, "a"]);
    copy.clear();
    expect(copy.size).toBe(0);
  });

  it("is of kind dict, serializes and prints readably", () => {
    const d = new PyDict<unknown>([
      [8080, "a"],
      [true, 1],
      [null, new PyFloat(9)],
    ]);
    expect(kindOf(d)).toBe("dict");
    expect(JSON.stringify(d)).toBe('{"8080":"a","true":1,"null":9}');
    expect(inspect(d)).toBe("PyDict(3) { 8080 => 'a', true => 1, null => 9.0 }");
    expect(Object.prototype.toString.call(d)).toBe("[object PyDict]");
  });

  it("builds from a plain object in its key order", () => {
    expect(PyDict.fromObject({ b: 1, a: 2 }).keyList()).toEqual(["b", "a"]);
  });
});

describe("keyText", () => {
  // Python: json.dumps({1: 0, 1.5: 0, 1.0: 0, True: 0, None: 0, float('nan'): 0, float('inf'): 0}) names the keys so
  it.each([
    [8080, "8080"],
    [1.5, "1.5"],
    [new PyFloat(1), "1.0"],
    [true, "true"],
    [false, "false"],
    [null, "null"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    [12345678901234567890n, "12345678901234567890"],
    ["x", "x"],
  ])("names %s %s", (key, text) => {
    expect(keyText(key)).toBe(text);
  });
});

describe("PyDict.freeze", () => {
  it("refuses changes once frozen, and its copies are not frozen", () => {
    const d = new PyDict([["a", 1]]).freeze();
    expect(d.isFrozen).toBe(true);
    expect(() => d.set("b", 2)).toThrow(TypeError);
    expect(() => d.delete("a")).toThrow(TypeError);
    expect(() => d.clear()).toThrow(TypeError);
    const copy = d.copy();
    copy.set("b", 2);
    expect(copy.keyList()).toEqual(["a", "b"]);
    expect(d.keyList()).toEqual(["a"]);
  });
});
