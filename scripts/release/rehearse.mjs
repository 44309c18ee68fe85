#!/usr/bin/env node
// The release rehearsal (issue 18): releases every public package to a local registry exactly as `pnpm release`
// would to npm's, then uses the result the way users do. It works on a copy of the work tree in a temporary folder
// (versions are cut and committed there, never in this repository) and needs a built tree and a registry:
// MERGE_REHEARSAL_REGISTRY and MERGE_REHEARSAL_TOKEN, as scripts/verdaccio.sh's verdaccio_start exports them.
//
//   1. publish every public package at its current version (`pnpm release --publish-only`);
//   2. in fresh folders with only that registry configured: `npm install -g @merge/cli`, `npx merge stack` on the
//      PillarStack example, `npx @merge/cli`; each package installed alone, then imported and require()d;
//   3. what each installed package holds: what its README and --help point to, its LICENSE, its compatibility
//      statement, and nothing from tests or sources;
//   4. a patch changeset for @merge/strategies-stack, `pnpm release --dry-run` (changes nothing), `pnpm release`:
//      exactly that package and the packages depending on it get new versions, CHANGELOG entries, tags and
//      publications, and `npm install -g @merge/cli` picks the new versions up;
//   5. how changesets treats @merge/core's peer dependents: a patch releases them with their peer range unchanged
//      and a CHANGELOG entry saying why, and a minor that leaves the range makes `pnpm release` refuse the 1.0.0
//      changesets would give them.
import { execFile, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { binsOf, helpTextsOf } from "./pack-extras.mjs";
import {
  changelogSection,
  completeEmptyEntries,
  copyWorkTree,
  publicPackages,
  ROOT,
  readPlan,
  unaskedMajors,
} from "./release.mjs";
import {
  compatibilityProblems,
  filesUnder,
  licenseProblems,
  nextPatch,
  referenceProblems,
  releasedWith,
  unpublishableSpecifiers,
  unshippableFiles,
} from "./checks.mjs";

const BUMPED = "@merge/strategies-stack";
const CLI = "@merge/cli";

class RehearsalError extends Error {}

function fail(step, problems) {
  throw new RehearsalError(`${step}:\n  ${problems.join("\n  ")}`);
}

const started = Date.now();
function say(text) {
  console.log(`[rehearsal ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}`);
}

/** Runs a command and returns its stdout; throws with stdout and stderr when it exits non-zero. */
function sh(command, args, { cwd, env, allowFailure = false }) {
  const commandStarted = Date.now();
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (process.env.MERGE_REHEARSAL_TRACE) {
    console.log(
      `  ${((Date.now() - commandStarted) / 1000).toFixed(1)} s: ${command} ${args.join(" ").slice(0, 100)}`,
    );
  }
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFailure) {
    throw new RehearsalError(
      `\`${command} ${args.join(" ")}\` exited ${result.status} in ${cwd}\n${result.stdout}${result.stderr}`.trimEnd(),
    );
  }
  return allowFailure ? result : result.stdout;
}

/** `sh` for commands that may run side by side. */
function shAsync(command, args, { cwd, env }) {
  const commandStarted = Date.now();
  return new Promise((resolvePromise, reject) => {
    execFile(
      command,
      args,
      { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (process.env.MERGE_REHEARSAL_TRACE) {
          console.log(
            `  ${((Date.now() - commandStarted) / 1000).toFixed(1)} s: ${command} ${args.join(" ").slice(0, 100)}`,
          );
        }
        if (error) {
          const status = error.code ?? error.signal;
          reject(
            new RehearsalError(
              `\`${command} ${args.join(" ")}\` exited ${status} in ${cwd}\n${stdout}${stderr}`.trimEnd(),
            ),
          );
        } else resolvePromise(stdout);
      },
    );
  });
}

