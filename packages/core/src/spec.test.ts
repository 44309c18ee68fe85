import { describe, expect, it } from "vitest";
import { isMergeError, MergeError } from "./errors.js";
import { formatSpec, normalizeSpec, parseSpec, parseSpecList } from "./spec.js";

describe("parseSpec", () => {
  it("parses names and options in order", () => {
    expect(parseSpec("list(extend)+dict()+str(append)")).toEqual([
      { name: "list", options: ["extend"] },
      { name: "dict", options: [] },
      { name: "str", options: ["append"] },
    ]);
  });

  it("trims, lowercases and reads dashes as underscores", () => {
    expect(parseSpec("  LIST( Append , Recurse-List )  + Dict(No-Replace)")).toEqual([
      { name: "list", options: ["append", "recurse_list"] },
      { name: "dict", options: ["no_replace"] },
    ]);
  });

  it("skips empty segments and empty options", () => {
    expect(parseSpec("+list(,append,,)++ +str()+")).toEqual([
      { name: "list", options: ["append"] },
      { name: "str", options: [] },
    ]);
    expect(parseSpec("")).toEqual([]);
  });

  it("rejects a segment without parentheses, quoting it with its offset", () => {
    let error: unknown;
    try {
      parseSpec("dict()+ list +str()");
    } catch (caught) {
      error = caught;
    }
    expect(isMergeError(error)).toBe(true);
    const merged = error as MergeError;
    expect(merged.code).toBe("SPEC_SYNTAX");
    expect(merged.message).toContain('"list"');
    expect(merged.source).toEqual({ offset: 8, text: "dict()+ list +str()" });
  });

  it.each(["list (append)", "1list()", "list(append", "li st()", "list()x"])("rejects %j", (spec) => {
    expect(() => parseSpec(spec)).toThrow(MergeError);
  });

  it("takes everything up to the last parenthesis as options", () => {
    expect(parseSpec("list(a)b)")).toEqual([{ name: "list", options: ["a)b"] }]);
  });
});

describe("parseSpecList", () => {
  it("reads the {name, settings} form, keeping case and trimming names", () => {
    expect(
      parseSpecList([
        { name: " list ", settings: ["append"] },
        { name: "no-such", settings: [] },
        { name: "Dict", settings: ["Replace"] },
      ]),
    ).toEqual([
      { name: "list", options: ["append"] },
      { name: "no_such", options: [] },
      { name: "Dict", options: ["Replace"] },
    ]);
  });

  it("keeps a settings string for substring matching", () => {
    expect(parseSpecList([{ name: "str", settings: "append" }])).toEqual([
      { name: "str", options: [], optionText: "append" },
    ]);
  });

  it("reads the [name, option...] form as written", () => {
    expect(parseSpecList([["list", "append", "recurse_dict"], ["dict"]])).toEqual([
      { name: "list", options: ["append", "recurse_dict"] },
      { name: "dict", options: [] },
    ]);
  });

  it("skips entries whose name is empty", () => {
    expect(parseSpecList([{ name: "  ", settings: [] }, ["", "x"]])).toEqual([]);
  });

  it("rejects items without a name, without settings, or of another shape", () => {
    expect(() => parseSpecList([{ settings: [] } as never])).toThrow(/name/);
    expect(() => parseSpecList([{ name: "list" }])).toThrow(/settings/);
    expect(() => parseSpecList([{ name: "list", settings: null }])).toThrow(/settings/);
    expect(() => parseSpecList([42 as never])).toThrow(MergeError);
    expect(() => parseSpecList("x" as never)).toThrow(MergeError);
  });
});

describe("formatSpec", () => {
  it("round-trips string specs to the canonical form", () => {
    const canonical = "list(append,recurse_list)+dict(no_replace)+str()";
    expect(formatSpec(parseSpec(canonical))).toBe(canonical);
    expect(formatSpec(parseSpec(" LIST(Append, recurse-list)+ +dict(no-replace)+str( )"))).toBe(canonical);
    expect(parseSpec(formatSpec(parseSpec("list(extend)+dict()")))).toEqual(parseSpec("list(extend)+dict()"));
  });

  it("formats the list forms", () => {
    expect(formatSpec(parseSpecList([{ name: "str", settings: "append" }, ["list", "prepend"]]))).toBe(
      "str(append)+list(prepend)",
    );
  });
});

describe("normalizeSpec", () => {
  it("accepts all three forms", () => {
    const parsed = parseSpec("dict()+list(append)");
    expect(normalizeSpec("dict()+list(append)")).toEqual(parsed);
    expect(normalizeSpec(parsed)).toBe(parsed);
    expect(
      normalizeSpec([
        { name: "dict", settings: [] },
        { name: "list", settings: ["append"] },
      ]),
    ).toEqual(parsed);
  });
});
