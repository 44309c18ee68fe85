// The bugs the PyYAML oracle found, replayed from outputs recorded from the real PyYAML (test/oracle/record.mjs),
// so they stay fixed on machines without Python.
import { readFileSync } from "node:fs";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { type DumpPreset, dumpYaml, loadYaml, type YamlFlavor } from "../../src/index.js";
import { canonLoaded, canonPython, isError } from "./typed.js";

interface Recorded {
  readonly recorded: string;
  readonly load: readonly { text: string; pyyaml: unknown; salt: unknown }[];
  readonly dump: readonly {
    value: string;
    preset: DumpPreset;
    style: "block" | "flow";
    text: string;
    safe: unknown;
    csafe: unknown;
  }[];
}

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/pyyaml-oracle.json", import.meta.url), "utf8"),
) as Recorded;

/** A one-level mapping's entries in a fixed order (the presets sort keys differently). */
function entries(canon: unknown): string {
  const pairs = (canon as { $map?: unknown[] }).$map;
  return pairs === undefined
    ? JSON.stringify(canon)
    : JSON.stringify(pairs.map((p) => JSON.stringify(p)).sort());
}

function loaded(text: string, flavor: YamlFlavor): unknown {
  try {
    return canonLoaded(loadYaml(text, { flavor, values: "exact" }));
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { $error: error.code };
  }
}

describe(`recorded from ${fixture.recorded}`, () => {
  for (const flavor of ["pyyaml", "salt"] as const) {
    it(`reads ${fixture.load.length} texts (multi-line flow scalars, LS/PS/NEL breaks, flow keys, tabs, base 60) as the ${flavor} flavour's real loader`, () => {
      const failures: string[] = [];
      for (const row of fixture.load) {
        const want = row[flavor];
        const got = loaded(row.text, flavor);
        const same = isError(want) ? isError(got) : JSON.stringify(got) === JSON.stringify(canonPython(want));
        if (!same)
          failures.push(`${JSON.stringify(row.text).slice(0, 200)} → ${JSON.stringify(got).slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it(`writes ${fixture.dump.length} documents of issue 17's characters that PyYAML and libyaml read back unchanged`, () => {
    const failures: string[] = [];
    for (const row of fixture.dump) {
      const value = new Map([
        ["k", row.value],
        [row.value, "v"],
      ]);
      const text = dumpYaml(Object.fromEntries(value), { preset: row.preset, style: row.style, trim: false });
      const want = entries(canonLoaded(value));
      const where = `${row.preset}/${row.style} ${JSON.stringify(row.value)}`;
      if (text !== row.text)
        failures.push(`${where}: writes ${JSON.stringify(text)}, recorded ${JSON.stringify(row.text)}`);
      if (entries(canonPython(row.safe)) !== want)
        failures.push(`${where}: SafeLoader read ${JSON.stringify(row.safe)}`);
      if (entries(canonPython(row.csafe)) !== want)
        failures.push(`${where}: CSafeLoader read ${JSON.stringify(row.csafe)}`);
      expect(entries(canonLoaded(loadYaml(text, { values: "exact" })))).toBe(want);
    }
    expect(failures).toEqual([]);
  });
});