/** The environment of every npm and pnpm command: only the rehearsal registry, and caches inside `work`. */
function isolatedEnv(work, registry, token) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_)/i.test(key)) env[key] = value;
  }
  const npmrc = join(work, "npmrc");
  const host = registry.replace(/^https?:/, "");
  writeFileSync(npmrc, `registry=${registry}\n${host}:_authToken=${token}\n`);
  writeFileSync(join(work, "global-npmrc"), "");
  Object.assign(env, {
    npm_config_userconfig: npmrc,
    npm_config_globalconfig: join(work, "global-npmrc"),
    npm_config_registry: registry,
    npm_config_cache: join(work, "npm-cache"),
    npm_config_prefix: join(work, "global"),
    npm_config_fund: "false",
    npm_config_audit: "false",
    npm_config_update_notifier: "false",
    npm_config_loglevel: "warn",
    NO_COLOR: "1",
    PATH: `${join(work, "global", "bin")}${delimiter}${process.env.PATH}`,
    GIT_AUTHOR_NAME: "release rehearsal",
    GIT_AUTHOR_EMAIL: "rehearsal@merge.invalid",
    GIT_COMMITTER_NAME: "release rehearsal",
    GIT_COMMITTER_EMAIL: "rehearsal@merge.invalid",
  });
  return env;
}

/** The registry's document for a package (every version's manifest, dist-tags), or undefined when it has none. */
async function packument(registry, name) {
  const url = new URL(name.replace("/", "%2f"), registry);
  // One retry: a keep-alive socket may be closed by the server just as a request goes out on it.
  const response = await fetch(url).catch(() => fetch(url));
  if (response.status === 404) return undefined;
  if (!response.ok) throw new RehearsalError(`the registry answered ${response.status} for ${name}`);
  return response.json();
}

