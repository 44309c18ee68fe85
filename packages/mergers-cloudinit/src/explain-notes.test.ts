import { createRegistry, type TraceEvent } from "@merge/core";
import { describe, expect, it } from "vitest";
import { mergeCloudConfig } from "./parts.js";
import { cloudInitPlugins } from "./plugins.js";

describe("what --explain needs to know of each part", () => {
  it("says which part declared the mergers each part used, or that cloud-init's default applied", () => {
    const parts = [
      { name: "a", text: "#cloud-config\nx: [1]\n" },
      { name: "b", text: "#cloud-config\nmerge_how: list(append)+dict()\nx: [2]\n" },
      { name: "c", text: "#cloud-config\nx: [3]\n" },
    ];
    const current = mergeCloudConfig(parts);
    expect(current.parts.map((part) => [part.mergers, part.mergersFrom])).toEqual([
      ["dict(replace)+list()+str()", "default"],
      ["list(append)+dict()", 1],
      ["dict(replace)+list()+str()", "default"],
    ]);
    const stack = mergeCloudConfig(parts, { mode: "stack" });
    expect(stack.parts.map((part) => part.mergersFrom)).toEqual(["default", "default", 1]);
  });

  it("notes a settings text that turns an option on by substring (`no_replace` contains `replace`)", () => {
    const events: TraceEvent[] = [];
    const registry = createRegistry(cloudInitPlugins());
    mergeCloudConfig(
      [
        { name: "a", text: "#cloud-config\nk: old\n" },
        { name: "b", text: '#cloud-config\nmerge_how: [{name: dict, settings: "no_replace"}]\nk: new\n' },
      ],
      { registry, trace: { record: (event) => events.push(event) } },
    );
    const replaced = events.find((event) => event.action === "replaced" && event.path[0] === "k");
    expect(replaced?.merger).toBe("dict(no_replace)");
    expect(replaced?.detail).toBe(
      'settings "no_replace" contain "replace": cloud-init tests a settings text by substring',
    );
  });

  it("adds no note when the option was written as such", () => {
    const events: TraceEvent[] = [];
    mergeCloudConfig(
      [
        { name: "a", text: "#cloud-config\nk: old\n" },
        { name: "b", text: "#cloud-config\nmerge_how: [{name: dict, settings: [replace]}]\nk: new\n" },
      ],
      { trace: { record: (event) => events.push(event) } },
    );
    expect(events.find((event) => event.action === "replaced")?.detail).toBeUndefined();
  });
});
