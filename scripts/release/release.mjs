#!/usr/bin/env node
// `pnpm release`: versions every package that has pending changesets (changesets' `version`), commits that as the
// release commit, builds, and publishes every public package whose version is not on the registry yet (changesets'
// `publish`, which also tags each published version). `--dry-run` shows all of it and changes nothing. The README's
// "Releasing" section explains when to use which mode; scripts/release/rehearse.mjs runs it against a local registry.
import { execFile, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const USAGE = `Usage: pnpm release [--dry-run] [--publish-only] [--no-build]

  (no option)     version the packages named by pending changesets (and the packages that depend on them),
                  commit the result, build, publish what is not on the registry yet, and tag it
  --dry-run       print the versions, CHANGELOG entries and packages that a release would publish; change nothing
  --publish-only  publish the current versions that are not on the registry yet (a first release, or finishing a
                  release whose publishing stopped half way); no versioning, no commit
  --no-build      use the packages as they are built now instead of running \`pnpm build\` (the rehearsal does this)

The registry is npm's unless npm_config_registry says otherwise; npm's login (or a token in ~/.npmrc) is used.`;

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs a command; throws with its output when it fails. `capture` returns stdout instead of showing it. */
export function run(command, args, { cwd = ROOT, env = process.env, capture = false } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const output = capture ? `\n${result.stdout}${result.stderr}`.trimEnd() : "";
    throw new Error(`\`${command} ${args.join(" ")}\` failed (exit ${result.status}) in ${cwd}${output}`);
  }
  return capture ? result.stdout : "";
}

/** The workspace's public packages (every package under packages/ that is not private), sorted by folder. */
export function publicPackages(root = ROOT) {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .sort()
    .map((folder) => join(packagesDir, folder))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * The release plan changesets would carry out: `{ changesets, releases }`, releases with `name`, `type`,
 * `oldVersion`, `newVersion` and the ids of the changesets that name the package (none for a package released
 * because something it depends on is). Releases of type `none` are left out.
 */
export async function readPlan(root = ROOT) {
  // The library `changeset status` uses, taken from the installed @changesets/cli so the two always agree.
  const fromCli = createRequire(
    createRequire(join(root, "package.json")).resolve("@changesets/cli/package.json"),
  );
  const module = await import(pathToFileURL(fromCli.resolve("@changesets/get-release-plan")).href);
  const getReleasePlan = module.default.default ?? module.default;
  const plan = await getReleasePlan(root);
  return {
    changesets: plan.changesets,
    releases: plan.releases.filter((release) => release.type !== "none"),
  };
}

function changesetBin(root) {
  return join(root, "node_modules", ".bin", "changeset");
}

const majorOf = (version) => Number(version.split(".")[0]);

/**
 * Releases that would take a 0.x package to 1.0.0 although no changeset asks for a major. changesets gives a
 * major to every package whose peer range a released package leaves (a breaking `@merge/core` minor in 0.x takes
 * each plugin from 0.1.0 to 1.0.0); that is never what a 0.x maintainer means, so `pnpm release` stops there.
 */
export function unaskedMajors(plan) {
  const askedMajor = new Set(
    plan.changesets.flatMap((changeset) =>
      changeset.releases.filter((release) => release.type === "major").map((release) => release.name),
    ),
  );
  return plan.releases.filter(
    (release) =>
      majorOf(release.oldVersion) === 0 && majorOf(release.newVersion) >= 1 && !askedMajor.has(release.name),
  );
}

/** One line per release: `@merge/x 0.1.0 → 0.1.1 (patch; changesets: a, b)`, and why when a dependency decided. */
export function describePlan(plan) {
  if (plan.releases.length === 0) return ["no pending changesets: nothing to version"];
  const order = ["none", "patch", "minor", "major"];
  return plan.releases.map((release) => {
    const asked = plan.changesets
      .flatMap((changeset) => changeset.releases.filter((r) => r.name === release.name).map((r) => r.type))
      .reduce((highest, type) => (order.indexOf(type) > order.indexOf(highest) ? type : highest), "none");
    const why = [
      ...(release.changesets.length > 0 ? [`changesets: ${release.changesets.join(", ")}`] : []),
      ...(asked !== release.type ? ["raised by a package it depends on"] : []),
    ];
    return `${release.name} ${release.oldVersion} → ${release.newVersion} (${release.type}; ${why.join("; ")})`;
  });
}

/** Why `pnpm release` stops at `majors` (from `unaskedMajors`), naming the peers that leave their range. */
export function explainUnaskedMajors(majors, plan, manifests) {
  const next = new Map(plan.releases.map((release) => [release.name, release.newVersion]));
  const causes = new Set();
  for (const release of majors) {
    const manifest = manifests.find((m) => m.name === release.name);
    for (const [peer, range] of Object.entries(manifest?.peerDependencies ?? {})) {
      if (next.has(peer)) causes.add(`${peer} ${next.get(peer)} leaves the peer range ${range}`);
    }
  }
  return [
    `${majors.map((release) => `${release.name} ${release.oldVersion} → ${release.newVersion}`).join(", ")}: ` +
      "no changeset asks for a major.",
    `changesets gives a major to a package when a peer it depends on leaves its range (${[...causes].join("; ")}).`,
    "Keep the change to that peer within the range (a patch in 0.x), or, to release 1.0.0 on purpose, say so in a",
    'changeset ("<package>": major).',
  ];
}

/**
 * Copies the work tree (tracked files and untracked files that are not ignored, as they are on disk) to `dest`;
 * with `built`, also every workspace package's `dist/` folder.
 */
export function copyWorkTree(root, dest, { built = false } = {}) {
  const listed = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    capture: true,
  });
  for (const path of listed.split("\0")) {
    if (path === "" || !existsSync(join(root, path))) continue; // deleted but not yet staged
    mkdirSync(dirname(join(dest, path)), { recursive: true });
    cpSync(join(root, path), join(dest, path), { verbatimSymlinks: true });
  }
  if (!built) return;
  for (const group of ["packages", "examples"]) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const folder of readdirSync(groupDir)) {
      const dist = join(groupDir, folder, "dist");
      if (existsSync(dist)) cpSync(dist, join(dest, group, folder, "dist"), { recursive: true });
    }
  }
}