/** The versions the registry holds for a package, in the order they were published. */
async function registryVersions(registry, name) {
  return Object.keys((await packument(registry, name))?.versions ?? {});
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A fresh folder with a package.json of its own, so npm installs there and nowhere above it. */
function freshProject(work, name) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, private: true }, null, 2)}\n`);
  return dir;
}

async function exportNamesOfWorkspace(pkg) {
  const entry = pkg.manifest.exports?.["."]?.default ?? pkg.manifest.main;
  const module = await import(pathToFileURL(join(pkg.dir, entry)).href);
  return Object.keys(module).sort();
}

// Step 1 ------------------------------------------------------------------------------------------------------------

function prepareCopy(work, env) {
  const repo = join(work, "repo");
  copyWorkTree(ROOT, repo, { built: true });
  const unbuilt = publicPackages(repo).filter(({ dir }) => !existsSync(join(dir, "dist")));
  if (unbuilt.length > 0)
    fail(
      "prepare",
      unbuilt.map(({ manifest }) => `${manifest.name} is not built: run pnpm build`),
    );
  sh("git", ["init", "--quiet", "--initial-branch=main"], { cwd: repo, env });
  sh("git", ["add", "--all"], { cwd: repo, env });
  sh("git", ["commit", "--quiet", "-m", "rehearsal: the work tree as it is"], { cwd: repo, env });
  // From the store this machine already has; the copy's own node_modules, so nothing links back into the repo.
  sh("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], {
    cwd: repo,
    env: { ...env, CI: "true", npm_config_registry: "https://registry.npmjs.org/" },
  });
  return repo;
}

async function publishCurrentVersions(repo, env, registry) {
  const output = sh("node", ["scripts/release/release.mjs", "--publish-only", "--no-build"], {
    cwd: repo,
    env,
  });
  const problems = [];
  for (const { manifest } of publicPackages(repo)) {
    const versions = await registryVersions(registry, manifest.name);
    if (!sameJson(versions, [manifest.version])) {
      problems.push(
        `${manifest.name}: the registry has ${JSON.stringify(versions)}, not [${manifest.version}]`,
      );
    }
  }
  if (problems.length > 0) fail("step 1, publish the current versions", [...problems, output]);
}

// Step 2 ------------------------------------------------------------------------------------------------------------

async function runStackExample(work, env, label) {
  const dir = join(work, `stack-example-${label}`);
  cpSync(join(ROOT, "examples", "stack"), dir, { recursive: true });
  const args = [
    "stack",
    "config.cfg",
    "--minion-id",
    "test-1-dev",
    "--grains",
    "grains.yml",
    "--pillar",
    "pillar.yml",
  ];
  // `--no`: run the installed `merge`, never fetch a package of that name.
  const viaNpx = sh("npx", ["--no", "merge", ...args, "--format", "json"], { cwd: dir, env });
  const viaAlias = sh("merge-config", [...args, "--format", "json"], { cwd: dir, env });
  const { loadYaml } = await import(pathToFileURL(join(ROOT, "packages", "yaml", "dist", "index.js")).href);
  const expected = loadYaml(readFileSync(join(dir, "expected.yml"), "utf8"), { flavor: "salt" });
  const problems = [];
  if (!isDeepStrictEqual(JSON.parse(viaNpx), JSON.parse(JSON.stringify(expected))))
    problems.push("`npx merge stack` does not give examples/stack/expected.yml");
  if (viaAlias !== viaNpx) problems.push("`merge-config stack` does not give what `merge stack` gives");
  if (problems.length > 0) fail(`step 2, the PillarStack example (${label})`, problems);
}

function installCliGlobally(work, env) {
  const consumer = join(work, "cli-user");
  mkdirSync(consumer, { recursive: true });
  sh("npm", ["install", "--global", CLI], { cwd: consumer, env });
  const version = sh("merge", ["--version"], { cwd: consumer, env }).trim();
  const alias = sh("merge-config", ["--version"], { cwd: consumer, env }).trim();
  if (alias !== version)
    fail("step 2, npm install -g @merge/cli", [`merge-config --version says ${alias}, merge ${version}`]);
  return version;
}

function globalTree(env, cwd) {
  const tree = JSON.parse(sh("npm", ["ls", "--global", "--all", "--json"], { cwd, env }));
  const versions = new Map();
  const walk = (node) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (!versions.has(name)) versions.set(name, new Set());
      versions.get(name).add(child.version);
      walk(child);
    }
  };
  walk(tree);
  return versions;
}

/** What `import` and, where the README promises it, `require()` give for an installed package, against the workspace. */
async function importProblems(pkg, dir, cwd, env) {
  const name = pkg.manifest.name;
  const expected = await exportNamesOfWorkspace(pkg);
  const problems = [];
  const esm = await shAsync(
    "node",
    ["--input-type=module", "-e", `console.log(JSON.stringify(Object.keys(await import("${name}")).sort()))`],
    { cwd, env },
  );
  if (!sameJson(JSON.parse(esm), expected)) {
    problems.push(`${name}: import gives ${esm.trim()}, the workspace ${JSON.stringify(expected)}`);
  }
  if (/`require\(\)`/.test(readFileSync(join(dir, "README.md"), "utf8"))) {
    const keys = `Object.keys(require("${name}")).filter((k) => k !== "module.exports").sort()`;
    const cjs = await shAsync("node", ["-e", `console.log(JSON.stringify(${keys}))`], { cwd, env });
    if (!sameJson(JSON.parse(cjs), expected)) {
      problems.push(`${name}: require() gives ${cjs.trim()}, import ${JSON.stringify(expected)}`);
    }
  }
  return problems;
}

/**
 * Installs each library package alone in a fresh project (all at once: npm's cache is safe to share and the time
 * goes on waiting for the registry) and imports it; packages with a bin are taken from the global install.
 */
async function installEachPackageAlone(work, repo, env) {
  const packages = publicPackages(repo);
  const installed = await Promise.all(
    packages.map(async (pkg) => {
      const { name, version } = pkg.manifest;
      let project = join(work, "global", "lib");
      if (binsOf(pkg.manifest).length === 0) {
        project = freshProject(work, `user-of-${name.replace(/^@merge\//, "")}`);
        await shAsync("npm", ["install", `${name}@${version}`], { cwd: project, env });
      }
      const dir = join(project, "node_modules", ...name.split("/"));
      return { name, dir, problems: await importProblems(pkg, dir, project, env) };
    }),
  );
  const problems = installed.flatMap((entry) => entry.problems);
  if (problems.length > 0) fail("step 2, each package installed alone", problems);
  return installed;
}

// Step 3 ------------------------------------------------------------------------------------------------------------

function checkInstalledPackages(installed) {
  const problems = [];
  for (const { name, dir } of installed) {
    const manifest = readJson(join(dir, "package.json"));
    const readme = existsSync(join(dir, "README.md")) ? readFileSync(join(dir, "README.md"), "utf8") : "";
    const files = filesUnder(dir);
    const found = [
      ...(readme === "" ? ["no README.md"] : []),
      ...licenseProblems(dir, manifest),
      ...referenceProblems(dir, readme, helpTextsOf(dir, manifest)),
      ...compatibilityProblems(readme, manifest),
      ...unpublishableSpecifiers(manifest),
      ...unshippableFiles(files).map((file) => `ships ${file}, which comes from tests, sources or tooling`),
    ];
    problems.push(...found.map((problem) => `${name}: ${problem}`));
  }
  if (problems.length > 0) fail("step 3, what the installed packages hold", problems);
}

