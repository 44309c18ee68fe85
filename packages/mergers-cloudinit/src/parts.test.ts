import { describe, expect, it } from "vitest";
import { loadYamlWithPositions } from "@merge/yaml";
import { formatCloudConfig } from "./output.js";
import { mergeCloudConfig } from "./parts.js";
import { createCloudInitRegistry } from "./plugins.js";

const texts = (...parts: string[]) => parts.map((text, i) => ({ text, name: `p${i + 1}.yaml` }));
const merged = (...parts: string[]) => mergeCloudConfig(texts(...parts)).value;

describe("mergeCloudConfig: start and empty cases", () => {
  it("gives null for no parts and {} when every part is rejected", () => {
    expect(mergeCloudConfig([]).value).toBeNull();
    const all = mergeCloudConfig(texts("- a list", "", "just a string", "a: [unclosed"));
    expect(all.value).toEqual({});
    expect(all.merged).toEqual([]);
    expect(all.errors.map((e) => e.code)).toEqual([
      "CLOUD_CONFIG_PART",
      "CLOUD_CONFIG_PART",
      "CLOUD_CONFIG_PART",
      "YAML_PARSE",
    ]);
  });
  it("rejects a part with several YAML documents whole", () => {
    const result = mergeCloudConfig(texts("a: 1", "b: 2\n---\nc: 3\n", "d: 4"));
    expect(result.value).toEqual({ a: 1, d: 4 });
    expect(result.parts[1]).toMatchObject({ status: "rejected", name: "p2.yaml" });
    expect(result.errors[0]!.source?.file).toBe("p2.yaml");
    expect(result.errors[0]!.source?.line).toBe(2);
    expect(result.errors[0]!.source?.document).toBe(1);
  });
  it("rejects a part that cannot be merged and goes on with the next", () => {
    const result = mergeCloudConfig(
      texts("a: [1]", "merge_how: 'dict()+list(no_replace)'\na: {k: 1}\nlost: true\n", "c: 3"),
    );
    expect(result.value).toEqual({ a: [1], c: 3 });
    expect(result.errors.map((e) => e.code)).toEqual(["MERGE_TYPE"]);
    expect(result.errors[0]!.path).toBe("a");
    expect(result.merged).toEqual(["p1.yaml", "p3.yaml"]);
  });
});

describe("mergeCloudConfig: default mergers dict(replace)+list()+str()", () => {
  it("lets later parts replace top-level keys", () => {
    expect(merged("a: 3\nl: [1, 2]\nd: {x: 1}\n", "a: 22\nl: [3]\nd: {y: 2}\n")).toEqual({
      a: 22,
      l: [3],
      d: { y: 2 },
    });
  });
  it("gives the seed's run_cmd result only with a declared list append", () => {
    const seed1 = "#cloud-config\nrun_cmd:\n  - bash1\n  - bash2\n";
    const seed2 = "#cloud-config\nrun_cmd:\n  - bash3\n  - bash4\n";
    expect(merged(seed1, seed2)).toEqual({ run_cmd: ["bash3", "bash4"] });
    expect(mergeCloudConfig(texts(seed1, seed2), { mode: "stack" }).value).toEqual({
      run_cmd: ["bash1", "bash2", "bash3", "bash4"],
    });
  });
});

