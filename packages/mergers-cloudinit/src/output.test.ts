import { describe, expect, it } from "vitest";
import { formatCloudConfig } from "./output.js";
import { mergeCloudConfig } from "./parts.js";

describe("formatCloudConfig", () => {
  it("writes nothing when there were no parts", () => {
    expect(formatCloudConfig(mergeCloudConfig([]))).toBe("");
  });
  it("writes {} without a file list when every part was rejected", () => {
    expect(formatCloudConfig(mergeCloudConfig([{ text: "- not a mapping" }]))).toBe(
      "#cloud-config\n\n--- {}\n...\n",
    );
  });
  it("lists the merged parts, ? for an empty name, then the value as safeyaml.dumps writes it", () => {
    const result = mergeCloudConfig([
      { text: "b: [1, 2]\na: {x: 1}\n", name: "one.yaml" },
      { text: "c: yes\n", name: " " },
    ]);
    expect(formatCloudConfig(result)).toBe(
      "#cloud-config\n\n# from 2 files\n# one.yaml\n# ?\n\n---\na:\n    x: 1\nb:\n- 1\n- 2\nc: true\n...\n",
    );
  });
});