// Step 4 ------------------------------------------------------------------------------------------------------------

function snapshot(repo) {
  return new Map(
    publicPackages(repo).map(({ dir, manifest }) => {
      const changelog = join(dir, "CHANGELOG.md");
      return [
        manifest.name,
        {
          version: manifest.version,
          changelog: existsSync(changelog) ? readFileSync(changelog, "utf8") : "",
        },
      ];
    }),
  );
}

function pendingChangesets(repo) {
  const dir = join(repo, ".changeset");
  return readdirSync(dir).filter((name) => name.endsWith(".md") && name !== "README.md");
}

function writeChangeset(repo, id, releases, summary) {
  const front = Object.entries(releases).map(([name, type]) => `"${name}": ${type}`);
  writeFileSync(join(repo, ".changeset", `${id}.md`), `---\n${front.join("\n")}\n---\n\n${summary}\n`);
}

async function releaseAPatch(repo, env, registry) {
  // The pending changesets describe what step 1 published: they are spent.
  for (const name of pendingChangesets(repo)) rmSync(join(repo, ".changeset", name));
  const summary = "Rehearsal: a patch to the stack strategies, released on its own.";
  writeChangeset(repo, "rehearsal-strategies-patch", { [BUMPED]: "patch" }, summary);
  sh("git", ["add", "--all"], { cwd: repo, env });
  sh("git", ["commit", "--quiet", "-m", "rehearsal: a patch changeset for @merge/strategies-stack"], {
    cwd: repo,
    env,
  });

  const before = snapshot(repo);
  const manifests = publicPackages(repo).map(({ manifest }) => manifest);
  const expected = releasedWith(BUMPED, manifests);
  const tagsBefore = sh("git", ["tag", "--list"], { cwd: repo, env });
  const head = sh("git", ["rev-parse", "HEAD"], { cwd: repo, env }).trim();

  // The dry run says what will happen and changes nothing.
  const dry = sh("node", ["scripts/release/release.mjs", "--dry-run"], { cwd: repo, env });
  const problems = [];
  const wouldPublish = [...dry.matchAll(/^would publish (\S+)$/gm)].map((match) => match[1]).sort();
  const expectedPublish = [...expected]
    .map((name) => `${name}@${nextPatch(before.get(name).version)}`)
    .sort();
  if (!sameJson(wouldPublish, expectedPublish)) {
    problems.push(
      `the dry run would publish ${JSON.stringify(wouldPublish)}, not ${JSON.stringify(expectedPublish)}`,
    );
  }
  if (sh("git", ["status", "--porcelain"], { cwd: repo, env }).trim() !== "")
    problems.push("the dry run changed the work tree");
  if (sh("git", ["tag", "--list"], { cwd: repo, env }) !== tagsBefore) problems.push("the dry run made tags");
  if ((await registryVersions(registry, BUMPED)).length !== 1) problems.push("the dry run published");
  if (problems.length > 0) fail("step 4, pnpm release --dry-run", [...problems, dry]);

  const output = sh("node", ["scripts/release/release.mjs", "--no-build"], { cwd: repo, env });
  const after = snapshot(repo);
  const tags = new Set(sh("git", ["tag", "--list"], { cwd: repo, env }).split("\n").filter(Boolean));
  const subject = sh("git", ["log", "-1", "--format=%s"], { cwd: repo, env }).trim();
  if (sh("git", ["rev-parse", "HEAD~1"], { cwd: repo, env }).trim() !== head)
    problems.push("no single release commit");
  if (!subject.startsWith("Release ")) problems.push(`the release commit is "${subject}"`);
  for (const [name, old] of before) {
    const now = after.get(name);
    const document = await packument(registry, name);
    const versions = Object.keys(document?.versions ?? {});
    if (!expected.has(name)) {
      if (now.version !== old.version)
        problems.push(`${name} went ${old.version} → ${now.version}, but depends on nothing released`);
      if (now.changelog !== old.changelog)
        problems.push(`${name}'s CHANGELOG changed, but it was not released`);
      if (!sameJson(versions, [old.version]))
        problems.push(`${name}: the registry has ${JSON.stringify(versions)}`);
      continue;
    }
    const version = nextPatch(old.version);
    if (now.version !== version) problems.push(`${name} is ${now.version}, not ${version}`);
    const section = changelogSection(now.changelog, version);
    if (!section) problems.push(`${name}'s CHANGELOG has no ${version} entry`);
    else if (
      name === BUMPED
        ? !section.includes(summary)
        : !section.includes(`${BUMPED}@${nextPatch(before.get(BUMPED).version)}`)
    ) {
      problems.push(`${name}'s ${version} entry does not say why:\n${section}`);
    }
    if (!sameJson(versions, [old.version, version]))
      problems.push(`${name}: the registry has ${JSON.stringify(versions)}`);
    if (!tags.has(`${name}@${version}`)) problems.push(`no tag ${name}@${version}`);
    const published = document?.versions?.[version] ?? {};
    if (document?.["dist-tags"]?.latest !== version) problems.push(`${name}: latest is not ${version}`);
    for (const field of ["dependencies", "peerDependencies"]) {
      for (const [dep, range] of Object.entries(published[field] ?? {})) {
        if (!expected.has(dep) || field === "peerDependencies") continue;
        const wanted = `^${nextPatch(before.get(dep).version)}`;
        if (range !== wanted) problems.push(`${name}@${version} asks for ${dep} ${range}, not ${wanted}`);
      }
    }
  }
  if (problems.length > 0) fail("step 4, pnpm release of a patch", [...problems, output]);
  return { expected, after };
}