/** The text of the CHANGELOG section for `version` (from its `## version` heading to the next one). */
export function changelogSection(changelog, version) {
  const start = changelog.indexOf(`\n## ${version}\n`);
  if (start < 0) return undefined;
  const end = changelog.indexOf("\n## ", start + 1);
  return changelog.slice(start + 1, end < 0 ? undefined : end).trimEnd();
}

/**
 * Gives an entry to the CHANGELOG sections changesets leaves empty. A package released only because a peer it
 * accepts was released (a `@merge/core` patch, whose plugins keep their `^0.1.0` peer range) gets a bare
 * `## 0.1.1` heading from changesets, since no range of its changed; this says why it was released.
 * Returns the names of the packages whose CHANGELOG it completed.
 */
export function completeEmptyEntries(root, plan) {
  const next = new Map(plan.releases.map((release) => [release.name, release.newVersion]));
  const completed = [];
  for (const { dir, manifest } of publicPackages(root)) {
    const changelogPath = join(dir, "CHANGELOG.md");
    if (!next.has(manifest.name) || !existsSync(changelogPath)) continue;
    const changelog = readFileSync(changelogPath, "utf8");
    const section = changelogSection(changelog, manifest.version);
    if (section === undefined || section !== `## ${manifest.version}`) continue;
    const peers = Object.entries(manifest.peerDependencies ?? {}).filter(([name]) => next.has(name));
    const because = peers.map(
      ([name, range]) => `\`${name}@${next.get(name)}\` (its peer range \`${range}\` holds)`,
    );
    const line = `- Released with ${because.join(", ") || "the packages it depends on"}; nothing else changed.`;
    const heading = `\n## ${manifest.version}\n`;
    const at = changelog.indexOf(heading) + heading.length;
    writeFileSync(
      changelogPath,
      `${changelog.slice(0, at)}\n### Patch Changes\n\n${line}\n${changelog.slice(at)}`,
    );
    completed.push(manifest.name);
  }
  return completed;
}