describe("mergeCloudConfig: merge_how and merge_type", () => {
  const docExample = (cmds: string) =>
    `#cloud-config\nmerge_how:\n - name: list\n   settings: [append]\n - name: dict\n   settings: [no_replace, recurse_list]\n\nruncmd:\n${cmds}`;
  it("merges cloud-init's documented runcmd example (list form with mappings)", () => {
    const result = mergeCloudConfig(
      texts(docExample("  - bash1\n  - bash2\n"), docExample("  - bash3\n  - bash4\n")),
    );
    expect(result.value).toEqual({ runcmd: ["bash1", "bash2", "bash3", "bash4"] });
    expect(result.parts[1]!.mergers).toBe("list(append)+dict(no_replace,recurse_list)");
  });
  it("accepts the [name, option...] list form and the string form", () => {
    const listForm = "merge_how: [[list, append], [dict, no_replace, recurse_list]]\nruncmd: [b]\n";
    const stringForm = "merge_how: 'list(append)+dict(no_replace,recurse_list)'\nruncmd: [c]\n";
    expect(merged("runcmd: [a]", listForm, stringForm)).toEqual({ runcmd: ["a", "b", "c"] });
  });
  it("removes the declaration keys from the result", () => {
    expect(merged("merge_how: 'dict()'\na: 1\n", "merge_type: 'dict()'\nb: 1\n")).toEqual({ a: 1, b: 1 });
  });
  it("uses merge_type only when merge_how is missing or null, and keeps it as data otherwise", () => {
    expect(
      merged("l: [1]", "merge_how: null\nmerge_type: 'dict(recurse_list)+list(append)'\nl: [2]\n"),
    ).toEqual({
      l: [1, 2],
    });
    expect(
      merged("l: [1]", "merge_how: 'dict(replace)'\nmerge_type: 'dict(recurse_list)+list(append)'\nl: [2]\n"),
    ).toEqual({ l: [2], merge_type: "dict(recurse_list)+list(append)" });
  });
  it("falls back to the default for an empty declaration", () => {
    expect(merged("a: 1", "merge_how: ''\na: 2\n")).toEqual({ a: 2 });
    expect(merged("a: 1", "merge_how: []\na: 2\n")).toEqual({ a: 2 });
    expect(merged("a: 1", "merge_how: {}\na: 2\n")).toEqual({ a: 2 });
  });
  it("trims and dashes list-form names but keeps their case", () => {
    expect(
      merged(
        "a: [1]",
        "merge_how: [{name: ' dict ', settings: [recurse-list]}, {name: list, settings: [append]}]\na: [2]\n",
      ),
    ).toEqual({ a: [1] });
    expect(
      merged(
        "a: [1]",
        "merge_how: [{name: ' dict ', settings: [recurse_list]}, {name: li-st, settings: [append]}]\na: [2]\n",
      ),
    ).toEqual({ a: [1] });
    const upper = mergeCloudConfig(texts("a: 1", "merge_how: [{name: Dict, settings: []}]\na: 2\n"));
    expect(upper.errors[0]!.code).toBe("UNKNOWN_MERGER");
  });
  it("matches a settings string by substring", () => {
    // "no_replace" contains "replace": cloud-init replaces
    expect(merged("a: 1", "merge_how: [{name: dict, settings: no_replace}]\na: 2\n")).toEqual({ a: 2 });
    expect(merged("a: 1", "merge_how: [{name: dict, settings: [no_replace]}]\na: 2\n")).toEqual({ a: 1 });
  });
  it("ignores unknown options like cloud-init, unless strict", () => {
    expect(merged("a: [1]", "merge_how: 'dict(recurse_list,bogus)+list(append,sorted)'\na: [2]\n")).toEqual({
      a: [1, 2],
    });
    const strict = mergeCloudConfig(texts("a: [1]", "merge_how: 'dict(bogus)'\na: [2]\n"), { strict: true });
    expect(strict.errors[0]!.code).toBe("UNKNOWN_OPTION");
  });
  it("rejects a part with an unknown merger or a malformed spec", () => {
    const result = mergeCloudConfig(
      texts(
        "a: 1",
        "merge_how: 'dict()+nope()'\nb: 1\n",
        "merge_how: 'dict(('\nc: 1\n",
        "merge_how: 5\nd: 1\n",
      ),
    );
    expect(result.value).toEqual({ a: 1 });
    expect(result.errors.map((e) => e.code)).toEqual(["UNKNOWN_MERGER", "SPEC_SYNTAX", "SPEC_SYNTAX"]);
  });
  it("keeps the accumulated mapping when the spec has no dict merger", () => {
    const result = mergeCloudConfig(texts("a: 1", "merge_how: 'list(append)'\nb: 1\n"));
    expect(result.value).toEqual({ a: 1 });
    expect(result.merged).toEqual(["p1.yaml", "p2.yaml"]);
  });
});

