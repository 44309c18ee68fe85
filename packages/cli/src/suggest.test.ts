import { describe, expect, it } from "vitest";
import { closest, didYouMean } from "./suggest.js";

describe("closest", () => {
  it("finds the word meant: a letter missing, two letters swapped, a prefix", () => {
    expect(closest("doc", ["docs", "stack"])).toBe("docs");
    expect(closest("--fromat", ["--format", "--output"])).toBe("--format");
    expect(closest("apend", ["append", "prepend"])).toBe("append");
    expect(closest("mer", ["docs", "mergers"])).toBe("mergers");
  });

  it("suggests nothing when no candidate is close", () => {
    expect(closest("xyz", ["docs", "stack"])).toBeUndefined();
    expect(didYouMean("completely-different", ["docs"])).toBe("");
    expect(didYouMean("jsno", ["yaml", "json"])).toBe(' (did you mean "json"?)');
  });
});
