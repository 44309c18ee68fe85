import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { merge } from "./helpers.js";

// The bundle loads a few packages from where the package manager installed them (see README, "How it is built"):
// these run the built command on inputs that need them. NODE_PATH is cleared: pnpm sets it for the scripts it
// runs, and through it Node finds packages a user's shell would not.
describe("the bundled command", () => {
  it("reads a stack file only the full YAML parser reads (anchors, tags): it finds the yaml package", () => {
    const dir = mkdtempSync(join(tmpdir(), "merge-bundle-"));
    writeFileSync(join(dir, "stack.cfg"), "a.yml\n");
    writeFileSync(join(dir, "a.yml"), "x: &a {b: 1}\ny: *a\nz: !!str 5\n");
    const run = merge(["stack", "stack.cfg", "--minion-id", "m1"], {
      cwd: dir,
      env: { NODE_PATH: undefined },
      binary: true,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("x:\n  b: 1\ny:\n  b: 1\nz: '5'\n");
  });

  it("reads a YAML 1.2 document with merge docs (the yaml package's parser)", () => {
    const run = merge(["docs", "-"], {
      input: "a: on\nb: 0755\n",
      env: { NODE_PATH: undefined },
      binary: true,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("a: 'on'\nb: 755\n");
  });
});
