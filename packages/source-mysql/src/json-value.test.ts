// The JSON column reader is @merge/core's parseJson (checked against Python's json.loads on recorded texts in
// packages/core/test/fixtures/json-loads); here: what as_json adds around it.
import { isMergeError, type PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { parseJsonValue } from "./json-value.js";

function outcome(text: string): { value: unknown } | { code: string } {
  try {
    return { value: parseJsonValue(text) };
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { code: error.code };
  }
}

describe("parseJsonValue", () => {
  it("reads into the exact model: ints and floats apart, keys in order, big ints exact", () => {
    const value = parseJsonValue('{"b": 1.0, "10": 2, "a": 12345678901234567890123, "b": 3.0}') as PyDict;
    expect(value.keyList()).toEqual(["b", "10", "a"]);
    expect(value.get("b")).toEqual(new PyFloat(3));
    expect(value.get("10")).toBe(2);
    expect(value.get("a")).toBe(12345678901234567890123n);
    expect(parseJsonValue('"Avengers: Infinity War, NaN"')).toBe("Avengers: Infinity War, NaN");
  });

  it("reports invalid JSON as SQL_JSON with Python's message and the offset", () => {
    try {
      parseJsonValue('{"a": 1,}');
      expect.unreachable();
    } catch (error) {
      expect(isMergeError(error) && error.code).toBe("SQL_JSON");
      expect(isMergeError(error) && error.details?.offset).toBe(8);
      expect((error as Error).message).toBe(
        "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)",
      );
    }
    expect(outcome("-NaN")).toEqual({ code: "SQL_JSON" });
    expect(outcome("9".repeat(4301))).toEqual({ code: "SQL_JSON" });
  });

  it("keeps DEPTH_LIMIT for nesting past 1000 levels", () => {
    expect(outcome(`${"[".repeat(1000)}${"]".repeat(1000)}`)).toHaveProperty("value");
    expect(outcome(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toEqual({ code: "DEPTH_LIMIT" });
  });

  it("keeps __proto__ and constructor as ordinary keys", () => {
    const value = parseJsonValue('{"__proto__": {"admin": true}, "constructor": 1}') as PyDict;
    expect(value.keyList()).toEqual(["__proto__", "constructor"]);
    expect(({} as { admin?: unknown }).admin).toBeUndefined();
  });
});
