import { describe, expect, it } from "vitest";
import { pyRepr } from "@merge/jinja";
import { draft4Problems } from "./draft4.js";
import { isIsoDate } from "./iso-date.js";

// A schema in cloud-init's style. Every expectation below is what cloud-init 22.4.2's validator (jsonschema 4.10.3)
// reports for the same instance, with the value jsonschema puts first in its messages left out.
const schema = {
  $defs: { name: { type: "string", minLength: 2 } },
  type: "object",
  properties: {
    ssh_pwauth: {
      oneOf: [{ type: "boolean" }, { type: "string", deprecated: true, description: "Use a boolean." }],
    },
    sudo: {
      anyOf: [
        { type: "string" },
        { type: "boolean", enum: [false], deprecated: true, description: "Use null." },
        { type: "null" },
      ],
    },
    group: { type: ["string", "array"], $ref: "#/$defs/name", minItems: 1 },
    either: { oneOf: [{ type: "integer" }, { type: "number" }] },
    list: { type: "array", uniqueItems: true, maxItems: 2, items: { enum: [1, true, "a"] } },
    port: { type: "integer", minimum: 1, maximum: 65535, exclusiveMaximum: true },
    day: { type: "string", format: "date" },
    env: {
      type: "object",
      patternProperties: { "^[A-Z]+$": { type: "string" } },
      additionalProperties: false,
    },
  },
};

const problems = (instance: unknown) =>
  draft4Problems(schema, instance, { repr: pyRepr, isUri: () => true }).map((p) => [
    p.path,
    p.message,
    p.deprecation,
  ]);

describe("draft4Problems (cloud-init's jsonschema)", () => {
  it("reports the deprecations of the branch a oneOf or anyOf takes, and none of the branches it does not", () => {
    expect(problems({ ssh_pwauth: true, sudo: "ALL" })).toEqual([]);
    expect(problems({ ssh_pwauth: "yes", sudo: false })).toEqual([
      [["ssh_pwauth"], "DEPRECATED: Use a boolean.", true],
      [["sudo"], "DEPRECATED: Use null.", true],
    ]);
    expect(problems({ ssh_pwauth: 1, sudo: 1 })).toEqual([
      [["ssh_pwauth"], "is not valid under any of the given schemas", false],
      [["sudo"], "is not valid under any of the given schemas", false],
    ]);
  });

  it("applies the keywords beside a $ref, in the schema's order", () => {
    expect(problems({ group: "x" })).toEqual([[["group"], "is too short", false]]);
    expect(problems({ group: [] })).toEqual([
      [["group"], "is not of type 'string'", false],
      [["group"], "is too short", false],
    ]);
  });

  it("says which branches a oneOf matched twice, the later ones first", () => {
    expect(problems({ either: 3 })).toEqual([
      [["either"], "is valid under each of {'type': 'number'}, {'type': 'integer'}", false],
    ]);
    expect(problems({ either: 3.5 })).toEqual([]);
  });

  it("tells True from 1 in enum and uniqueItems, and 1 from 1.0 not", () => {
    expect(problems({ list: [1, true] })).toEqual([]);
    expect(problems({ list: [1, true, 1.5] })).toEqual([
      [["list"], "is too long", false],
      [["list", 2], "is not one of [1, True, 'a']", false],
    ]);
    expect(problems({ list: [1, true, 1] })).toEqual([
      [["list"], "has non-unique elements", false],
      [["list"], "is too long", false],
    ]);
  });

  it("words bounds, formats and pattern properties as jsonschema does", () => {
    expect(problems({ port: 0 })).toEqual([[["port"], "is less than the minimum of 1", false]]);
    expect(problems({ port: 65535 })).toEqual([
      [["port"], "is greater than or equal to the maximum of 65535", false],
    ]);
    expect(problems({ day: "2024-W01-1" })).toEqual([]);
    expect(problems({ day: "20240230" })).toEqual([[["day"], "is not a 'date'", false]]);
    expect(problems({ env: { ok: 1, A: 2, b: "x" } })).toEqual([
      [["env"], "'b', 'ok' do not match any of the regexes: '^[A-Z]+$'", false],
      [["env", "A"], "is not of type 'string'", false],
    ]);
  });

  it("sorts by key path as Python does, list indexes as numbers", () => {
    const list = Array.from({ length: 12 }, (_, i) => (i === 2 || i === 10 ? "b" : 1));
    expect(problems({ list }).map(([path]) => path)).toEqual([["list"], ["list"], ["list", 2], ["list", 10]]);
  });
});

describe("isIsoDate (Python 3.11's date.fromisoformat)", () => {
  it("takes calendar and week dates with dashes or without, for real days only", () => {
    for (const text of [
      "2020-01-01",
      "20200101",
      "2020-W01",
      "2020W01",
      "2020-W01-1",
      "2020W011",
      "2020-W53",
    ])
      expect(isIsoDate(text), text).toBe(true);
    for (const text of [
      "2021-W53",
      "2020-W00",
      "2020-W01-8",
      "2020-02-30",
      "0000-01-01",
      "2020-0101",
      "2020-1-01",
      " 2020-01-01",
      "2020W01-1",
      "2020-W011",
      "２020-01-01",
    ])
      expect(isIsoDate(text), text).toBe(false);
  });
});
