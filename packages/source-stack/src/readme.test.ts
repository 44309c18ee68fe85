import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { loadStack } from "./index.js";

// Keeps the "Use" section of README.md true (run from the repository root there).
it("gives the files and data shown in the README", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const { data, files, warnings } = loadStack({
    config: "examples/stack/config.cfg",
    cwd: root,
    minionId: "test-1-dev",
    grains: { osarch: "amd64", oscodename: "jessie" },
    pillar: { roles: ["db"] },
  });
  expect(files).toEqual([
    "examples/stack/core.yml",
    "examples/stack/common/xxx.yml",
    "examples/stack/common/yyy.yml",
    "examples/stack/osarchs/amd64.yml",
    "examples/stack/oscodenames/jessie.yml",
    "examples/stack/roles/db.yml",
    "examples/stack/minions/test-1-dev.yml",
  ]);
  expect(data.users).toEqual({ root: { uid: 0, shell: "/bin/bash" } });
  expect(warnings).toEqual([]);
});
