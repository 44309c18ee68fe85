import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadStack } from "./loader.js";
import { makeTree } from "./test-tree.js";
import { catchMergeError as failure } from "../../../test-kit/errors.js";

// `..` in a config line is resolved by the operating system, after the directory before it, as Python's `glob.glob`
// and `open` resolve it. The expected lists below were checked with CPython 3.11's glob.glob on the same tree.
describe("`..` in stack paths, resolved as the operating system does", () => {
  const root = makeTree({
    "conf/b.yml": "who: [conf]\n",
    "conf/sub/": "",
    "conf/sub2/": "",
    "conf/deep/b.yml": "who: [deep]\n",
    "conf/deep/er/": "",
    "conf/link": { link: "deep/er" },
    "out/b.yml": "who: [outside]\n",
    "out/inner/": "",
    "conf/outlink": { link: "../out/inner" },
  });
  const load = (lines: string) => {
    const config = `conf/${Math.random().toString(36).slice(2)}.cfg`;
    makeTreeFile(root, config, lines);
    return loadStack({ config, cwd: root, minionId: "m" });
  };

  it("finds nothing through a directory that does not exist (Salt: the OS fails on `missing/..`)", () => {
    const result = load("missing/../b.yml\n");
    expect(result.files).toEqual([]);
    expect(result.data).toEqual({});
    expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
  });

  it("goes through a directory that exists", () => {
    const result = load("sub/../b.yml\nsub/./../b.yml\n");
    expect(result.files).toEqual(["conf/sub/../b.yml", "conf/sub/./../b.yml"]);
    expect(result.data).toEqual({ who: ["conf", "conf"] });
  });

  it("applies `..` after each directory a wildcard matched, once per directory, as glob.glob lists them", () => {
    const result = load("[!o]*/../b.yml\n");
    expect(result.files).toEqual([
      "conf/deep/../b.yml",
      "conf/link/../b.yml",
      "conf/sub/../b.yml",
      "conf/sub2/../b.yml",
    ]);
    // link/.. is deep/er/.., which is deep: its b.yml is deep's, not conf's.
    expect(result.data).toEqual({ who: ["conf", "deep", "conf", "conf"] });
  });

  it("leaves a symlinked directory through its target's parent", () => {
    const result = load("link/../b.yml\n");
    expect(result.files).toEqual(["conf/link/../b.yml"]);
    expect(result.data).toEqual({ who: ["deep"] });
  });

  it("refuses a `..` that the operating system resolves to outside the stack directory through a symlink", () => {
    for (const line of ["outlink/../b.yml", "*/../b.yml"]) {
      const error = failure(() => load(`${line}\n`));
      expect(error.code).toBe("STACK_PATH");
      expect(error.message).toContain("outside the stack directory");
    }
    const error = failure(() => load("outlink/../b.yml\n"));
    expect(error.code).toBe("STACK_PATH");
    expect(error.message).toContain("outside the stack directory");
  });

  it("skips a config whose own path goes through a directory that does not exist", () => {
    makeTreeFile(root, "conf/plain.cfg", "b.yml\n");
    const missing = loadStack({ config: "conf/missing/../plain.cfg", cwd: root, minionId: "m" });
    expect(missing.warnings.map((w) => w.code)).toEqual(["STACK_CONFIG_MISSING"]);
    const present = loadStack({ config: "conf/sub/../plain.cfg", cwd: root, minionId: "m" });
    expect(present.data).toEqual({ who: ["conf"] });
  });
});

function makeTreeFile(root: string, relative: string, text: string): void {
  writeFileSync(join(root, relative), text);
}