describe("mergeCloudConfig: Merge-Type headers", () => {
  it("reads Merge-Type, then X-Merge-Type when the first is missing or empty", () => {
    const parts = (headers: Record<string, string>) => [{ text: "a: [1]" }, { text: "a: [2]", headers }];
    const append = "dict(recurse_list)+list(append)";
    expect(mergeCloudConfig(parts({ "Merge-Type": append })).value).toEqual({ a: [1, 2] });
    expect(mergeCloudConfig(parts({ "X-Merge-Type": append })).value).toEqual({ a: [1, 2] });
    expect(mergeCloudConfig(parts({ "Merge-Type": "", "X-Merge-Type": append })).value).toEqual({
      a: [1, 2],
    });
    expect(mergeCloudConfig(parts({ "Merge-Type": "dict(replace)", "X-Merge-Type": append })).value).toEqual({
      a: [2],
    });
  });
  it("matches header names exactly as cloud-init's dict lookup does", () => {
    const result = mergeCloudConfig([
      { text: "a: [1]" },
      { text: "a: [2]", headers: { "merge-type": "dict(recurse_list)+list(append)" } },
    ]);
    expect(result.value).toEqual({ a: [2] });
  });
  it("takes the value of the first header of that name in any case, as Python's message lookup does", () => {
    const result = mergeCloudConfig([
      { text: "a: [1]" },
      {
        text: "a: [2]",
        headers: [
          ["merge-type", "dict(recurse_list)+list(prepend)"],
          ["Merge-Type", "dict(recurse_list)+list(append)"],
        ],
      },
    ]);
    expect(result.value).toEqual({ a: [2, 1] });
  });
  it("puts body mergers before header mergers", () => {
    const result = mergeCloudConfig([
      { text: "a: [1]\ns: x\n" },
      {
        text: "merge_how: 'list(prepend)'\na: [2]\ns: y\n",
        headers: { "Merge-Type": "dict(recurse_list,recurse_str)+list(append)+str(append)" },
      },
    ]);
    expect(result.value).toEqual({ a: [2, 1], s: "xy" });
    expect(result.parts[1]!.mergers).toBe(
      "list(prepend)+dict(recurse_list,recurse_str)+list(append)+str(append)",
    );
  });
});

describe("mergeCloudConfig: list(extend) in current mode", () => {
  // cloud-init 22.4's list merger knows append, prepend, replace and no_replace only: `extend` selects nothing, so
  // the list is replaced index by index (what the real cloud-init gives for these parts).
  it("replaces index by index, as cloud-init does", () => {
    const spec = "merge_how: 'list(extend)+dict(recurse_list)'";
    expect(mergeCloudConfig(texts("a: [1, 2]", `${spec}\na: [3]`)).value).toEqual({ a: [3, 2] });
    const listForm = "merge_how: [{name: list, settings: [extend]}, {name: dict, settings: [recurse_list]}]";
    expect(mergeCloudConfig(texts("a: [1]", `${listForm}\na: [2]`)).value).toEqual({ a: [2] });
    expect(
      mergeCloudConfig(texts("a: [1]", `${spec.replace("extend", "extend,append")}\na: [2]`)).value,
    ).toEqual({
      a: [1, 2],
    });
  });
  it("is an unknown option when strict", () => {
    const result = mergeCloudConfig(texts("a: [1]", "merge_how: 'list(extend)+dict(recurse_list)'\na: [2]"), {
      strict: true,
    });
    expect(result.value).toEqual({ a: [1] });
    expect(result.parts[1]!.error?.code).toBe("UNKNOWN_OPTION");
  });
});

