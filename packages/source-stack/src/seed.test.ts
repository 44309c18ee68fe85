import { describe, expect, it } from "vitest";
import { loadStack } from "./loader.js";
import { makeTree } from "./test-tree.js";

// The example tables of Salt's PillarStack documentation, written as YAML files and merged by the loader.
const stack = "users:\n  tom:\n    uid: 500\n    roles:\n      - sysadmin\n  root:\n    uid: 0\n";
const listStack = "users:\n  - tom\n  - root\n";
const CASES: [string, string, string, unknown][] = [
  [
    "default",
    stack,
    "users:\n  tom:\n    uid: 1000\n    roles:\n      - developer\n  mat:\n    uid: 1001\n",
    { users: { tom: { uid: 1000, roles: ["sysadmin", "developer"] }, mat: { uid: 1001 }, root: { uid: 0 } } },
  ],
  [
    "merge-first",
    stack,
    "users:\n  __: merge-first\n  tom:\n    uid: 1000\n    roles:\n      - developer\n  mat:\n    uid: 1001\n",
    { users: { tom: { uid: 500, roles: ["developer", "sysadmin"] }, mat: { uid: 1001 }, root: { uid: 0 } } },
  ],
  ["remove", stack, "users:\n  __: remove\n  tom:\n  mat:\n", { users: { root: { uid: 0 } } }],
  [
    "overwrite",
    stack,
    "users:\n  __: overwrite\n  tom:\n    uid: 1000\n    roles:\n      - developer\n  mat:\n    uid: 1001\n",
    { users: { tom: { uid: 1000, roles: ["developer"] }, mat: { uid: 1001 } } },
  ],
  ["list merge-last", listStack, "users:\n  - __: merge-last\n  - mat\n", { users: ["tom", "root", "mat"] }],
  [
    "list merge-first",
    listStack,
    "users:\n  - __: merge-first\n  - mat\n",
    { users: ["mat", "tom", "root"] },
  ],
  ["list remove", listStack, "users:\n  - __: remove\n  - mat\n  - tom\n", { users: ["root"] }],
  ["list overwrite", listStack, "users:\n  - __: overwrite\n  - mat\n", { users: ["mat"] }],
];

describe("the documentation's tables, through YAML files", () => {
  for (const [name, before, data, after] of CASES) {
    it(`${name}`, () => {
      const root = makeTree({
        "stack.cfg": "before.yml\ndata.yml\n",
        "before.yml": before,
        "data.yml": data,
      });
      expect(loadStack({ config: "stack.cfg", cwd: root, minionId: "m" }).data).toEqual(after);
    });
  }
});
