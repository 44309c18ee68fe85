import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  binsOf,
  commandsIn,
  copyExtras,
  copyUnit,
  helpTextsOf,
  isDevelopmentFile,
  referencesIn,
  relativeLinks,
  removeExtras,
} from "./pack-extras.mjs";

const scratch = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "merge-pack-extras-test-"));
  scratch.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("referencesIn", () => {
  it("finds docs/ and examples/ paths in prose, code spans and command lines", () => {
    const text = [
      "See `docs/errors.md`, and docs/explain.md.",
      "$ merge stack examples/stack/config.cfg --grains examples/stack/grains.yml",
      "merge docs --plugin ./examples/plugin-keyed-list/dist/index.js a.yml",
      "the whole tree is in `examples/stack/`:",
    ].join("\n");
    expect(referencesIn(text)).toEqual([
      "docs/errors.md",
      "docs/explain.md",
      "examples/stack/config.cfg",
      "examples/stack/grains.yml",
      "examples/plugin-keyed-list/dist/index.js",
      "examples/stack",
    ]);
  });

  it("skips paths that are part of a longer path or a URL, and bare folder names", () => {
    const text =
      "[t](../../docs/templates.md) https://host/docs/x.md mydocs/y.md the docs and examples/ folders";
    expect(referencesIn(text)).toEqual([]);
  });
});

describe("relativeLinks", () => {
  it("gives relative link targets without anchors, and skips URLs and pure anchors", () => {
    const markdown = [
      "[a](../strategies-stack) [b](https://example.org/x) [c](#use) [d](docs/y.md#section)",
      "![logo](./logo.png) [e](mailto:x@example.org)",
      "[ref]: ./z.md",
    ].join("\n");
    expect(relativeLinks(markdown)).toEqual(["../strategies-stack", "docs/y.md", "./logo.png", "./z.md"]);
  });

  it("skips what only looks like a link inside code", () => {
    const markdown = [
      "Logs with `__salt__['log.warning'](text)` and [f](docs/f.md).",
      "```js",
      "onWarning: (w) => log(w), // __salt__['log.warning'](...)",
      "```",
      "[g](../g)",
    ].join("\n");
    expect(relativeLinks(markdown)).toEqual(["docs/f.md", "../g"]);
  });
});

describe("commandsIn", () => {
  it("lists the commands under the Commands: heading up to the next blank line", () => {
    const help =
      "Usage: x\n\nCommands:\n  docs          merge\n  cloud-config  parts\n\nOptions:\n  -h  help\n";
    expect(commandsIn(help)).toEqual(["docs", "cloud-config"]);
  });

  it("gives nothing for a help text without commands", () => {
    expect(commandsIn("Usage: x [options]\n\nOptions:\n  -h, --help  help\n")).toEqual([]);
  });
});

describe("binsOf", () => {
  it("reads both forms of bin", () => {
    expect(binsOf({ name: "@s/tool", bin: "./b.js" })).toEqual([["tool", "./b.js"]]);
    expect(binsOf({ name: "x", bin: { a: "./a.js", b: "./a.js" } })).toEqual([
      ["a", "./a.js"],
      ["b", "./a.js"],
    ]);
    expect(binsOf({ name: "x" })).toEqual([]);
  });
});

describe("copyUnit and isDevelopmentFile", () => {
  it("copies a whole example for any path inside it, and docs file by file", () => {
    expect(copyUnit("examples/stack/config.cfg")).toBe("examples/stack");
    expect(copyUnit("examples/stack")).toBe("examples/stack");
    expect(copyUnit("docs/errors.md")).toBe("docs/errors.md");
  });

  it("tells sources, tests, maps and tool configuration from what ships", () => {
    for (const path of [
      "src/keyed.ts",
      "test/fixtures/a.yml",
      "dist/keyed.test.js",
      "dist/index.js.map",
      "package.json",
      "tsconfig.build.json",
      "vitest.config.ts",
      "node_modules/x/index.js",
      "tsconfig.tsbuildinfo",
    ]) {
      expect(isDevelopmentFile(path), path).toBe(true);
    }
    for (const path of ["dist/index.js", "dist/index.d.ts", "demo/users.yml", "README.md", "config.cfg"]) {
      expect(isDevelopmentFile(path), path).toBe(false);
    }
  });
});

describe("copyExtras and removeExtras", () => {
  const repoFiles = {
    "docs/guide.md": "# guide\n",
    "examples/demo/run.yml": "a: 1\n",
    "examples/demo/src/plugin.ts": "export {};\n",
    "examples/demo/dist/plugin.js": "export {};\n",
    "examples/demo/dist/plugin.test.js": "test\n",
    "examples/demo/package.json": "{}\n",
  };

  it("copies what the README names, leaves out sources and tests, and removes exactly the copies afterwards", () => {
    const repo = tree({
      ...repoFiles,
      "packages/p/package.json": JSON.stringify({ name: "@s/p", version: "1.0.0" }),
      "packages/p/README.md": "Read `docs/guide.md`; run `examples/demo/run.yml`.\n",
      "packages/p/docs/own.md": "the package's own\n",
    });
    const pkg = join(repo, "packages/p");
    expect(copyExtras(pkg, repo)).toEqual(["docs/guide.md", "examples/demo"]);
    expect(readFileSync(join(pkg, "docs/guide.md"), "utf8")).toBe("# guide\n");
    expect(existsSync(join(pkg, "examples/demo/run.yml"))).toBe(true);
    expect(existsSync(join(pkg, "examples/demo/dist/plugin.js"))).toBe(true);
    expect(existsSync(join(pkg, "examples/demo/src"))).toBe(false);
    expect(existsSync(join(pkg, "examples/demo/dist/plugin.test.js"))).toBe(false);
    expect(existsSync(join(pkg, "examples/demo/package.json"))).toBe(false);

    removeExtras(pkg);
    expect(existsSync(join(pkg, "docs/guide.md"))).toBe(false);
    expect(existsSync(join(pkg, "examples"))).toBe(false);
    expect(readFileSync(join(pkg, "docs/own.md"), "utf8")).toBe("the package's own\n");
    expect(existsSync(join(pkg, ".pack-extras.json"))).toBe(false);
  });

  it("fails, naming the path, when the README names something the repository does not have", () => {
    const repo = tree({
      ...repoFiles,
      "packages/p/package.json": JSON.stringify({ name: "@s/p", version: "1.0.0" }),
      "packages/p/README.md": "See `docs/missing.md`.\n",
    });
    expect(() => copyExtras(join(repo, "packages/p"), repo)).toThrow(
      "docs/missing.md is named in the README or --help but is not in the repository",
    );
  });

  it("ships what a bin's --help and its commands' --help name", () => {
    const bin = [
      "const [command] = process.argv.slice(2);",
      'if (command === "--help") console.log("Usage: t\\n\\nCommands:\\n  run  runs\\n\\nSee docs/guide.md");',
      'else console.log("Usage: t run examples/demo/run.yml");',
    ].join("\n");
    const repo = tree({
      ...repoFiles,
      "packages/p/package.json": JSON.stringify({ name: "@s/p", version: "1.0.0", bin: { t: "./bin.mjs" } }),
      "packages/p/bin.mjs": bin,
    });
    const pkg = join(repo, "packages/p");
    const texts = helpTextsOf(pkg, JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")));
    expect(texts).toHaveLength(2);
    expect(copyExtras(pkg, repo)).toEqual(["docs/guide.md", "examples/demo"]);
  });
});