describe("mergeCloudConfig: stack mode", () => {
  const bottom = "list(extend)+dict(recurse_list,recurse_str)+str(append)";
  it("merges each part with the mergers declared by the part before it", () => {
    const parts = texts("l: [1]\ns: a\n", "merge_how: 'dict(replace)'\nl: [2]\ns: b\n", "l: [3]\n", "s: d\n");
    // part 2 merges with the stack bottom; parts 3 and 4 with part 2's dict(replace) (part 3 declares nothing)
    expect(mergeCloudConfig(parts.slice(0, 2), { mode: "stack" }).value).toEqual({ l: [1, 2], s: "ab" });
    const result = mergeCloudConfig(parts, { mode: "stack" });
    expect(result.value).toEqual({ l: [3], s: "d" });
    expect(result.parts.map((p) => p.mergers)).toEqual([bottom, bottom, "dict(replace)", "dict(replace)"]);
  });
  it("starts from the seed's default: lists extended, strings appended, mappings merged", () => {
    expect(
      mergeCloudConfig(texts("a: {x: [1], s: p}", "a: {x: [2], y: 1, s: q}"), { mode: "stack" }).value,
    ).toEqual({
      a: { x: [1, 2], y: 1, s: "pq" },
    });
  });
  it("reads list(extend) as append, as the seed does", () => {
    const parts = texts("a: [1, 2]", "merge_how: 'list(extend)+dict(recurse_list)'\na: [3]", "a: [4]");
    expect(mergeCloudConfig(parts, { mode: "stack" }).value).toEqual({ a: [1, 2, 3, 4] });
  });
  it("does not let a rejected part change the stack", () => {
    const result = mergeCloudConfig(texts("l: [1]", "merge_how: 'dict(replace)'\n- bad", "l: [2]"), {
      mode: "stack",
    });
    expect(result.value).toEqual({ l: [1, 2] });
  });
});

describe("mergeCloudConfig: YAML is read as PyYAML reads it", () => {
  it("applies YAML 1.1 scalars, merge keys and last-duplicate-wins", () => {
    const result = merged(
      "#cloud-config\nflags: [yes, No, ON, off, True, FALSE]\nmode: 0755\nbig: 1_000\ntime: 1:30\nbase: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\ndup: 1\ndup: 2\n",
    );
    expect(result).toEqual({
      flags: [true, false, true, false, true, false],
      mode: 493,
      big: 1000,
      time: 90,
      base: { x: 1, y: 2 },
      derived: { x: 1, y: 3 },
      dup: 2,
    });
  });
});

describe("mergeCloudConfig: JSON patch parts", () => {
  it("applies a #cloud-config-jsonp part to the result so far", () => {
    const result = mergeCloudConfig(
      texts(
        "#cloud-config\npackages: [git]\nruncmd: [a]\n",
        '#cloud-config-jsonp\n[{"op": "add", "path": "/packages/-", "value": "vim"}, {"op": "remove", "path": "/runcmd"}]',
        "#cloud-config\nmerge_how: 'dict(recurse_list)+list(append)'\npackages: [curl]\n",
      ),
    );
    expect(result.value).toEqual({ packages: ["git", "vim", "curl"] });
    expect(result.parts.map((p) => p.type)).toEqual([
      "text/cloud-config",
      "text/cloud-config-jsonp",
      "text/cloud-config",
    ]);
  });
  it("rejects a patch that cannot apply whole", () => {
    const result = mergeCloudConfig(
      texts(
        "a: 1",
        '#cloud-config-jsonp\n[{"op": "add", "path": "/b", "value": 2}, {"op": "replace", "path": "/missing", "value": 3}]',
        "#cloud-config-jsonp\nnot json",
        '#cloud-config-jsonp\n[{"op": "test", "path": "/a", "value": 2}]',
      ),
    );
    expect(result.value).toEqual({ a: 1 });
    expect(result.errors.map((e) => e.code)).toEqual(["JSON_PATCH", "JSON_PATCH", "JSON_PATCH"]);
    expect(result.errors[0]!.message).toContain("operation 2");
  });
  it("detects the prefix case-insensitively but strips only the exact one, as cloud-init does", () => {
    const result = mergeCloudConfig(
      texts("a: 1", '  #Cloud-Config-JSONP\n[{"op": "add", "path": "/b", "value": 2}]'),
    );
    expect(result.parts[1]).toMatchObject({ type: "text/cloud-config-jsonp", status: "rejected" });
  });
  it("numbers rejected parts among all parts, across patch parts", () => {
    const result = mergeCloudConfig(
      texts("a: 1", '#cloud-config-jsonp\n[{"op": "add", "path": "/b", "value": 2}]', "- a list"),
    );
    expect(result.value).toEqual({ a: 1, b: 2 });
    expect(result.errors[0]!.source).toMatchObject({ file: "p3.yaml", document: 2 });
  });
  it("starts from {} when a patch comes first", () => {
    const result = mergeCloudConfig(
      texts('#cloud-config-jsonp\n[{"op": "add", "path": "/a", "value": [1]}]', "b: 2"),
    );
    expect(result.value).toEqual({ a: [1], b: 2 });
  });
});

