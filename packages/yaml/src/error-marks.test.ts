import { describe, expect, it } from "vitest";
import { catchMergeError as fails } from "../../../test-kit/errors.js";
import { loadYaml, loadYamlAll } from "./load.js";
import type { YamlFlavor } from "./scalars.js";

// Where a refused text is reported: the line and column PyYAML's SafeLoader (`pyyaml`) and Salt's loader on libyaml
// (`salt`) print as the problem mark, recorded by running them (PyYAML 6.0, libyaml 0.2.5).
const at = (text: string, flavor: YamlFlavor) => {
  const { line, column } = fails(() => loadYaml(text, { flavor, filename: "t.sls" })).source ?? {};
  return `${line}:${column}`;
};
const both = (text: string) => [at(text, "pyyaml"), at(text, "salt")];

describe("error positions: PyYAML's problem mark", () => {
  it("marks the `:` that cannot start a value, not the start of the key that ran over a line", () => {
    // A plain scalar continued onto the next line cannot be a key: the `:` on the second line is refused there.
    expect(both("banner: Hello\n  world: x\n")).toEqual(["2:8", "2:8"]);
    expect(both("key: value: other\n")).toEqual(["1:11", "1:11"]);
  });

  it("marks where a required simple key went stale: the start of the line after it", () => {
    expect(both("a: b\nc\nd: e\n")).toEqual(["3:1", "3:1"]);
    expect(both("title: yes...\nweb\nport: 80\n")).toEqual(["3:1", "3:1"]);
  });

  it("marks the token a collection did not expect", () => {
    expect(both("a: [1, 2\nb: 3\n")).toEqual(["2:2", "2:2"]);
    expect(both("- a\nb: c\n")).toEqual(["2:1", "2:1"]);
    expect(both("a:\n  b: 1\n c: 2\n")).toEqual(["3:2", "3:2"]);
  });

  it("puts the end of a stream without a final line break where each reader does", () => {
    // libyaml moves the end of the stream to the start of a new line; PyYAML leaves it after the last character.
    expect(both("a: [1, 2")).toEqual(["1:9", "2:1"]);
    // An unclosed collection opening a line of a block mapping: libyaml, past the end, still waits for the `:` of
    // the key it would be, while PyYAML's parser refuses the `[` first.
    expect(both("a: 1\n[x")).toEqual(["2:1", "3:1"]);
  });

  it("reports the first problem in reading order: an undefined alias before a later syntax error", () => {
    expect(both("a: *x\nb: [\n")).toEqual(["1:4", "1:4"]);
    // Then the message names that problem too, not the later one the yaml package met.
    expect(fails(() => loadYaml("a: *x\nb: [\n")).message).toBe("found undefined alias 'x'");
    expect(both("a: &x 1\nb: &x 2\nc: [\n")).toEqual(["2:4", "2:4"]);
  });

  it("marks a second document at its first token, and errors inside it only when met first", () => {
    expect(both("a: 1\n---\nb: 2\n")).toEqual(["2:1", "2:1"]);
    expect(both("a: 1\n...\n%YAML 1.1\n---\nb: [\n")).toEqual(["3:1", "3:1"]);
    // Every document of the stream is read by loadYamlAll, so the error is inside the second one.
    const all = fails(() => loadYamlAll("a: 1\n---\nb: c: d\n", { flavor: "pyyaml" })).source;
    expect(all).toMatchObject({ line: 3, column: 5 });
  });

  it("follows libyaml's own marks where they differ from PyYAML's", () => {
    // An unknown escape: libyaml marks the backslash, PyYAML the character after it.
    expect(both('a: "\\q"\n')).toEqual(["1:6", "1:5"]);
    // A document marker inside a quoted scalar, a tab before a block entry.
    expect(both('a: "x\n---\ny"\n')).toEqual(["2:1", "2:1"]);
    expect(both("- a\n\t- b\n")).toEqual(["2:1", "2:1"]);
    // libyaml ends a tag before `,`, `[` or `]` (PyYAML reads them into it), except in a verbatim `!<…>` tag.
    expect(at("a: !!b,c x\n", "salt")).toBe("1:7");
    expect(both("- {p: !<tag:yaml.org,2002:str> 12\n- {q: 1}\n")).toEqual(["2:3", "2:3"]);
  });
});

describe("error positions: the node a construction error names", () => {
  it("marks where PyYAML's node starts: its first property, or its first key", () => {
    expect(both("!!set {a: 1}: v\n")).toEqual(["1:1", "1:1"]);
    expect(both("network:\n  ? eth0:\n      proto: static\n")).toEqual(["2:5", "2:5"]);
    expect(both("a: 1\nb:\n  <<: &x [1]\n")).toEqual(["3:11", "3:11"]);
    expect(both("k: &a !foo x\n")).toEqual(["1:4", "1:4"]);
  });

  it("marks an empty merge value right after its `:`, where PyYAML makes the empty scalar", () => {
    expect(at("<<: \t\t", "salt")).toBe("1:4");
    // A `? <<` without a value: the empty scalar is placed at the token after it (the next `?`).
    expect(both("a: 1\n? <<\n? <<\n: {q: 1}\n")).toEqual(["3:1", "3:1"]);
  });

  it("reports the syntax or anchor problem PyYAML meets while composing, before any construction error", () => {
    // PyYAML composes the whole document before it builds a value: the undefined alias on line 3 is met before
    // the sequence used as a key on line 1 is refused.
    const error = fails(() => loadYaml("? [complex, key]\n: value\nm: *roles\n", { flavor: "salt" }));
    expect(error.code).toBe("YAML_PARSE");
    expect(error.source).toMatchObject({ line: 3, column: 4 });
    // The repeated anchor on line 3 before the unknown tag on line 1.
    const anchor = fails(() => loadYaml("a: !foo x\nb: &x 1\nc: &x 2\n", { flavor: "pyyaml" }));
    expect([anchor.code, anchor.source?.line, anchor.source?.column]).toEqual(["YAML_PARSE", 3, 4]);
  });
});