/** Whether `name@version` is on the registry: true, false, or undefined when the registry cannot be asked. */
export function isPublished(name, version, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolvePromise) => {
    execFile(
      "npm",
      ["view", `${name}@${version}`, "version", "--json"],
      { cwd, env },
      (error, stdout, stderr) => {
        if (!error) resolvePromise(stdout.trim() !== "");
        else
          resolvePromise(
            /E404|404 Not Found|is not in this registry/.test(stdout + stderr) ? false : undefined,
          );
      },
    );
  });
}

async function dryRun(root, plan) {
  const scratch = mkdtempSync(join(tmpdir(), "merge-release-dry-run-"));
  try {
    copyWorkTree(root, scratch);
    // `changeset version` loads the changelog generator from the workspace's node_modules.
    symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
    if (plan.releases.length > 0) {
      run(changesetBin(root), ["version"], { cwd: scratch, capture: true });
      completeEmptyEntries(scratch, plan);
    }
    const before = new Map(publicPackages(root).map(({ manifest }) => [manifest.name, manifest]));
    for (const release of plan.releases) {
      const pkg = publicPackages(scratch).find(({ manifest }) => manifest.name === release.name);
      if (!pkg) continue; // a private package: versioned, never published
      console.log(`\n${release.name}@${pkg.manifest.version}`);
      const old = before.get(release.name)?.peerDependencies ?? {};
      for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
        if (old[name] !== range) console.log(`  peer range on ${name}: ${old[name]} → ${range}`);
      }
      const changelogPath = join(pkg.dir, "CHANGELOG.md");
      const section = existsSync(changelogPath)
        ? changelogSection(readFileSync(changelogPath, "utf8"), pkg.manifest.version)
        : undefined;
      console.log((section ?? "(no CHANGELOG entry)").replace(/^/gm, "  "));
    }
    console.log("");
    const manifests = publicPackages(scratch).map(({ manifest }) => manifest);
    const answers = await Promise.all(manifests.map((m) => isPublished(m.name, m.version, { cwd: scratch })));
    for (const [index, manifest] of manifests.entries()) {
      const published = answers[index];
      const verdict =
        published === false
          ? "would publish"
          : published
            ? "already published"
            : "cannot ask the registry about";
      console.log(`${verdict} ${manifest.name}@${manifest.version}`);
    }
    console.log("\ndry run: nothing was changed, committed or published");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(args) {
  const unknown = args.filter((arg) => !["--dry-run", "--publish-only", "--no-build"].includes(arg));
  if (args.includes("--help") || args.includes("-h") || unknown.length > 0) {
    console.log(USAGE);
    return unknown.length > 0 ? 2 : 0;
  }
  const dry = args.includes("--dry-run");
  const publishOnly = args.includes("--publish-only");
  const build = !args.includes("--no-build");

  if (!dry && run("git", ["status", "--porcelain"], { capture: true }).trim() !== "") {
    console.error(
      "release: the working tree has changes; commit or stash them first (the release commit holds only",
    );
    console.error("what `changeset version` writes, and what is published is what is committed)");
    return 1;
  }
  const plan = publishOnly ? { changesets: [], releases: [] } : await readPlan();
  for (const line of describePlan(plan)) console.log(line);
  const majors = unaskedMajors(plan);
  if (majors.length > 0) {
    const manifests = publicPackages().map(({ manifest }) => manifest);
    console.error(`release: stopped. ${explainUnaskedMajors(majors, plan, manifests).join("\n  ")}`);
    return 1;
  }
  if (dry) {
    await dryRun(ROOT, plan);
    return 0;
  }
  if (plan.releases.length > 0) {
    run(changesetBin(ROOT), ["version"]);
    completeEmptyEntries(ROOT, plan);
    run("git", ["add", "--all"]);
    const released = plan.releases.map((release) => `${release.name}@${release.newVersion}`);
    run("git", ["commit", "--quiet", "-m", `Release ${released.join(", ")}`]);
  }
  if (build) run("pnpm", ["run", "build"]);
  run(changesetBin(ROOT), ["publish"]);
  console.log("\nrelease: done. Push the release commit and its tags: git push --follow-tags");
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
