// The stack merger against @merge/plugin-kit's conformance suite, with samples that carry PillarStack's `__`
// directives (valid and not) so every strategy is reached, in the pure and the in-place handlers.
import { isPlainObject } from "@merge/core";
import { checkPlugin, fc, sampleValues } from "@merge/plugin-kit";
import { expect, it } from "vitest";
import { STACK_STRATEGIES, stackMerger } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/strategies-stack", import.meta.url);

const directive = fc.constantFrom<unknown>(...STACK_STRATEGIES, "merge-lst", "__proto__", 3, null);
// A directive key on a mapping, or a directive item heading a list.
const withDirectives = fc.tuple(directive, sampleValues({ maxDepth: 3 })).map(([strategy, value]) => {
  if (Array.isArray(value)) return [{ __: strategy }, ...value];
  if (isPlainObject(value))
    return Object.defineProperty({ ...value }, "__", {
      value: strategy,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return value;
});

it("stack(...) keeps every rule of checkPlugin, in-place handlers included", () => {
  const report = checkPlugin(stackMerger(), { samples: withDirectives, numRuns: 1500 });
  expect(report.checked).toContain("in-place-equals-pure");
  tally("property", report.cases);
});