describe("mergeCloudConfig: names", () => {
  it("names parts as cloud-init lists them", () => {
    const result = mergeCloudConfig([
      { text: "a: 1" },
      { text: "b: 1", name: " odd\tname\n" },
      { text: "c: 1", name: "  " },
    ]);
    expect(result.merged).toEqual(["part-001", "odd name", ""]);
  });
  it("takes plain strings as part texts and Map headers", () => {
    const result = mergeCloudConfig(["#cloud-config\na: [1]\n", "a: [2]\n"]);
    expect(result.value).toEqual({ a: [2] });
    const headers = new Map([["Merge-Type", "dict(recurse_list)+list(append)"]]);
    expect(mergeCloudConfig(["a: [1]", { text: "a: [2]", headers }]).value).toEqual({ a: [1, 2] });
  });
  it("accepts already loaded documents", () => {
    expect(
      mergeCloudConfig([
        { data: { a: [1] } },
        { data: { merge_how: "dict(recurse_list)+list(append)", a: [2] } },
      ]).value,
    ).toEqual({
      a: [1, 2],
    });
  });
});

describe("mergeCloudConfig: options", () => {
  it("refuses an unknown mode", () => {
    expect(() => mergeCloudConfig([], { mode: "other" as "current" })).toThrow(
      expect.objectContaining({ code: "CLOUD_CONFIG_MODE" }),
    );
  });
  it("records which merger decided what when a trace sink is given", () => {
    const events: { action: string; merger: string; path: readonly unknown[] }[] = [];
    mergeCloudConfig(
      [{ text: "a: [1]" }, { text: "merge_how: 'dict(recurse_list)+list(append)'\na: [2]\nb: 1\n" }],
      { trace: { record: (event) => events.push(event) } },
    );
    expect(events).toContainEqual(
      expect.objectContaining({ action: "appended", merger: "list(append)", path: ["a"] }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ action: "added", merger: "dict(recurse_list)", path: ["b"] }),
    );
  });
  it("uses a registry of your own", () => {
    const registry = createCloudInitRegistry();
    registry.register({
      name: "keep",
      kinds: ["dict"],
      options: {},
      create: () => ({ dict: (base) => base }),
    });
    const result = mergeCloudConfig([{ text: "a: 1" }, { text: "merge_how: 'keep()'\na: 2\n" }], {
      registry,
    });
    expect(result.value).toEqual({ a: 1 });
  });
});

describe("positions", () => {
  const first = "#cloud-config\npackages:\n  - git\nusers:\n  - name: ann\n    groups: [adm]\n";
  const second = "#cloud-config\nmerge_how: 'list(append)+dict()+str()'\npackages: [vim]\nbroken: [\n";
  const third = "#cloud-config\nruncmd:\n  - echo hi\n";

  it("gives each YAML part the line and column of its values from the one read of it, and merges the same", () => {
    const plain = mergeCloudConfig([first, second, third], { values: "exact" });
    const located = mergeCloudConfig([first, second, third], { values: "exact", positions: true });
    expect(formatCloudConfig(located)).toBe(formatCloudConfig(plain));
    expect(plain.parts.every((part) => part.positionOf === undefined)).toBe(true);
    const [a, b, c] = located.parts;
    expect(a?.positionOf?.(["users", 0, "groups", 0])).toEqual({ line: 6, column: 14 });
    expect(a?.positionOf?.(["packages", 0])).toEqual({ line: 3, column: 5 });
    // A part that could not be read has no positions; the others keep theirs.
    expect(b?.status).toBe("rejected");
    expect(b?.positionOf).toBeUndefined();
    expect(c?.positionOf?.(["runcmd", 0])).toEqual({ line: 3, column: 5 });
    // Positions are what a second read with positions gives.
    expect(a?.positionOf?.(["users", 0, "name"])).toEqual(
      loadYamlWithPositions(first, { flavor: "pyyaml", values: "exact" }).positionOf(["users", 0, "name"]),
    );
  });
});
