import { describe, expect, it } from "vitest";
import { catchMergeError as fails } from "../../../test-kit/errors.js";
import { loadYaml } from "./load.js";
import { tagAsPyyamlSplits } from "./tag-spelling.js";

const FLAVORS = ["pyyaml", "salt"] as const;

describe("tagAsPyyamlSplits", () => {
  it("spells a `!` of the suffix as %21, so that the handle ends at the first `!word!`", () => {
    expect(tagAsPyyamlSplits("!!!int", false)).toBe("!!%21int");
    expect(tagAsPyyamlSplits("!!n!ull", true)).toBe("!!n%21ull");
    expect(tagAsPyyamlSplits("!e!x!y", false)).toBe("!e!x%21y");
  });

  it("leaves the tags both read alike", () => {
    for (const tag of ["!", "!!str", "!foo", "!e!x", "!<tag:a!b>", "!!"]) {
      expect(tagAsPyyamlSplits(tag, false)).toBeUndefined();
      expect(tagAsPyyamlSplits(tag, true)).toBeUndefined();
    }
  });

  it("makes a tag that opens with no `!word!` local in libyaml only (PyYAML's scanner refuses it)", () => {
    expect(tagAsPyyamlSplits("!a.b!c", true)).toBe("!<!a.b!c>");
    expect(tagAsPyyamlSplits("!a.b!%41", true)).toBe("!<!a.b!A>");
    expect(tagAsPyyamlSplits("!a.b!c", false)).toBeUndefined();
  });
});

// Expected values: PyYAML 6.0's SafeLoader and Salt's loader on libyaml 0.2.5.
describe("odd tags, read as PyYAML and libyaml read them", () => {
  it("reads a `!` after the handle as part of the tag and refuses the tag where it is built", () => {
    for (const flavor of FLAVORS) {
      for (const [text, tag] of [
        ["a: !!!int 1\n", "tag:yaml.org,2002:!int"],
        ["a: !!n!ull x\n", "tag:yaml.org,2002:n!ull"],
        ["a: !!str! x\n", "tag:yaml.org,2002:str!"],
      ]) {
        const error = fails(() => loadYaml(text!, { flavor }));
        expect(error.code).toBe("YAML_TAG");
        expect(error.message).toContain(`could not determine a constructor for the tag '${tag}'`);
        expect(error.source).toMatchObject({ line: 1, column: 4 });
      }
      // An earlier node refused while building comes first, as the tag is no syntax error.
      const first = fails(() => loadYaml("a: !!value\nb: !!!int 1\n", { flavor }));
      expect(first.code).toBe("YAML_TAG");
      expect(first.message).toContain("tag:yaml.org,2002:value");
      expect(first.source).toMatchObject({ line: 1, column: 4 });
    }
    // libyaml takes a tag that opens with no `!word!` whole, as a local tag; PyYAML wants the `!` there.
    expect(fails(() => loadYaml("a: !a.b!c x\n", { flavor: "salt" })).message).toContain("'!a.b!c'");
    expect(fails(() => loadYaml("a: !a.b!c x\n", { flavor: "pyyaml" })).code).toBe("YAML_PARSE");
  });

  it("takes `,`, `[` and `]` into a tag in PyYAML, even in a flow collection; libyaml ends the tag there", () => {
    for (const [text, at] of [
      ["a: !!b]ool x\n", { line: 1, column: 4 }],
      ["x: [!!b]ool x]\n", { line: 1, column: 5 }],
    ] as const) {
      const error = fails(() => loadYaml(text, { flavor: "pyyaml" }));
      expect(error.code).toBe("YAML_TAG");
      expect(error.message).toContain("'tag:yaml.org,2002:b]ool'");
      expect(error.source).toMatchObject(at);
    }
    expect(fails(() => loadYaml("a: !!b]ool x\n", { flavor: "salt" })).source).toMatchObject({
      line: 1,
      column: 7,
    });
    expect(fails(() => loadYaml("x: [!!b]ool x]\n", { flavor: "salt" })).code).toBe("YAML_PARSE");
    expect(fails(() => loadYaml("{!!fl,oat 1}", { flavor: "pyyaml" })).message).toContain(
      "'tag:yaml.org,2002:fl,oat'",
    );
    expect(fails(() => loadYaml("{!!fl,oat 1}", { flavor: "salt" })).message).toContain(
      "'tag:yaml.org,2002:fl'",
    );
  });

  it("refuses a bad `%` escape in a tag or a %TAG prefix, which libyaml marks at its `%` and PyYAML after it", () => {
    const bad = "a: !!str%zz x\n";
    expect(fails(() => loadYaml(bad, { flavor: "salt" })).source).toMatchObject({ line: 1, column: 9 });
    expect(fails(() => loadYaml(bad, { flavor: "pyyaml" })).source).toMatchObject({ line: 1, column: 10 });
    for (const flavor of FLAVORS) {
      // Even where no tag uses the prefix.
      expect(fails(() => loadYaml("%TAG !e! tag:a%q\n--- x\n", { flavor })).code).toBe("YAML_PARSE");
      expect(loadYaml("%TAG !e! tag:a # 50%\n--- x\n", { flavor })).toBe("x");
      // A %TAG handle is `!`, `!!` or `!word!`: `!&` stops PyYAML and libyaml at its `&`.
      const handle = fails(() => loadYaml("%TAG !& !\n--- x\n", { flavor }));
      expect(handle.code).toBe("YAML_PARSE");
      expect(handle.source).toMatchObject({ line: 1, column: 7 });
    }
  });

  it("wants white space after a tag (libyaml: or a `,` in a flow collection), and a URI in a verbatim one", () => {
    for (const flavor of FLAVORS) {
      for (const text of ["a: [!!str]\n", "a: {!!str}\n", "a: [!]\n"]) {
        expect(fails(() => loadYaml(text, { flavor })).code).toBe("YAML_PARSE");
      }
      expect(loadYaml("a: [!!str ]\n", { flavor })).toEqual({ a: [""] });
      const empty = fails(() => loadYaml("b: [!<> x, y]\n", { flavor }));
      expect(empty.code).toBe("YAML_PARSE");
      expect(empty.source).toMatchObject({ line: 1, column: 7 });
    }
    expect(loadYaml("a: [!!str,]\n", { flavor: "salt" })).toEqual({ a: [""] });
    expect(fails(() => loadYaml("a: [!!str,]\n", { flavor: "pyyaml" })).source).toMatchObject({
      line: 2,
      column: 1,
    });
  });
});
