import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  changelogSection,
  completeEmptyEntries,
  copyWorkTree,
  describePlan,
  explainUnaskedMajors,
  publicPackages,
  ROOT,
  readPlan,
  unaskedMajors,
} from "./release.mjs";

const scratch = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "merge-release-test-"));
  scratch.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof text === "string" ? text : `${JSON.stringify(text, null, 2)}\n`);
  }
  return root;
}

function git(cwd, ...args) {
  const result = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

const release = (name, type, oldVersion, newVersion, changesets = []) => ({
  name,
  type,
  oldVersion,
  newVersion,
  changesets,
});

describe("unaskedMajors", () => {
  it("catches a 0.x package pushed to 1.0.0 by a dependency", () => {
    const plan = {
      changesets: [{ id: "c", releases: [{ name: "core", type: "minor" }] }],
      releases: [
        release("core", "minor", "0.1.0", "0.2.0", ["c"]),
        release("plugin", "major", "0.1.0", "1.0.0"),
      ],
    };
    expect(unaskedMajors(plan).map((r) => r.name)).toEqual(["plugin"]);
    expect(describePlan(plan)).toEqual([
      "core 0.1.0 → 0.2.0 (minor; changesets: c)",
      "plugin 0.1.0 → 1.0.0 (major; raised by a package it depends on)",
    ]);
    const manifests = [{ name: "plugin", peerDependencies: { core: "^0.1.0" } }];
    expect(explainUnaskedMajors(unaskedMajors(plan), plan, manifests).join(" ")).toContain(
      "core 0.2.0 leaves the peer range ^0.1.0",
    );
  });

  it("lets a major through when a changeset asks for it, or when the package is past 1.0", () => {
    const plan = {
      changesets: [{ id: "m", releases: [{ name: "plugin", type: "major" }] }],
      releases: [
        release("plugin", "major", "0.4.2", "1.0.0", ["m"]),
        release("lib", "major", "1.2.0", "2.0.0"),
      ],
    };
    expect(unaskedMajors(plan)).toEqual([]);
  });

  it("says when there is nothing to version", () => {
    expect(describePlan({ changesets: [], releases: [] })).toEqual([
      "no pending changesets: nothing to version",
    ]);
  });
});

describe("changelogSection", () => {
  it("gives the entry of one version", () => {
    const changelog = "# @merge/x\n\n## 0.1.2\n\n### Patch Changes\n\n- b\n\n## 0.1.1\n\n- a\n";
    expect(changelogSection(changelog, "0.1.2")).toBe("## 0.1.2\n\n### Patch Changes\n\n- b");
    expect(changelogSection(changelog, "0.1.1")).toBe("## 0.1.1\n\n- a");
    expect(changelogSection(changelog, "0.1.0")).toBeUndefined();
  });
});

describe("copyWorkTree", () => {
  it("copies tracked and new files, not ignored ones, and dist folders when asked", () => {
    const root = tree({
      ".gitignore": "dist/\nignored.txt\n",
      "packages/a/package.json": { name: "a" },
      "packages/a/dist/index.js": "built\n",
      "ignored.txt": "no\n",
    });
    git(root, "init", "--quiet");
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "-m", "base");
    writeFileSync(join(root, "new.txt"), "new\n");
    const plain = tree({});
    copyWorkTree(root, plain);
    expect(existsSync(join(plain, "packages/a/package.json"))).toBe(true);
    expect(readFileSync(join(plain, "new.txt"), "utf8")).toBe("new\n");
    expect(existsSync(join(plain, "ignored.txt"))).toBe(false);
    expect(existsSync(join(plain, "packages/a/dist"))).toBe(false);
    const built = tree({});
    copyWorkTree(root, built, { built: true });
    expect(readFileSync(join(built, "packages/a/dist/index.js"), "utf8")).toBe("built\n");
  });
});

