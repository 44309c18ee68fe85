import { getItem, type PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { retainedGrowth } from "../../../test-kit/heap-growth.js";
import { createStackLoader } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";
import { makeTree } from "./test-tree.js";

// The loader keeps the YAML it parsed per file, so that hosts rendering a file to the same text parse it once. A
// template that writes the host's own values renders a new text for every host: after a few renders that never
// repeated, such a file keeps only its latest parse. In a batch, eight kept parses per such file each outlived the
// young-generation collections of the hosts after theirs and reached the old generation.

const root = makeTree({
  "stack.cfg": "common.yml\nhost.yml\n",
  "common.yml": "ntp:\n  servers: [a, b]\n",
  "host.yml": [
    "host: {{ minion_id }}",
    "entries:",
    "{%- for i in range(1500) %}",
    "  e{{ i }}: {owner: {{ minion_id }}, n: {{ i }}}",
    "{%- endfor %}",
    "",
  ].join("\n"),
});

const hostId = (round: number) => `host${round}.example.org`;

describe("parsed YAML kept per file", () => {
  it("keeps only the latest parse of a file whose renders never repeat", () => {
    // The code the loads run is compiled and warm before the measure starts.
    const warm = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    for (let round = 100; round < 120; round++) warm.load({ minionId: hostId(round) });
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    const loadHost = (round: number) => loader.load({ minionId: hostId(round) }).data;
    // What the loader holds after 30 hosts: eight parses of host.yml (1,500 mappings each) would be about 3 MB.
    const kept = retainedGrowth(loadHost, 30, 0);
    expect(kept).toBeLessThan(1_200_000);
    const last = loadHost(29);
    expect(getItem(last, "host")).toBe(hostId(29));
    expect((getItem(last, "entries") as PyDict).size).toBe(1500);
  });

  it("still gives every host its own values, and the same values again for a host seen before", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    for (let round = 0; round < 20; round++) {
      expect(getItem(loader.load({ minionId: hostId(round) }).data, "host")).toBe(hostId(round));
    }
    for (const round of [19, 19, 3]) {
      const data = loader.load({ minionId: hostId(round) }).data;
      expect(getItem(data, "host")).toBe(hostId(round));
      expect(getItem(getItem(getItem(data, "entries") as PyDict, "e7") as PyDict, "owner")).toBe(
        hostId(round),
      );
    }
  });
});

describe("a batch whose every host has a templated file of its own", () => {
  // Each host reads a file no other host reads. Its parse and its compiled template are of no use after that host, so
  // the loader keeps those of the last 1,000 files only; what it keeps per host beyond that is the file's text.
  const hosts = 3200;
  const tree: Record<string, string> = {
    "stack.cfg": "common.yml\nminions/{{ minion_id }}.yml\n",
    "common.yml": "ntp:\n  servers: [a, b]\n",
  };
  for (let i = 0; i < hosts; i++) {
    tree[`minions/h${i}.yml`] = [
      `# host h${i}`,
      "id: {{ minion_id }}",
      `packages: [${Array.from({ length: 20 }, (_, k) => `p${i}-${k}`).join(", ")}]`,
      "{% if __grains__.get('osarch') == 'arm64' %}arm: true{% endif %}",
      "",
    ].join("\n");
  }
  const files = createMemoryFileSystem(tree, "/srv/stack");

  it("keeps what it needs for the hosts to come, not a parse and a template per host", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: "/srv/stack", files, values: "exact" });
    const loadHost = (round: number) =>
      loader.load({ minionId: `h${round}`, grains: { osarch: round % 2 ? "arm64" : "amd64" } }).data;
    expect(getItem(loadHost(1), "arm")).toBe(true);
    expect((getItem(loadHost(2), "packages") as unknown[]).length).toBe(20);
    // 2,000 hosts after 1,200 (so that both limits are reached first): each kept parse and template costs several
    // kilobytes, the file's text about one.
    const grown = retainedGrowth(loadHost, 2000, 1200);
    expect(grown).toBeLessThan(2000 * 2500);
  });
});
