import { createRegistry } from "@merge/core";
import { stackMerger } from "@merge/strategies-stack";
import { expect, it } from "vitest";
import { keyedList } from "./index.js";

it("does what the README's code example says", () => {
  const merger = createRegistry().use(keyedList(), stackMerger()).resolve("keyed(name)+stack()");
  expect(
    merger.merge(
      { users: [{ name: "deploy", shell: "/bin/sh" }] },
      { users: [{ name: "deploy", shell: "/bin/zsh" }, { name: "backup" }] },
    ),
  ).toEqual({ users: [{ name: "deploy", shell: "/bin/zsh" }, { name: "backup" }] });
});
