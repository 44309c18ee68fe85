// The emitter against the real PyYAML: every string of the corpus, written by every preset as a value and as a
// key, in block and in flow style, must read back as the same string in PyYAML (pure-Python SafeLoader, what
// cloud-init's yaml.safe_load uses) and in libyaml (CSafeLoader, what Salt reads with), and in @merge/yaml itself.
import { describe, expect, it } from "vitest";
import { type DumpPreset, dumpYaml, loadYaml } from "../../src/index.js";
import { scalarCorpus } from "./corpus.mjs";
import { askPyyaml, type OracleLoader, oracleName, runOracle } from "./python.js";
import { canonLoaded, canonPython } from "./typed.js";

export const PRESETS: readonly DumpPreset[] = ["pyyaml", "cloud-init", "salt", "readable"];
export const STYLES = ["block", "flow"] as const;

/** The documents each string is written in: alone (the root), and as key and value at several depths. */
export function documentsOf(s: string): unknown[] {
  return [s, [new Map([[s, s]]), new Map([["k", [s, new Map([[s, [s]]])]]])]];
}

export interface Written {
  readonly text: string;
  readonly value: unknown;
  readonly where: string;
}

/** Every text the emitter writes for these strings, once each. */
export function writtenTexts(strings: readonly string[]): Written[] {
  const seen = new Map<string, Written>();
  for (const s of strings) {
    for (const preset of PRESETS) {
      for (const style of STYLES) {
        documentsOf(s).forEach((value, d) => {
          // Salt's filter strips its output with str.strip(), which also takes Unicode white space off the first and
          // last scalar (as Salt does); what is compared here is the emitter's text before that.
          const text = dumpYaml(value, { preset, style, trim: false });
          if (!seen.has(text))
            seen.set(text, { text, value, where: `${preset}/${style}/${d === 0 ? "root" : "nested"}` });
        });
      }
    }
  }
  return [...seen.values()];
}

const LOADERS: readonly OracleLoader[] = ["safe", "csafe"];

/** Texts that do not read back as the value written, per loader. */
export function roundTripFailures(written: readonly Written[]): Record<OracleLoader | "ours", string[]> {
  const answers = askPyyaml(LOADERS.flatMap((loader) => written.map(({ text }) => ({ text, loader }))));
  const out: Record<string, string[]> = { safe: [], csafe: [], ours: [] };
  written.forEach(({ text, value, where }, i) => {
    const want = JSON.stringify(canonLoaded(value));
    LOADERS.forEach((loader, l) => {
      const got = JSON.stringify(canonPython(answers[l * written.length + i]));
      if (got !== want) out[loader]!.push(`${where} ${JSON.stringify(text)} → ${got}`);
    });
    let ours: string;
    try {
      ours = JSON.stringify(canonLoaded(loadYaml(text, { values: "exact" })));
    } catch (error) {
      ours = String(error);
    }
    if (ours !== want) out.ours!.push(`${where} ${JSON.stringify(text)} → ${ours}`);
  });
  return out as Record<OracleLoader | "ours", string[]>;
}

/** Integers around JavaScript's and Python's limits (2^53, 4,300 decimal digits), floats and other scalars. */
const OTHER_VALUES: unknown[] = [
  0,
  -1,
  2 ** 53 - 1,
  2n ** 53n,
  -(2n ** 64n),
  10n ** 4299n,
  10n ** 4300n,
  -(60n ** 3000n),
  1.5,
  -0.25,
  1e300,
  5e-324,
  Number.POSITIVE_INFINITY,
  Number.NaN,
  true,
  null,
];

describe.runIf(runOracle)(`what the emitter writes reads back identically in ${oracleName}`, () => {
  it(`writes ${OTHER_VALUES.length} numbers and other scalars in every preset that PyYAML reads back unchanged`, () => {
    const written: Written[] = [];
    for (const preset of PRESETS) {
      for (const style of STYLES) {
        const value = [OTHER_VALUES, new Map([["k", OTHER_VALUES]])];
        written.push({
          text: dumpYaml(value, { preset, style, trim: false }),
          value,
          where: `${preset}/${style}`,
        });
      }
    }
    const failures = roundTripFailures(written);
    expect(failures.safe).toEqual([]);
    expect(failures.csafe).toEqual([]);
    expect(failures.ours).toEqual([]);
  });

  const strings = scalarCorpus();
  const written = writtenTexts(strings);

  it(`writes ${strings.length} strings (${written.length} distinct documents) that PyYAML and libyaml read back unchanged`, () => {
    const failures = roundTripFailures(written);
    expect(failures.safe.slice(0, 20)).toEqual([]);
    expect(failures.csafe.slice(0, 20)).toEqual([]);
    expect(failures.ours.slice(0, 20)).toEqual([]);
  });
});