function upgradeCli(work, env, after) {
  const consumer = join(work, "cli-user");
  sh("npm", ["install", "--global", CLI], { cwd: consumer, env });
  const problems = [];
  const version = sh("merge", ["--version"], { cwd: consumer, env }).trim();
  if (version !== after.get(CLI).version)
    problems.push(`merge --version says ${version}, not ${after.get(CLI).version}`);
  // The new CLI brings the patched package with it, if it depends on it (a bundled CLI might not).
  const installed = readJson(join(work, "global", "lib", "node_modules", ...CLI.split("/"), "package.json"));
  const bumped = [...(globalTree(env, consumer).get(BUMPED) ?? [])];
  if (installed.dependencies?.[BUMPED] && !sameJson(bumped, [after.get(BUMPED).version]))
    problems.push(`the global install holds ${BUMPED} ${JSON.stringify(bumped)}`);
  if (problems.length > 0) fail("step 4, npm install -g @merge/cli after the release", problems);
}

// Step 5 ------------------------------------------------------------------------------------------------------------

async function peerDependentsOfCore(repo, env) {
  const problems = [];
  const manifests = publicPackages(repo).map(({ manifest }) => manifest);
  const peers = manifests.filter((manifest) => manifest.peerDependencies?.["@merge/core"]);
  const core = manifests.find((manifest) => manifest.name === "@merge/core");

  writeChangeset(repo, "rehearsal-core-patch", { "@merge/core": "patch" }, "Rehearsal: a patch to core.");
  const patchPlan = await readPlan(repo);
  const expected = releasedWith("@merge/core", manifests);
  const planned = patchPlan.releases.filter((release) => release.newVersion !== release.oldVersion);
  const names = planned
    .map((release) => release.name)
    .filter((name) => manifests.some((m) => m.name === name));
  if (!sameJson(names.sort(), [...expected].sort()))
    problems.push(`a core patch releases ${JSON.stringify(names)}, not ${JSON.stringify([...expected])}`);
  for (const release of planned) {
    if (release.type !== "patch") problems.push(`a core patch gives ${release.name} a ${release.type}`);
  }
  sh(join(repo, "node_modules", ".bin", "changeset"), ["version"], { cwd: repo, env });
  completeEmptyEntries(repo, patchPlan);
  const coreVersion = planned.find((release) => release.name === "@merge/core")?.newVersion;
  for (const { dir, manifest: now } of publicPackages(repo)) {
    const old = peers.find((manifest) => manifest.name === now.name);
    if (!old) continue;
    if (now.peerDependencies["@merge/core"] !== old.peerDependencies["@merge/core"]) {
      problems.push(`a core patch moved ${now.name}'s peer range to ${now.peerDependencies["@merge/core"]}`);
    }
    const section = changelogSection(readFileSync(join(dir, "CHANGELOG.md"), "utf8"), now.version) ?? "";
    if (
      !section.includes(`@merge/core@${coreVersion}`) &&
      !/@merge\/[\w-]+@\d/.test(section.split("\n").slice(1).join("\n"))
    ) {
      problems.push(
        `${now.name}'s ${now.version} CHANGELOG entry does not say why it was released:\n${section}`,
      );
    }
  }
  sh("git", ["reset", "--quiet", "--hard"], { cwd: repo, env });
  sh("git", ["clean", "--quiet", "-fd"], { cwd: repo, env });

  // A minor of a 0.x core leaves the plugins' `^0.y.z` peer range; changesets answers with a major for each of them.
  writeChangeset(
    repo,
    "rehearsal-core-minor",
    { "@merge/core": "minor" },
    "Rehearsal: a breaking change to core.",
  );
  sh("git", ["add", "--all"], { cwd: repo, env });
  sh("git", ["commit", "--quiet", "-m", "rehearsal: a minor changeset for @merge/core"], { cwd: repo, env });
  const refused = unaskedMajors(await readPlan(repo)).map((release) => release.name);
  const zeroPeers = peers
    .filter((manifest) => manifest.version.startsWith("0."))
    .map((manifest) => manifest.name);
  if (core.version.startsWith("0.") && !sameJson(refused.sort(), zeroPeers.sort())) {
    problems.push(
      `for a core minor, pnpm release would refuse ${JSON.stringify(refused)}, not ${JSON.stringify(zeroPeers)}`,
    );
  }
  const result = sh("node", ["scripts/release/release.mjs", "--no-build"], {
    cwd: repo,
    env,
    allowFailure: true,
  });
  if (refused.length > 0 && (result.status === 0 || !/no changeset asks for a major/.test(result.stderr))) {
    problems.push(`pnpm release did not refuse the unasked 1.0.0:\n${result.stdout}${result.stderr}`);
  }
  sh("git", ["reset", "--quiet", "--hard", "HEAD~1"], { cwd: repo, env });
  if (problems.length > 0) fail("step 5, @merge/core's peer dependents", problems);
}

