import { type PyDict, PyFloat } from "@merge/core";
import { describe, expect, it } from "vitest";
import { parsePatchJson } from "./patch-json.js";

describe("parsePatchJson", () => {
  it("reads JSON as json.loads does: floats stay floats, objects are PyDicts", () => {
    const value = parsePatchJson('[{"value": 1.0, "n": 1}]') as PyDict[];
    expect(value[0]?.get("value")).toEqual(new PyFloat(1));
    expect(value[0]?.get("n")).toBe(1);
  });
  it("collects the values of a repeated key in a list at its first place (jsonpatch's multidict hook)", () => {
    const value = parsePatchJson('{"a": 1, "b": {"k": 1, "\\u006b": [2]}, "a": 3.0, "a": null}') as PyDict;
    expect(value.keyList()).toEqual(["a", "b"]);
    expect(value.get("a")).toEqual([1, new PyFloat(3), null]);
    expect((value.get("b") as PyDict).get("k")).toEqual([1, [2]]);
  });
  it("does not mistake a string value for a key", () => {
    const value = parsePatchJson('{"a": "a", "b": ["a", "a"], "c": {"a": 1}}') as PyDict;
    expect(value.keyList()).toEqual(["a", "b", "c"]);
  });
  it("fails with Python's JSON error", () => {
    expect(() => parsePatchJson("[1,]")).toThrow(expect.objectContaining({ code: "JSON_PARSE" }));
  });
});
