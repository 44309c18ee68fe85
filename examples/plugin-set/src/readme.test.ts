import { createRegistry } from "@merge/core";
import { stackMerger } from "@merge/strategies-stack";
import { expect, it } from "vitest";
import { setMerger } from "./index.js";

it("does what the README's code example says", () => {
  const merger = createRegistry([setMerger(), stackMerger()]).resolve("set()+stack()");
  expect(merger.merge({ packages: ["curl", "git"] }, { packages: ["git", "rsync"] })).toEqual({
    packages: ["curl", "git", "rsync"],
  });
});

it("keeps the README's misspelt spec a compile-time error", () => {
  const registry = createRegistry([setMerger(), stackMerger()]);
  // @ts-expect-error: "lats" is not an option of set
  expect(() => registry.resolve("set(lats)+stack()")).toThrow(
    expect.objectContaining({ code: "UNKNOWN_OPTION" }),
  );
});
