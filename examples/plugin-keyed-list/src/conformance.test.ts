// keyed(...) against @merge/plugin-kit's conformance suite, as a third-party plugin runs it: with stack() for the
// mappings it hands back to the root merger, and samples of lists whose items share key values.
import { checkPlugin, fc, sampleScalars } from "@merge/plugin-kit";
import { stackMerger } from "@merge/strategies-stack";
import { expect, it } from "vitest";
import { keyedList } from "./index.js";

const item = fc.record(
  {
    name: fc.constantFrom("web", "db", "__proto__", "constructor"),
    id: fc.constantFrom(1, "1", 2),
    port: sampleScalars(),
    tags: fc.array(fc.constantFrom("a", "b"), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const users = fc.oneof(
  fc.array(item, { maxLength: 4 }),
  fc.record({ users: fc.array(item, { maxLength: 3 }) }),
);

it("keeps every rule of checkPlugin, with each option and free key field", () => {
  const report = checkPlugin(keyedList(), {
    companions: [stackMerger()],
    samples: users,
    freeValues: ["name", "id", "constructor", "__proto__"],
  });
  expect(report.checked).toContain("hostile-keys-as-data");
  expect(report.cases).toBeGreaterThan(0);
});
