import { describe, expect, it } from "vitest";
import { type CloudConfigPart, mergeCloudConfig, mergeUserData } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

const MODES = ["current", "stack"] as const;

// What cloud-init 22.4.2 does (checked by the oracle cases of test/oracle/generate.mjs): an empty declaration —
// `merge_how: ""`, `[]`, `{}`, `" + "`, an empty header — means "no mergers declared", so the defaults apply; a
// declaration without a dict merger (`list()`, `str()`) is honoured, and merging the part's mapping into the
// configuration then keeps the configuration as it was. The part still counts as merged, so nothing in cloud-init's
// output says its content was dropped: we say it, with a CLOUD_CONFIG_DROPPED warning.
describe("empty declarations mean the defaults", () => {
  it("merges a part declaring an empty spec with the defaults, in both modes, without a warning", () => {
    const declarations = [
      "merge_how: ''",
      "merge_how: []",
      "merge_how: {}",
      "merge_how: ' + '",
      "merge_type: ''",
      "merge_how: ~",
    ];
    let cases = 0;
    for (const declaration of declarations) {
      for (const mode of MODES) {
        const result = mergeCloudConfig(
          ["#cloud-config\nkeep: 1\n", `#cloud-config\n${declaration}\nadded: 2\n`],
          { mode },
        );
        expect(result.value).toEqual({ keep: 1, added: 2 });
        expect(result.warnings).toEqual([]);
        cases++;
      }
    }
    for (const header of ["", " + ", "+"]) {
      const result = mergeCloudConfig([
        "#cloud-config\nkeep: 1\n",
        { text: "#cloud-config\nadded: 2\n", headers: { "Merge-Type": header } },
      ]);
      expect(result.value).toEqual({ keep: 1, added: 2 });
      expect(result.parts[1]?.mergers).toBe("dict(replace)+list()+str()");
      cases++;
    }
    tally("size", cases);
  });
});

describe("a spec without a mapping merger never drops data silently", () => {
  const dropping: [string, CloudConfigPart][] = [
    ["merge_how: 'list()'", { text: "#cloud-config\nmerge_how: 'list()'\nsecret_key: lost\n" }],
    ["merge_how: 'str()'", { text: "#cloud-config\nmerge_how: 'str()'\nsecret_key: lost\n" }],
    [
      "merge_how: 'list(append)+str(append)'",
      { text: "#cloud-config\nmerge_how: 'list(append)+str(append)'\nsecret_key: lost\n" },
    ],
    [
      "merge_how: [[list, append]]",
      { text: "#cloud-config\nmerge_how: [[list, append]]\nsecret_key: lost\n" },
    ],
    [
      "Merge-Type: list()",
      { text: "#cloud-config\nsecret_key: lost\n", headers: { "Merge-Type": "list()" } },
    ],
    ["a loaded part", { data: { merge_how: "str()", secret_key: "lost" } }],
  ];

  it("keeps the configuration as cloud-init does and reports the part with CLOUD_CONFIG_DROPPED", () => {
    let cases = 0;
    for (const [label, part] of dropping) {
      const result = mergeCloudConfig([
        { name: "base.yaml", text: "#cloud-config\nkeep: 1\n" },
        { name: "x.yaml", ...part },
      ]);
      expect(result.value, label).toEqual({ keep: 1 });
      expect(result.merged, label).toEqual(["base.yaml", "x.yaml"]);
      expect(result.warnings, label).toEqual([
        expect.objectContaining({ code: "CLOUD_CONFIG_DROPPED", file: "x.yaml", index: 1 }),
      ]);
      expect(result.warnings[0]?.message).not.toContain("lost");
      cases++;
    }
    tally("size", cases);
  });

  it("reports it for a first part too, which leaves an empty configuration", () => {
    const result = mergeCloudConfig(["#cloud-config\nmerge_how: 'list()'\nruncmd: [a]\n"]);
    expect(result.value).toEqual({});
    expect(result.warnings.map((w) => w.code)).toEqual(["CLOUD_CONFIG_DROPPED"]);
    tally("size", 1);
  });

  it("reports it in stack mode, where the next part is merged with the declared mergers", () => {
    const result = mergeCloudConfig(
      ["#cloud-config\nmerge_how: 'list()'\na: 1\n", "#cloud-config\nb: 2\n", "#cloud-config\nc: 3\n"],
      { mode: "stack" },
    );
    expect(result.value).toEqual({ a: 1 });
    expect(result.warnings.map((w) => [w.code, w.index])).toEqual([
      ["CLOUD_CONFIG_DROPPED", 1],
      ["CLOUD_CONFIG_DROPPED", 2],
    ]);
    tally("size", 1);
  });

  it("does not warn for a part with nothing to drop, nor for user-data whose parts all merge", async () => {
    expect(
      mergeCloudConfig(["#cloud-config\na: 1\n", "#cloud-config\nmerge_how: 'list()'\n"]).warnings,
    ).toEqual([]);
    const result = await mergeUserData("#cloud-config\nmerge_how: 'dict()+list(append)'\nruncmd: [a]\n");
    expect(result.warnings).toEqual([]);
    tally("size", 2);
  });

  it("reports a part merged into a configuration a patch made a list, with mergers that have no list merger", () => {
    const result = mergeCloudConfig([
      "#cloud-config\na: 1\n",
      '#cloud-config-jsonp\n[{"op": "replace", "path": "", "value": [1, 2]}]',
      "#cloud-config\nmerge_how: 'dict()+str()'\nb: 2\n",
      "#cloud-config\nc: 3\n",
    ]);
    // The default list() replaces a list by a non-list value, which makes the configuration a mapping again.
    expect(result.value).toEqual({ c: 3 });
    expect(result.warnings.map((w) => [w.code, w.index])).toEqual([["CLOUD_CONFIG_DROPPED", 2]]);
    expect(result.warnings[0]?.message).toContain("a list");
    tally("size", 1);
  });
});
