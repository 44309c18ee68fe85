// The rehearsal's checks on what a release produced, as pure functions of manifests, texts and file lists, so they
// can be tested on their own (checks.test.mjs). Each returns a list of problems, empty when all is well.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, normalize, relative } from "node:path";
import { isDevelopmentFile, referencesIn, relativeLinks } from "./pack-extras.mjs";

export const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"];

/**
 * The names of the packages that must be released with `name`: itself and, transitively, every package that has a
 * released one among its dependencies, peer dependencies or optional dependencies (devDependencies do not count).
 */
export function releasedWith(name, manifests) {
  const released = new Set([name]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const manifest of manifests) {
      if (released.has(manifest.name)) continue;
      const uses = DEPENDENCY_FIELDS.some((field) =>
        Object.keys(manifest[field] ?? {}).some((d) => released.has(d)),
      );
      if (uses) {
        released.add(manifest.name);
        grew = true;
      }
    }
  }
  return released;
}

/** `0.1.0` → `0.1.1`. */
export function nextPatch(version) {
  const [major, minor, patch] = version.split(".").map(Number);
  return `${major}.${minor}.${patch + 1}`;
}

/** Every file under `dir`, as `/`-separated relative paths, without nested node_modules. */
export function filesUnder(dir) {
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      if (name === "node_modules") continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path).split("\\").join("/"));
    }
  };
  walk(dir);
  return files.sort();
}

/** Files of an installed package that come from tests, sources or tooling and should not have shipped. */
export function unshippableFiles(files) {
  return files.filter(
    (file) => isDevelopmentFile(file) && file !== "package.json" && !file.endsWith("/package.json"),
  );
}

/** `>=20.19.0` → `20.19`; undefined for ranges that are not a plain lower bound. */
export function minimumNode(range) {
  const match = /^>=\s*(\d+)\.(\d+)(?:\.\d+)?$/.exec(range?.trim() ?? "");
  return match ? `${match[1]}.${match[2]}` : undefined;
}

/**
 * What the README says about versions, against the manifest: the Node version it names is the minimum of `engines`;
 * a "Works with:" paragraph names every `@merge` dependency, and each `@merge` peer with its exact range; where it
 * promises `require()`, `engines` starts at a Node that has it (20.19).
 */
export function compatibilityProblems(readme, manifest, scope = "@merge/") {
  const problems = [];
  const minimum = minimumNode(manifest.engines?.node);
  if (!minimum) problems.push(`engines.node is ${JSON.stringify(manifest.engines?.node)}, not ">=X.Y.Z"`);
  else if (!readme.includes(`Node ${minimum} or newer`))
    problems.push(`README does not say "Node ${minimum} or newer"`);
  if (/`require\(\)`/.test(readme) && minimum) {
    const [major, minor] = minimum.split(".").map(Number);
    if (major < 20 || (major === 20 && minor < 19)) {
      problems.push(
        `README promises require() but engines.node allows Node ${minimum}, which cannot require() ESM`,
      );
    }
  }
  const paragraph = /^Works with:[\s\S]*?(?:\n\s*\n|(?![\s\S]))/m.exec(readme)?.[0].replace(/\s+/g, " ");
  if (!paragraph) {
    problems.push('README has no "Works with:" paragraph naming the versions of its @merge siblings');
    return problems;
  }
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (name.startsWith(scope) && !paragraph.includes(`\`${name}\` \`${range}\``)) {
      problems.push(`"Works with:" does not give the peer range of ${name} as \`${name}\` \`${range}\``);
    }
  }
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (name.startsWith(scope) && !paragraph.includes(`\`${name}\``)) {
      problems.push(`"Works with:" does not name the dependency ${name}`);
    }
  }
  return problems;
}

/** Dependency specifiers that only make sense inside the workspace (`workspace:`, `link:`, `file:`). */
export function unpublishableSpecifiers(manifest) {
  const problems = [];
  for (const field of [...DEPENDENCY_FIELDS, "devDependencies"]) {
    for (const [name, specifier] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|link|file):/.test(specifier)) problems.push(`${field}.${name} is "${specifier}"`);
    }
  }
  return problems;
}

function inside(dir, path) {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * Whether what the README and the help texts point to is in the installed package at `dir`: relative links must
 * resolve inside it, and every `docs/...` or `examples/...` path they name must exist in it.
 */
export function referenceProblems(dir, readme, helpTexts) {
  const problems = [];
  for (const target of relativeLinks(readme)) {
    const path = normalize(join(dir, target));
    if (!inside(dir, path)) problems.push(`README links to ${target}, outside the package`);
    else if (!existsSync(path)) problems.push(`README links to ${target}, which the package does not hold`);
  }
  const named = [
    ...referencesIn(readme).map((path) => ["README", path]),
    ...helpTexts.flatMap((text) => referencesIn(text).map((path) => ["--help", path])),
  ];
  const seen = new Set();
  for (const [where, path] of named) {
    if (seen.has(`${where} ${path}`)) continue;
    seen.add(`${where} ${path}`);
    if (!existsSync(join(dir, path)))
      problems.push(`${where} names ${path}, which the package does not hold`);
  }
  return problems;
}

/** The license file: present, MIT, and the manifest says MIT. */
export function licenseProblems(dir, manifest) {
  const problems = [];
  if (manifest.license !== "MIT")
    problems.push(`package.json license is ${JSON.stringify(manifest.license)}`);
  const path = join(dir, "LICENSE");
  if (!existsSync(path)) problems.push("no LICENSE file");
  else if (!readFileSync(path, "utf8").startsWith("MIT License"))
    problems.push("LICENSE is not the MIT license");
  return problems;
}
