import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

it("runs inside node:test with no runner of its own: a pass passes, a failure fails with the kit's message", () => {
  const run = spawnSync(
    process.execPath,
    ["--test", "--test-reporter=tap", join(fixtures, "node-test.mjs")],
    {
      encoding: "utf8",
    },
  );
  expect(run.status).toBe(1);
  expect(run.stdout).toMatch(/^# pass 1$/m);
  expect(run.stdout).toMatch(/^# fail 1$/m);
  expect(run.stdout).toMatch(/^ok 1 - a plugin that keeps the rules passes$/m);
  expect(run.stdout).toMatch(/^not ok 2 - a plugin that changes its input fails$/m);
  expect(run.stdout).toContain("checkPlugin(bad): inputs-unchanged: the merge changed its base value");
  expect(run.stdout).toContain("PluginCheckError");
});
