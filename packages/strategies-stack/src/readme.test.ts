import { createRegistry } from "@merge/core";
import { expect, it } from "vitest";
import { stackMerge, stackMerger } from "./index.js";

// Keeps the "Use" section of README.md true.
it("gives the results shown in the README", () => {
  expect(stackMerge({ users: ["tom", "root"] }, { users: [{ __: "merge-first" }, "mat"] })).toEqual({
    users: ["mat", "tom", "root"],
  });
  const merger = createRegistry().register(stackMerger()).resolve("stack()");
  expect(
    merger.merge({ users: { tom: { uid: 500 }, root: { uid: 0 } } }, { users: { __: "remove", tom: null } }),
  ).toEqual({ users: { root: { uid: 0 } } });
});