// The repository's own .changeset/config.json on a small workspace shaped like ours: a core, a plugin that has it as
// a peer, a loader depending on the plugin, a CLI depending on both, and a private app.
describe("the changesets configuration", () => {
  const config = JSON.parse(readFileSync(join(ROOT, ".changeset/config.json"), "utf8"));

  function workspace() {
    const root = tree({
      "package.json": { name: "root", private: true },
      "pnpm-workspace.yaml": 'packages:\n  - "packages/*"\n  - "apps/*"\n',
      ".changeset/config.json": { ...config, ignore: [] }, // it names private packages this workspace lacks
      "packages/core/package.json": { name: "@merge/core", version: "0.1.0" },
      "packages/plugin/package.json": {
        name: "@merge/plugin",
        version: "0.1.0",
        peerDependencies: { "@merge/core": "^0.1.0" },
        devDependencies: { "@merge/core": "workspace:*" },
      },
      "packages/loader/package.json": {
        name: "@merge/loader",
        version: "0.1.0",
        dependencies: { "@merge/plugin": "workspace:^" },
        peerDependencies: { "@merge/core": "^0.1.0" },
        devDependencies: { "@merge/core": "workspace:*" },
      },
      "packages/cli/package.json": {
        name: "@merge/cli",
        version: "0.1.0",
        dependencies: { "@merge/core": "workspace:^", "@merge/loader": "workspace:^" },
      },
      "apps/site/package.json": {
        name: "@merge/site",
        version: "0.0.0",
        private: true,
        dependencies: { "@merge/cli": "workspace:*" },
      },
    });
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
    git(root, "init", "--quiet", "--initial-branch=main");
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "-m", "base");
    return root;
  }

  function changeset(root, id, releases) {
    const front = Object.entries(releases).map(([name, type]) => `"${name}": ${type}`);
    writeFileSync(join(root, ".changeset", `${id}.md`), `---\n${front.join("\n")}\n---\n\n${id}\n`);
  }

  const planned = (plan) => plan.releases.map((r) => `${r.name} ${r.type} ${r.newVersion}`).sort();

  it("releases a patched package with everything that depends on it, and no private package", async () => {
    const root = workspace();
    changeset(root, "fix-plugin", { "@merge/plugin": "patch" });
    expect(planned(await readPlan(root))).toEqual([
      "@merge/cli patch 0.1.1",
      "@merge/loader patch 0.1.1",
      "@merge/plugin patch 0.1.1",
    ]);
    expect(publicPackages(root).map((p) => p.manifest.name)).toEqual([
      "@merge/cli",
      "@merge/core",
      "@merge/loader",
      "@merge/plugin",
    ]);
  });

  it("keeps the peer range of a core patch's dependents, and raises their dependency ranges", async () => {
    const root = workspace();
    changeset(root, "fix-core", { "@merge/core": "patch" });
    const plan = await readPlan(root);
    expect(planned(plan)).toEqual([
      "@merge/cli patch 0.1.1",
      "@merge/core patch 0.1.1",
      "@merge/loader patch 0.1.1",
      "@merge/plugin patch 0.1.1",
    ]);
    expect(unaskedMajors(plan)).toEqual([]);
    const version = spawnSync(join(ROOT, "node_modules/.bin/changeset"), ["version"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(version.status, version.stderr).toBe(0);
    expect(completeEmptyEntries(root, plan)).toEqual(["@merge/plugin"]);
    const manifest = (name) => JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"));
    expect(manifest("plugin").peerDependencies).toEqual({ "@merge/core": "^0.1.0" });
    expect(manifest("loader").peerDependencies).toEqual({ "@merge/core": "^0.1.0" });
    expect(manifest("cli").dependencies).toEqual({
      "@merge/core": "workspace:^",
      "@merge/loader": "workspace:^",
    });
    expect(manifest("plugin").version).toBe("0.1.1");
    expect(readFileSync(join(root, "packages/plugin/CHANGELOG.md"), "utf8")).toBe(
      "# @merge/plugin\n\n## 0.1.1\n\n### Patch Changes\n\n" +
        "- Released with `@merge/core@0.1.1` (its peer range `^0.1.0` holds); nothing else changed.\n",
    );
    // The loader's dependency (the plugin) was released too: changesets' own entry says so, and is left alone.
    const loader = readFileSync(join(root, "packages/loader/CHANGELOG.md"), "utf8");
    expect(loader).toContain("### Patch Changes\n\n- @merge/plugin@0.1.1\n");
    expect(existsSync(join(root, "apps/site/CHANGELOG.md"))).toBe(false);
  });

  it("gives the peer dependents of a breaking 0.x core a major, which pnpm release refuses", async () => {
    const root = workspace();
    changeset(root, "break-core", { "@merge/core": "minor" });
    const plan = await readPlan(root);
    expect(
      unaskedMajors(plan)
        .map((r) => `${r.name} ${r.newVersion}`)
        .sort(),
    ).toEqual(["@merge/loader 1.0.0", "@merge/plugin 1.0.0"]);
  });
});
