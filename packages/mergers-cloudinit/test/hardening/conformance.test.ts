// cloud-init's list, dict and str mergers against @merge/plugin-kit's conformance suite: the checks any third-party
// plugin runs. Each is checked with the other two as companions, plain and with the options that send nested
// values back through the root merger.
import { checkPlugin } from "@merge/plugin-kit";
import { describe, expect, it } from "vitest";
import { dictMerger, listMerger, strMerger } from "../../src/index.js";
import { reportCounts, tally } from "../../../../test-kit/tally.js";

reportCounts("@merge/mergers-cloudinit", import.meta.url);

// Sized by work, not time: no wall-clock limit worth the name.
const RUNS = 1000;
// str(append) concatenates strings and list(append) iterates a string's characters, as Python does.
const derivedStrings = true;

describe("checkPlugin on cloud-init's mergers", () => {
  const cases = [
    [
      "list",
      listMerger,
      () => [dictMerger(), strMerger()],
      ["dict()+str()", "dict(recurse_list,recurse_str)+str(append)"],
    ],
    [
      "dict",
      dictMerger,
      () => [listMerger(), strMerger()],
      ["list()+str()", "list(append,recurse_dict)+str(append)"],
    ],
    [
      "str",
      strMerger,
      () => [listMerger(), dictMerger()],
      ["list()+dict()", "list(recurse_str)+dict(recurse_str)"],
    ],
  ] as const;
  for (const [name, plugin, companions, tails] of cases) {
    for (const companionSpec of tails) {
      it(`${name}(...)+${companionSpec} keeps every rule`, () => {
        const report = checkPlugin(plugin(), {
          companions: companions(),
          companionSpec,
          derivedStrings,
          numRuns: RUNS,
        });
        expect(report.checked).toEqual(
          expect.arrayContaining([
            "inputs-unchanged",
            "hostile-keys-as-data",
            "input-values-only",
            "trace-paths",
          ]),
        );
        tally("property", report.cases);
      });
    }
  }
});
