import { getItem, type PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { oldGenerationGrowth } from "../../../test-kit/young-generation.js";
import { createStackLoader } from "./loader.js";
import { makeTree } from "./test-tree.js";

// The loader keeps the YAML it parsed per file, so that hosts rendering a file to the same text parse it once. A
// template that writes the host's own values renders a new text for every host: after a few renders that never
// repeated, such a file keeps only its latest parse. Eight kept parses would each outlive the young-generation
// collections of the next hosts and reach the old generation.

const root = makeTree({
  "stack.cfg": "common.yml\nhost.yml\n",
  "common.yml": "ntp:\n  servers: [a, b]\n",
  "host.yml": [
    "host: {{ minion_id }}",
    "entries:",
    "{%- for i in range(150) %}",
    "  e{{ i }}: {owner: {{ minion_id }}, n: {{ i }}}",
    "{%- endfor %}",
    "",
  ].join("\n"),
});

const hostId = (round: number) => `host${round}.example.org`;

describe("parsed YAML kept per file", () => {
  it("keeps only the latest parse of a file whose renders never repeat", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    const loadHost = (round: number) => loader.load({ minionId: hostId(round) }).data;
    const first = loadHost(0);
    expect(getItem(first, "host")).toBe(hostId(0));
    expect((getItem(first, "entries") as PyDict).size).toBe(150);
    // A young-generation collection every 4 hosts: a parse kept for 8 hosts would survive two of them.
    const grown = oldGenerationGrowth(loadHost, 1000, 4);
    expect(grown).toBeLessThan(3_000_000);
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
