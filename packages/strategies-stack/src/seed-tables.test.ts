import { createRegistry } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createStackAccumulator } from "./accumulator.js";
import { stackMerge } from "./merge.js";
import { stackMerger } from "./plugin.js";

// Every example table of Salt's PillarStack documentation: [title, stack, yaml_data, stack after merge].
const users = () => ({ users: { tom: { uid: 500, roles: ["sysadmin"] }, root: { uid: 0 } } });
const list = () => ({ users: ["tom", "root"] });

const TABLES: readonly [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] =
  [
    [
      "no strategy: merge-last",
      users(),
      { users: { tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
      {
        users: { tom: { uid: 1000, roles: ["sysadmin", "developer"] }, mat: { uid: 1001 }, root: { uid: 0 } },
      },
    ],
    [
      "dict __: merge-last",
      users(),
      { users: { __: "merge-last", tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
      {
        users: { tom: { uid: 1000, roles: ["sysadmin", "developer"] }, mat: { uid: 1001 }, root: { uid: 0 } },
      },
    ],
    [
      "dict __: merge-first",
      users(),
      { users: { __: "merge-first", tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
      {
        users: { tom: { uid: 500, roles: ["developer", "sysadmin"] }, mat: { uid: 1001 }, root: { uid: 0 } },
      },
    ],
    [
      "dict __: remove",
      users(),
      { users: { __: "remove", tom: null, mat: null } },
      { users: { root: { uid: 0 } } },
    ],
    [
      "dict __: overwrite",
      users(),
      { users: { __: "overwrite", tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
      { users: { tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
    ],
    [
      "list __: merge-last",
      list(),
      { users: [{ __: "merge-last" }, "mat"] },
      { users: ["tom", "root", "mat"] },
    ],
    [
      "list __: merge-first",
      list(),
      { users: [{ __: "merge-first" }, "mat"] },
      { users: ["mat", "tom", "root"] },
    ],
    ["list __: remove", list(), { users: [{ __: "remove" }, "mat", "tom"] }, { users: ["root"] }],
    ["list __: overwrite", list(), { users: [{ __: "overwrite" }, "mat"] }, { users: ["mat"] }],
  ];

describe("Salt's PillarStack example tables", () => {
  const merger = createRegistry().register(stackMerger()).resolve("stack()");

  for (const [title, before, data, after] of TABLES) {
    it(`${title}: stackMerge gives Salt's result`, () => {
      expect(stackMerge(before, data)).toEqual(after);
    });

    it(`${title}: the stack() merger from a registry gives Salt's result`, () => {
      expect(merger.merge(before, data)).toEqual(after);
    });

    it(`${title}: the accumulator gives Salt's result`, () => {
      const accumulator = createStackAccumulator({ initial: before });
      accumulator.merge(data);
      expect(accumulator.value).toEqual(after);
    });
  }

  it("keeps Salt's key order: existing keys in place, new keys appended", () => {
    const [, before, data] = TABLES[2]!;
    const merged = stackMerge(before, data) as { users: Record<string, { uid: number }> };
    expect(Object.keys(merged.users)).toEqual(["tom", "root", "mat"]);
    expect(Object.keys(merged.users.tom!)).toEqual(["uid", "roles"]);
  });
});
