import { readFileSync } from "node:fs";
import { createRegistry, type PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import {
  CLOUD_INIT_ERROR_CODES,
  cloudInitPlugins,
  createCloudInitRegistry,
  formatCloudConfig,
  mergeCloudConfig,
} from "../src/index.js";

// Keeps the README's examples true: each snippet below must appear in the README as written, with its result.
// Whitespace and trailing commas are ignored, as the formatter rewraps code blocks.
const squash = (text: string) => text.replace(/\s+/g, "").replace(/,([}\])])/g, "$1");
const readme = squash(readFileSync(new URL("../README.md", import.meta.url), "utf8"));
const shown = (snippet: string) => expect(readme).toContain(squash(snippet));

describe("README examples", () => {
  it("merges values with cloud-init's mergers", () => {
    const registry = createCloudInitRegistry();
    shown(
      'registry.resolve("list(append)+dict(no_replace,recurse_list)+str()").merge({ runcmd: ["a"] }, { runcmd: ["b"] });\n// → { runcmd: ["a", "b"] }',
    );
    expect(
      registry
        .resolve("list(append)+dict(no_replace,recurse_list)+str()")
        .merge({ runcmd: ["a"] }, { runcmd: ["b"] }),
    ).toEqual({ runcmd: ["a", "b"] });
    shown(
      'registry.resolve("dict()").merge({ k: "old", d: { x: 1 } }, { k: "new", d: { x: 2, y: 2 }, n: 1 });\n// → { k: "old", d: { x: 1, y: 2 }, n: 1 }',
    );
    expect(
      registry.resolve("dict()").merge({ k: "old", d: { x: 1 } }, { k: "new", d: { x: 2, y: 2 }, n: 1 }),
    ).toEqual({
      k: "old",
      d: { x: 1, y: 2 },
      n: 1,
    });
  });
  it("merges parts and writes cloud-config.txt", () => {
    const snippet = `const result = mergeCloudConfig([
  { name: "base.yaml", text: "#cloud-config\\nruncmd: [bash1]\\n" },
  { name: "more.yaml", text: "#cloud-config\\nruncmd: [bash2]\\n", headers: { "Merge-Type": "dict(recurse_list)+list(append)" } },
]);`;
    shown(snippet);
    const result = mergeCloudConfig([
      { name: "base.yaml", text: "#cloud-config\nruncmd: [bash1]\n" },
      {
        name: "more.yaml",
        text: "#cloud-config\nruncmd: [bash2]\n",
        headers: { "Merge-Type": "dict(recurse_list)+list(append)" },
      },
    ]);
    shown('result.value; // → { runcmd: ["bash1", "bash2"] }');
    expect(result.value).toEqual({ runcmd: ["bash1", "bash2"] });
    const written =
      "#cloud-config\n\n# from 2 files\n# base.yaml\n# more.yaml\n\n---\nruncmd:\n- bash1\n- bash2\n...\n";
    shown(`// → ${JSON.stringify(written)}`);
    expect(formatCloudConfig(result)).toBe(written);
  });
  it("merges in the exact model with values: exact", () => {
    shown(`const exact = mergeCloudConfig(
  [
    "#cloud-config\\nversion: 9.0\\nports: {8080: a, '443': b}\\nruncmd: [a]\\n",
    "#cloud-config\\nmerge_how: 'dict(recurse_list)+list(append)'\\nruncmd: {k: 1, '10': 2}\\n",
  ],
  { values: "exact" },
);`);
    const exact = mergeCloudConfig(
      [
        "#cloud-config\nversion: 9.0\nports: {8080: a, '443': b}\nruncmd: [a]\n",
        "#cloud-config\nmerge_how: 'dict(recurse_list)+list(append)'\nruncmd: {k: 1, '10': 2}\n",
      ],
      { values: "exact" },
    );
    const config = exact.value as PyDict;
    shown('String(config.get("version")); // → "9.0"');
    expect(String(config.get("version"))).toBe("9.0");
    shown('(config.get("ports") as PyDict).keyList(); // → [8080, "443"]');
    expect((config.get("ports") as PyDict).keyList()).toEqual([8080, "443"]);
    shown('config.get("runcmd"); // → ["a", "k", "10"]');
    expect(config.get("runcmd")).toEqual(["a", "k", "10"]);
  });
  it("lists every error code of the package in the Errors table", () => {
    for (const code of CLOUD_INIT_ERROR_CODES) shown(`| \`${code}\``);
  });
  it("registers the plugins next to others", () => {
    shown("createRegistry().use(...cloudInitPlugins(), myPlugin())");
    expect(
      createRegistry()
        .use(...cloudInitPlugins())
        .has("dict"),
    ).toBe(true);
  });
});
