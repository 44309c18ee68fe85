// parseJson against Python's json.loads: test/fixtures/json-loads/cases.json holds what Python 3.11 returned for each
// text (generate.py beside it), tagged with the Python type. Compared exactly: ints and floats apart (floats by
// repr), key order, errors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isMergeError } from "../errors.js";
import { parseJson } from "./json.js";
import { PyDict } from "./pydict.js";
import { PyFloat, pyFloatRepr } from "./pyfloat.js";

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
  readFileSync(new URL("../../test/fixtures/json-loads/cases.json", import.meta.url), "utf8"),
) as { python: string; cases: Case[] };

/** Our value in the fixture's tagged form. */
function tag(value: unknown): Tagged {
  if (value === null) return { null: true };
  if (typeof value === "boolean") return { bool: value };
  if (typeof value === "string") return { str: value };
  if (typeof value === "bigint") return { int: String(value) };
  if (typeof value === "number") {
    return Number.isInteger(value) ? { int: String(value) } : { float: pyFloatRepr(value) };
  }
  if (value instanceof PyFloat) return { float: pyFloatRepr(value.value) };
  if (Array.isArray(value)) return { list: value.map(tag) };
  if (value instanceof PyDict) return { dict: [...value].map(([k, v]) => [k as string, tag(v)]) };
  throw new Error(`unexpected value ${String(value)}`);
}

describe(`parseJson agrees with Python ${fixture.python}'s json.loads`, () => {
  it(`on ${fixture.cases.length} recorded texts`, () => {
    const mismatches: string[] = [];
    for (const c of fixture.cases) {
      let got: Tagged | { error: string };
      try {
        got = tag(parseJson(c.text));
      } catch (error) {
        if (!isMergeError(error)) throw error;
        got = { error: error.code === "DEPTH_LIMIT" ? "depth" : "invalid" };
      }
      const want = c.error !== undefined ? { error: c.error } : c.value;
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(JSON.stringify(c.text).slice(0, 120));
    }
    expect(mismatches).toEqual([]);
    expect(fixture.cases.length).toBeGreaterThan(400);
  });
});
