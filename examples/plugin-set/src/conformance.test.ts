// set(...) against @merge/plugin-kit's conformance suite, as any third-party plugin runs it, with samples of lists
// that repeat values so repeats are really dropped and moved.
import { checkPlugin, fc, sampleScalars } from "@merge/plugin-kit";
import { stackMerger } from "@merge/strategies-stack";
import { expect, it } from "vitest";
import { setMerger } from "./index.js";

const item = fc.oneof(
  fc.constantFrom("a", "b", 1, 1.0, "1", null, true),
  sampleScalars(),
  fc.constantFrom({ a: 1 }, { a: 1, b: [1] }, [1, 2]).map((value) => structuredClone(value)),
);
const lists = fc.oneof(
  fc.array(item, { maxLength: 6 }),
  fc.record({ packages: fc.array(item, { maxLength: 5 }) }),
);

it("keeps every rule of checkPlugin, with each option", () => {
  const report = checkPlugin(setMerger(), { companions: [stackMerger()], samples: lists, numRuns: 500 });
  expect(report.checked).toEqual(expect.arrayContaining(["trace-paths", "input-values-only"]));
});
