import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadYaml } from "./load.js";
import { YAML_READING_RULES } from "./reading-rules.js";
import type { YamlFlavor } from "./scalars.js";
import { encodeYamlValue } from "./stored-value.js";

// What the loader gives for every text of the recorded corpus, by version of the reading rules. When a change to the
// loader moves this digest, raise YAML_READING_RULES and add the new digest under the new number; never change the
// digest of a number already here (stores of parsed documents trust that number).
const DIGESTS: Readonly<Record<number, string>> = {
  1: "53380c0958f3279711089903af5edaf30a747620db2b7a8ede92c6ba10474c22",
  // Flow `[&a:b]`, tabs in directive lines, a repeated `...`, and the error met first (recorded texts added).
  2: "8c6b11f4cf9a06b42736702f89dc777cba4bf9d5cbadef65fb8ade94a3bb72a8",
  // A mapping merging itself, tags split and ended as PyYAML does, `!!value` keys, Salt's `!!python/unicode` on a
  // list read on (recorded texts added).
  3: "989b7cf4f8810f28992fece07b2a28ce7858fb1bd4a73ba540cbb62677bad9cb",
};

interface Recorded {
  readonly text: string;
}

function corpus(): string[] {
  const read = (name: string) =>
    JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), "utf8")) as unknown;
  const load = read("pyyaml-load.json") as Recorded[];
  const oracle = (read("pyyaml-oracle.json") as { load: Recorded[] }).load;
  return [...new Set([...load, ...oracle].map((entry) => entry.text))].sort();
}

/** One line per text and flavour: the stored form of the value read, or the code of the error. */
function outcome(text: string, flavor: YamlFlavor): string {
  try {
    const value = loadYaml(text, { flavor, values: "exact" });
    return encodeYamlValue(value) ?? "unstorable";
  } catch (error) {
    if (isMergeError(error)) return `error ${error.code}`;
    throw error;
  }
}

describe("YAML_READING_RULES", () => {
  it("names the loader's results on the recorded corpus", () => {
    const texts = corpus();
    expect(texts.length).toBeGreaterThan(2000);
    const hash = createHash("sha256");
    for (const text of texts) {
      for (const flavor of ["salt", "pyyaml"] as const)
        hash.update(`${JSON.stringify(text)} ${flavor} ${outcome(text, flavor)}\n`);
    }
    // A failure here means the loader now reads some recorded text differently: raise YAML_READING_RULES.
    expect({ rules: YAML_READING_RULES, digest: hash.digest("hex") }).toEqual({
      rules: YAML_READING_RULES,
      digest: DIGESTS[YAML_READING_RULES],
    });
  });
});
