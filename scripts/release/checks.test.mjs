import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  compatibilityProblems,
  filesUnder,
  licenseProblems,
  minimumNode,
  nextPatch,
  referenceProblems,
  releasedWith,
  unpublishableSpecifiers,
  unshippableFiles,
} from "./checks.mjs";

const scratch = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "merge-checks-test-"));
  scratch.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("releasedWith", () => {
  const manifests = [
    { name: "core" },
    { name: "plugin", peerDependencies: { core: "^0.1.0" }, devDependencies: { core: "workspace:*" } },
    { name: "loader", dependencies: { plugin: "workspace:^" } },
    { name: "cli", dependencies: { loader: "workspace:^" } },
    { name: "tool", devDependencies: { plugin: "workspace:*" } },
    { name: "other" },
  ];

  it("takes the package and everything that depends on it at run time, transitively", () => {
    expect([...releasedWith("plugin", manifests)].sort()).toEqual(["cli", "loader", "plugin"]);
  });

  it("counts peer dependents, and not packages that only develop against it", () => {
    expect([...releasedWith("core", manifests)].sort()).toEqual(["cli", "core", "loader", "plugin"]);
  });
});

describe("small helpers", () => {
  it("nextPatch and minimumNode", () => {
    expect(nextPatch("0.1.9")).toBe("0.1.10");
    expect(minimumNode(">=20.19.0")).toBe("20.19");
    expect(minimumNode(">=22")).toBeUndefined();
    expect(minimumNode("^20.19.0")).toBeUndefined();
  });

  it("flags workspace, link and file specifiers", () => {
    const manifest = {
      dependencies: { a: "workspace:^", b: "^1.0.0" },
      devDependencies: { c: "link:../c" },
      peerDependencies: { d: "file:../d" },
    };
    expect(unpublishableSpecifiers(manifest)).toEqual([
      'dependencies.a is "workspace:^"',
      'peerDependencies.d is "file:../d"',
      'devDependencies.c is "link:../c"',
    ]);
  });

  it("finds shipped tests, sources and maps, but keeps package.json files", () => {
    const files = [
      "LICENSE",
      "dist/a.js",
      "dist/a.test.js",
      "src/a.ts",
      "package.json",
      "examples/x/package.json",
    ];
    expect(unshippableFiles(files)).toEqual(["dist/a.test.js", "src/a.ts"]);
  });

  it("lists files without nested node_modules", () => {
    const dir = tree({ "a.txt": "", "dist/b.js": "", "node_modules/c/index.js": "" });
    expect(filesUnder(dir)).toEqual(["a.txt", "dist/b.js"]);
  });
});

describe("compatibilityProblems", () => {
  const manifest = {
    engines: { node: ">=20.19.0" },
    peerDependencies: { "@merge/core": "^0.1.0" },
    dependencies: { "@merge/yaml": "workspace:^", yaml: "^2.0.0" },
  };
  const readme = [
    "ESM, and `require()` from CommonJS, on Node 20.19 or newer.",
    "",
    "Works with: `@merge/core` `^0.1.0` (the peer); `@merge/yaml` comes with it.",
    "",
  ].join("\n");

  it("accepts a README that states the Node minimum, the peer range and the siblings", () => {
    expect(compatibilityProblems(readme, manifest)).toEqual([]);
  });

  it("notices a stale peer range, a missing sibling and a wrong Node version", () => {
    const stale = readme
      .replace("`^0.1.0`", "`^0.0.1`")
      .replace("`@merge/yaml`", "yaml")
      .replace("20.19", "20");
    expect(compatibilityProblems(stale, manifest)).toEqual([
      'README does not say "Node 20.19 or newer"',
      '"Works with:" does not give the peer range of @merge/core as `@merge/core` `^0.1.0`',
      '"Works with:" does not name the dependency @merge/yaml',
    ]);
  });

  it("refuses a require() promise on engines that include Node versions without require(esm)", () => {
    const old = { ...manifest, engines: { node: ">=20.0.0" } };
    expect(compatibilityProblems(readme.replace("20.19", "20.0"), old)).toEqual([
      "README promises require() but engines.node allows Node 20.0, which cannot require() ESM",
    ]);
  });

  it("asks for a Works with: paragraph", () => {
    expect(compatibilityProblems("Node 20.19 or newer.\n", manifest)).toEqual([
      'README has no "Works with:" paragraph naming the versions of its @merge siblings',
    ]);
  });
});

describe("referenceProblems and licenseProblems", () => {
  it("accepts links and paths that resolve inside the package", () => {
    const dir = tree({ "docs/a.md": "", "examples/s/c.cfg": "" });
    const readme = "[a](docs/a.md) and `examples/s/c.cfg`";
    expect(referenceProblems(dir, readme, ["see docs/a.md"])).toEqual([]);
  });

  it("reports links out of the package and named files it lacks, README and --help apart", () => {
    const dir = tree({ "docs/a.md": "" });
    const readme = "[t](../../docs/t.md) [b](docs/b.md) `examples/s/c.cfg`";
    expect(referenceProblems(dir, readme, ["run examples/s/c.cfg"])).toEqual([
      "README links to ../../docs/t.md, outside the package",
      "README links to docs/b.md, which the package does not hold",
      "README names docs/b.md, which the package does not hold",
      "README names examples/s/c.cfg, which the package does not hold",
      "--help names examples/s/c.cfg, which the package does not hold",
    ]);
  });

  it("wants an MIT LICENSE file and an MIT manifest", () => {
    const good = tree({ LICENSE: "MIT License\n\nCopyright ..." });
    expect(licenseProblems(good, { license: "MIT" })).toEqual([]);
    const bad = tree({ LICENSE: "Apache License\n" });
    expect(licenseProblems(bad, { license: "ISC" })).toEqual([
      'package.json license is "ISC"',
      "LICENSE is not the MIT license",
    ]);
    expect(licenseProblems(tree({}), { license: "MIT" })).toEqual(["no LICENSE file"]);
  });
});
