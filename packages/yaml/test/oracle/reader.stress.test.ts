// The reader against the real PyYAML: texts holding strings of every character class, and issue 11's multi-line
// flow scalars, loaded by @merge/yaml and by PyYAML (SafeLoader for the `pyyaml` flavour, libyaml with Salt's
// constructor rules for `salt`). Runs whenever python3-yaml is installed, and in CI always (see python.ts).
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadYaml, type YamlFlavor } from "../../src/index.js";
import { multilineCorpus, readerCorpus } from "./corpus.mjs";
import { askPyyaml, type OracleLoader, oracleName, runOracle } from "./python.js";
import { canonLoaded, canonPython, isError } from "./typed.js";

const LOADERS: Record<YamlFlavor, OracleLoader> = { pyyaml: "safe", salt: "salt" };

/** Texts where the two readers disagree: an error on one side only, or different values. */
export function readerMismatches(texts: readonly string[]): Record<YamlFlavor, string[]> {
  const flavors = Object.keys(LOADERS) as YamlFlavor[];
  const answers = askPyyaml(
    flavors.flatMap((flavor) => texts.map((text) => ({ text, loader: LOADERS[flavor] }))),
  );
  const out = { pyyaml: [] as string[], salt: [] as string[] };
  flavors.forEach((flavor, f) => {
    texts.forEach((text, i) => {
      const want = answers[f * texts.length + i];
      let got: unknown;
      try {
        got = canonLoaded(loadYaml(text, { flavor, values: "exact" }));
      } catch (error) {
        if (!isMergeError(error)) throw error;
        got = { $error: error.code };
      }
      const same = isError(want)
        ? isError(got)
        : !isError(got) && JSON.stringify(got) === JSON.stringify(canonPython(want));
      if (!same)
        out[flavor].push(
          `${JSON.stringify(text)}: ours ${JSON.stringify(got)}, PyYAML ${JSON.stringify(want)}`,
        );
    });
  });
  return out;
}

/**
 * Differences left on purpose, each a syntax corner no configuration file uses; every other mismatch fails.
 * - `[?a]`, `{?a: v}`: inside a flow collection PyYAML and libyaml take a `?` before a non-space for a key
 *   indicator (`[?a]` is `[{a: null}]`); here it starts a plain scalar (`?a`), or is refused in the `pyyaml`
 *   flavour.
 * - libyaml refuses some flow collections PyYAML accepts and we accept too: an empty key or value at a bracket
 *   (`[a:]`, `[x :]`, `[? ]`), `??`, a `?` or tab inside a plain key (`{a:?\t~: v}`).
 * - libyaml skips a byte-order mark at the start of any line; both PyYAML and we refuse it there.
 */
export const KNOWN_DIFFERENCES: Record<YamlFlavor, readonly RegExp[]> = {
  pyyaml: [/^"[[{] *\?[^ ]/],
  salt: [
    /^"[[{] *\?[^ ]/,
    /^"\{\?\?/,
    /^"\[[^,\]]*:\]/,
    /^"\[\?(?: |\\n)\]/,
    /^"[[{]a:\?\\t/,
    /\\u2028\\ufeff|\u2028\ufeff/,
  ],
};

function unexpected(flavor: YamlFlavor, mismatches: readonly string[]): string[] {
  return mismatches.filter((m) => !KNOWN_DIFFERENCES[flavor].some((re) => re.test(m)));
}

describe.runIf(runOracle)(`reading agrees with ${oracleName}`, () => {
  const multiline = multilineCorpus();
  const texts = readerCorpus();

  it(`reads ${multiline.length} multi-line flow scalars in block and flow context as PyYAML and Salt do`, () => {
    const mismatches = readerMismatches(multiline);
    expect(unexpected("pyyaml", mismatches.pyyaml).slice(0, 20)).toEqual([]);
    expect(unexpected("salt", mismatches.salt).slice(0, 20)).toEqual([]);
  });

  it("merges `<<` keys as PyYAML and Salt do: written keys win, and in Salt a key merged twice is an error", () => {
    const merges = [
      "base: &b {user: root, mode: 644}\nfile:\n  <<: *b\n  mode: 600\n",
      "a: &a {k: 1}\nb: &b {k: 2}\nc:\n  <<: [*a, *b]\n",
      "a: &a {k: 1}\nb: &b {k: 2, j: 3}\nc:\n  <<: [*a, *b]\n  k: 0\n",
      "<<: {1: merged}\n'1': written\n",
      "<<: {1.0: merged}\n1: written\n",
      "a: &a {x: 1, <<: {x: 0, y: 0}}\nb:\n  <<: *a\n  y: 2\n",
    ];
    const mismatches = readerMismatches(merges);
    expect(mismatches.pyyaml).toEqual([]);
    expect(mismatches.salt).toEqual([]);
  });

  it(`reads ${texts.length} texts holding strings of every character class as PyYAML and Salt do`, () => {
    const mismatches = readerMismatches(texts);
    expect(unexpected("pyyaml", mismatches.pyyaml).slice(0, 20)).toEqual([]);
    expect(unexpected("salt", mismatches.salt).slice(0, 20)).toEqual([]);
  });
});
