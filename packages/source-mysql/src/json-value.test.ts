import { readFileSync } from "node:fs";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { PY_INT_MAX_STR_DIGITS, parseJsonValue } from "./json-value.js";

// What Python's json.loads gave for each text (test/fixtures/json-loads/generate.py, run with Debian's python3).
type Tagged =
  | { int: string }
  | { float: string }
  | { str: string }
  | { bool: boolean }
  | { null: true }
  | { list: Tagged[] }
  | { dict: [string, Tagged][] };
interface Case {
  text: string;
  value?: Tagged;
  error?: "invalid" | "depth";
}
const fixture = JSON.parse(
  readFileSync(new URL("../test/fixtures/json-loads/cases.json", import.meta.url), "utf8"),
) as { python: string; cases: Case[] };

/** The value we promise for what Python returned: ints exact (bigint past 2^53), floats as doubles. */
function expected(tagged: Tagged): unknown {
  if ("int" in tagged) {
    const n = Number(tagged.int);
    return Number.isSafeInteger(n) ? n : BigInt(tagged.int);
  }
  if ("float" in tagged) {
    if (tagged.float === "nan") return Number.NaN;
    if (tagged.float === "inf") return Number.POSITIVE_INFINITY;
    if (tagged.float === "-inf") return Number.NEGATIVE_INFINITY;
    return Number(tagged.float);
  }
  if ("str" in tagged) return tagged.str;
  if ("bool" in tagged) return tagged.bool;
  if ("null" in tagged) return null;
  if ("list" in tagged) return tagged.list.map(expected);
  const out: Record<string, unknown> = {};
  for (const [key, value] of tagged.dict) {
    Object.defineProperty(out, key, {
      value: expected(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Exact sameness: -0 is not 0, NaN is NaN, 1 is not 1n. Key order is the value model's (integer-like keys). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === "number") return Object.is(a, b);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => same(item, b[index]));
  }
  if (typeof a === "object" && a !== null && b !== null) {
    const keys = Object.keys(a).sort();
    const other = Object.keys(b as object).sort();
    return (
      keys.length === other.length &&
      keys.every((key, index) => key === other[index] && same((a as never)[key], (b as never)[key]))
    );
  }
  return a === b;
}

function outcome(text: string): { value: unknown } | { code: string } {
  try {
    return { value: parseJsonValue(text) };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { code: error.code };
  }
}

describe("parseJsonValue against Python's json.loads", () => {
  it(`agrees on all ${fixture.cases.length} recorded texts (Python ${fixture.python})`, () => {
    const disagreements: string[] = [];
    for (const { text, value, error } of fixture.cases) {
      const got = outcome(text);
      const show = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
      if (error === "invalid") {
        if (!("code" in got) || got.code !== "SQL_JSON") disagreements.push(`${show}: expected SQL_JSON`);
      } else if (error === "depth") {
        if (!("code" in got) || got.code !== "DEPTH_LIMIT")
          disagreements.push(`${show}: expected DEPTH_LIMIT`);
      } else if (!("value" in got) || !same(got.value, expected(value!))) {
        disagreements.push(`${show}: got ${"code" in got ? got.code : String(got.value)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("keeps integers exact and apart from floats' precision", () => {
    expect(parseJsonValue("12345678901234567890123")).toBe(12345678901234567890123n);
    expect(parseJsonValue("-9007199254740993")).toBe(-9007199254740993n);
    expect(parseJsonValue("9007199254740991")).toBe(9007199254740991);
    expect(Object.is(parseJsonValue("-0"), 0)).toBe(true);
    expect(Object.is(parseJsonValue("-0.0"), -0)).toBe(true);
    expect(parseJsonValue("1e400")).toBe(Number.POSITIVE_INFINITY);
  });

  it("reads the NaN and Infinity tokens, and only the tokens", () => {
    expect(parseJsonValue("[NaN, Infinity, -Infinity]")).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
    expect(parseJsonValue('"Avengers: Infinity War, NaN"')).toBe("Avengers: Infinity War, NaN");
    expect(outcome("-NaN")).toEqual({ code: "SQL_JSON" });
  });

  it("keeps the last of duplicate keys at the place of the first", () => {
    const value = parseJsonValue('{"b": 1, "a": 2, "b": 3}') as Record<string, unknown>;
    expect(Object.entries(value)).toEqual([
      ["b", 3],
      ["a", 2],
    ]);
  });

  it("keeps __proto__ and constructor as ordinary keys", () => {
    const value = parseJsonValue('{"__proto__": {"admin": true}, "constructor": 1}') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__", "constructor"]);
    expect((value as { admin?: unknown }).admin).toBeUndefined();
  });

  it("refuses integers longer than Python's digit limit and nesting past 1000 levels", () => {
    expect(outcome("9".repeat(PY_INT_MAX_STR_DIGITS))).toHaveProperty("value");
    expect(outcome("9".repeat(PY_INT_MAX_STR_DIGITS + 1))).toEqual({ code: "SQL_JSON" });
    expect(outcome(`${"[".repeat(1000)}${"]".repeat(1000)}`)).toHaveProperty("value");
    expect(outcome(`${"[".repeat(1001)}${"]".repeat(1001)}`)).toEqual({ code: "DEPTH_LIMIT" });
    expect(outcome(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toEqual({ code: "DEPTH_LIMIT" });
  });

  it("says where the text is wrong", () => {
    try {
      parseJsonValue('{"a": 1,}');
      expect.unreachable();
    } catch (error) {
      expect(isMergeError(error) && error.details).toEqual({ offset: 8 });
      expect((error as Error).message).toMatch(/property name.*character 9/);
    }
  });
});
