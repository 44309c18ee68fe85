import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, merge, PACKAGE_DIR, upperPluginArgs } from "./helpers.js";

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

  // What a package manager links as `merge` and `merge-config`: a CommonJS file that runs the bundle with a compile
  // cache (test/compile-cache.test.ts). Twice: before the cache is written and from it.
  it("runs through the installed entry, bin/merge.cjs, with --plugin too, with and without its compile cache", () => {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ merge: "./bin/merge.cjs", "merge-config": "./bin/merge.cjs" });
    const entry = join(PACKAGE_DIR, "bin", "merge.cjs");
    const cacheHome = mkdtempSync(join(tmpdir(), "merge-bundle-cache-"));
    for (const round of ["fresh", "cached", "no cache"]) {
      const run = (args: readonly string[]) => {
        const result = spawnSync(process.execPath, [entry, ...args], {
          cwd: FIXTURES,
          encoding: "utf8",
          env: {
            ...process.env,
            NO_COLOR: "1",
            XDG_CACHE_HOME: cacheHome,
            MERGE_NO_COMPILE_CACHE: round === "no cache" ? "1" : undefined,
          },
        });
        return { round, status: result.status, stdout: result.stdout, stderr: result.stderr };
      };
      expect(run(["docs", "docs/strings-a.yml", "docs/strings-b.yml"])).toEqual({
        round,
        status: 0,
        stdout: "service:\n  name: apiworker\n", // docs joins strings by default
        stderr: "",
      });
      const plugin = run(upperPluginArgs());
      expect(plugin).toEqual({ round, status: 0, stdout: "service:\n  name: WORKER\n", stderr: "" });
      const failed = run(["docs", "missing.yml"]);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain("missing.yml");
    }
  });
});
