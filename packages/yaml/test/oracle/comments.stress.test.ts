// Comments written by `dumpYaml`'s `comment` and `header` options (what `merge --explain` prints) against the real
// PyYAML: a document with a comment on every value, whatever characters the comments and the values hold, must read
// back exactly as the same document without comments, in PyYAML's SafeLoader, in libyaml and in @merge/yaml.
import { describe, expect, it } from "vitest";
import { dumpYaml, loadYaml } from "../../src/index.js";
import { scalarCorpus } from "./corpus.mjs";
import { askPyyaml, oracleName, runOracle } from "./python.js";
import { canonLoaded, canonPython, isError } from "./typed.js";

/** Values of every shape a comment can sit on: block mappings and lists, empty ones, scalars, a block scalar. */
function shapes(s: string): unknown {
  return new Map<unknown, unknown>([
    [s, s],
    ["list", [s, new Map([[s, [s, []]]]), [s, s], new Map()]],
    ["nested", new Map([["k", new Map([[s, s]])]])],
    ["binary", new Uint8Array([0, 1, 2])],
    [8080, 1.5],
    [`${s}${"x".repeat(130)}`, s],
  ]);
}

describe.runIf(runOracle)(`comments written by the emitter are comments to ${oracleName}`, () => {
  const strings = scalarCorpus(20261210, 300);

  it(`keeps ${strings.length} documents of every character class unchanged with a comment on every value`, () => {
    const cases: { plain: string; commented: string; where: string }[] = [];
    strings.forEach((s, i) => {
      const value = shapes(s);
      for (const preset of ["readable", "cloud-init", "pyyaml"] as const) {
        cases.push({
          plain: dumpYaml(value, { preset }),
          // The comment text is the corpus string too: line breaks, controls and BOMs must not escape the comment.
          commented: dumpYaml(value, {
            preset,
            header: [s, `header ${i}`],
            comment: (path) => `${s} at ${path.length}`,
          }),
          where: `${preset} #${i}`,
        });
      }
    });
    const answers = askPyyaml(
      (["safe", "csafe"] as const).flatMap((loader) =>
        cases.flatMap(({ plain, commented }) => [
          { text: plain, loader },
          { text: commented, loader },
        ]),
      ),
    );
    const failures: string[] = [];
    const half = cases.length * 2;
    cases.forEach(({ plain, commented, where }, i) => {
      for (const [loader, offset] of [
        ["safe", 0],
        ["csafe", half],
      ] as const) {
        const want = answers[offset + 2 * i];
        const got = answers[offset + 2 * i + 1];
        if (isError(want) || JSON.stringify(canonPython(got)) !== JSON.stringify(canonPython(want))) {
          failures.push(`${loader} ${where}: ${JSON.stringify(commented)}`);
        }
      }
      const ours = (text: string) => JSON.stringify(canonLoaded(loadYaml(text, { values: "exact" })));
      if (ours(commented) !== ours(plain)) failures.push(`ours ${where}: ${JSON.stringify(commented)}`);
    });
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