// -----------------------------------------------------------------------------------------------------------------

async function rehearse() {
  const registry = process.env.MERGE_REHEARSAL_REGISTRY;
  const token = process.env.MERGE_REHEARSAL_TOKEN;
  if (!registry || !token) {
    throw new RehearsalError(
      "MERGE_REHEARSAL_REGISTRY and MERGE_REHEARSAL_TOKEN are not set: run `pnpm release:rehearse`, which starts a registry",
    );
  }
  const work = mkdtempSync(join(tmpdir(), "merge-rehearsal-"));
  const cleanUp = () => rmSync(work, { recursive: true, force: true });
  const onSignal = (signal) => {
    cleanUp();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const env = isolatedEnv(work, registry, token);
    say(`registry ${registry}; working in ${work}`);
    const repo = prepareCopy(work, env);
    say(
      `copied and installed the work tree; public packages: ${publicPackages(repo)
        .map((p) => p.manifest.name)
        .join(", ")}`,
    );

    await publishCurrentVersions(repo, env, registry);
    say("1. published every public package at its current version");

    const cliVersion = installCliGlobally(work, env);
    await runStackExample(work, env, "first-release");
    const npxCli = sh("npx", ["--yes", CLI, "--version"], {
      cwd: freshProject(work, "npx-user"),
      env,
    }).trim();
    if (npxCli !== cliVersion)
      fail("step 2, npx @merge/cli", [`npx @merge/cli --version says ${npxCli}, not ${cliVersion}`]);
    const installed = await installEachPackageAlone(work, repo, env);
    say(
      `2. npm install -g ${CLI}@${cliVersion}, npx merge stack, npx ${CLI}; each package installed alone, imported and require()d`,
    );

    checkInstalledPackages(installed);
    say(
      "3. each installed package holds what its README and --help name, its LICENSE and nothing from tests or sources",
    );

    const { expected, after } = await releaseAPatch(repo, env, registry);
    upgradeCli(work, env, after);
    await runStackExample(work, env, "after-the-patch");
    const released = [...expected].map((name) => `${name}@${after.get(name).version}`).join(", ");
    say(`4. a patch to ${BUMPED} released ${released} and nothing else; the CLI upgrade picked it up`);

    await peerDependentsOfCore(repo, env);
    say("5. a core patch keeps peer ranges, its CHANGELOG lines say why; pnpm release stops at a core minor");
    say("rehearsal passed");
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    cleanUp();
  }
}

rehearse().catch((error) => {
  console.error(
    `release rehearsal failed: ${error instanceof RehearsalError ? error.message : (error?.stack ?? error)}`,
  );
  process.exitCode = 1;
});
