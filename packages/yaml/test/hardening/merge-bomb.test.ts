import { describe, expect, it } from "vitest";
import { loadYaml } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";
import { catchMergeError as failure } from "../../../../test-kit/errors.js";

reportCounts("@merge/yaml", import.meta.url);

describe("size and shape", () => {
  it("stops a << merge-key bomb at the node budget", () => {
    let mergeBomb = "m0: &m0 {a: 1, b: 2}\n";
    for (let i = 1; i < 60; i++) mergeBomb += `m${i}: &m${i} {<<: [*m${i - 1}, *m${i - 1}], k${i}: 1}\n`;
    // Salt's loader refuses the repeated merged keys as conflicting IDs before any budget is reached.
    expect(failure(() => loadYaml(mergeBomb, { flavor: "salt" })).code).toBe("YAML_DUPLICATE_KEY");
    // A budget of 10^6 nodes keeps CI quick; the default 10^7 stops the same document too (about 2 s in node).
    const error = failure(() => loadYaml(mergeBomb, { filename: "bomb.yml", maxNodes: 1_000_000 }));
    expect(error.code).toBe("SIZE_LIMIT");
    expect(error.source?.file).toBe("bomb.yml");
    expect(error.source?.line).toBeGreaterThan(1);
    tally("size", 2);
  });

  it("stops a mapping that merges itself again and again at the node budget", () => {
    // Each `<<: *l` merges the entries the mapping holds by then, doubling them, as PyYAML does (it runs out of memory).
    const selfBomb = `l: &l\n  a: 1\n${"  <<: *l\n".repeat(40)}`;
    const error = failure(() => loadYaml(selfBomb, { filename: "self.yml", maxNodes: 1_000_000 }));
    expect(error.code).toBe("SIZE_LIMIT");
    expect(error.source?.file).toBe("self.yml");
    // Salt drops every merged entry, as `a` is written in the mapping.
    expect(loadYaml(selfBomb, { flavor: "salt" })).toEqual({ l: { a: 1 } });
    tally("size", 2);
  });
});
