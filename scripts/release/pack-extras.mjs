#!/usr/bin/env node
// Ships what a package's README and `--help` point to. Packages run it as `prepack` (copy) and `postpack`
// (`--clean`): every `docs/...` file and every `examples/<name>` folder that the README or the help of one of the
// package's bins names is copied from the repository into the package folder, so that the tarball holds it at the
// same relative path; the copies are removed again after packing. The release rehearsal checks the installed
// result with the same reference rules (checks.mjs beside it).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository folders whose paths a README or a help text may name as shipped material. */
export const SHIPPED_FOLDERS = ["docs", "examples"];

/** Where the copies made by `prepack` are listed, so `postpack` removes exactly those. */
const MANIFEST = ".pack-extras.json";

// A path such as `docs/errors.md`, `examples/stack/` or `./examples/plugin-keyed-list/dist/index.js`, not preceded
// by a character that would make it part of a longer path or a URL (`../../docs/x.md`, `https://host/docs/x.md`).
const referencePattern = new RegExp(
  `(?<![\\w./-])(?:\\./)?((?:${SHIPPED_FOLDERS.join("|")})/[\\w.@/-]*)`,
  "g",
);

/**
 * The repository paths a text names (`docs/x.md`, `examples/stack/config.cfg`), normalised, without a trailing
 * slash or sentence punctuation, in first-seen order.
 */
export function referencesIn(text) {
  const found = new Set();
  for (const match of text.matchAll(referencePattern)) {
    const path = match[1].replace(/[.,:;]+$/, "").replace(/\/+$/, "");
    if (path.includes("/")) found.add(path);
  }
  return [...found];
}

/**
 * The targets of a Markdown text's relative links (`[x](../y.md)`), anchors removed; URLs, anchors and anything in
 * code (fenced blocks, inline spans) skipped.
 */
export function relativeLinks(markdown) {
  const targets = new Set();
  // Code is not a link: `f['k'](x)` in a fenced block or an inline span only looks like one.
  const prose = markdown
    .replace(/^(\s*)(```|~~~)[^\n]*\n[\s\S]*?^\s*\2[^\n]*$/gm, "")
    .replace(/`[^`\n]*`/g, "");
  const linkPattern =
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;
  for (const match of prose.matchAll(linkPattern)) {
    const target = (match[1] ?? match[2]).split("#")[0];
    if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
    targets.add(decodeURI(target));
  }
  return [...targets];
}

/** The command names listed under a help text's `Commands:` heading (two-space indent, name, two spaces). */
export function commandsIn(helpText) {
  const lines = helpText.split("\n");
  const start = lines.findIndex((line) => /^commands:\s*$/i.test(line.trim()));
  if (start < 0) return [];
  const commands = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}([a-z][\w-]*)(?: {2,}|$)/.exec(line);
    if (!match) break;
    commands.push(match[1]);
  }
  return commands;
}

/** A package's bins as `[name, path relative to the package]` pairs. */
export function binsOf(manifest) {
  if (typeof manifest.bin === "string") return [[manifest.name.replace(/^@[^/]+\//, ""), manifest.bin]];
  return Object.entries(manifest.bin ?? {});
}

/**
 * The help texts of a package's bins: each bin's `--help` and, for every command it lists, `<command> --help`.
 * Bins that point to the same file are asked once.
 */
export function helpTextsOf(packageDir, manifest) {
  const texts = [];
  const asked = new Set();
  const run = (binPath, args) => {
    const result = spawnSync(process.execPath, [binPath, ...args], {
      cwd: packageDir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    if (result.status !== 0) {
      throw new Error(
        `${manifest.name}: \`${args.join(" ")}\` of ${binPath} exited ${result.status}: ${result.stderr}`,
      );
    }
    return result.stdout;
  };
  for (const [, binPath] of binsOf(manifest)) {
    const file = resolve(packageDir, binPath);
    if (asked.has(file)) continue;
    asked.add(file);
    const main = run(file, ["--help"]);
    texts.push(main);
    for (const command of commandsIn(main)) texts.push(run(file, [command, "--help"]));
  }
  return texts;
}

/** Every repository path the package's README and help texts name. */
export function packageReferences(packageDir, manifest) {
  const readmePath = join(packageDir, "README.md");
  const readme = existsSync(readmePath) ? readFileSync(readmePath, "utf8") : "";
  const texts = [readme, ...helpTextsOf(packageDir, manifest)];
  return [...new Set(texts.flatMap(referencesIn))];
}

/**
 * What to copy for a reference: a `docs/` path as it is; for `examples/<name>/...` the whole `examples/<name>`
 * folder, since an example runs only with its siblings (a stack config needs the files it lists).
 */
export function copyUnit(reference) {
  const parts = reference.split("/");
  return parts[0] === "examples" ? parts.slice(0, 2).join("/") : reference;
}

/** Files of an example folder that are not shipped: sources, tests, build and tool configuration, installs. */
export function isDevelopmentFile(relativePath) {
  const parts = relativePath.split(/[\\/]/);
  const name = parts[parts.length - 1];
  if (parts.some((part) => DEVELOPMENT_FOLDERS.has(part))) return true;
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(name) || /\.map$/.test(name) || name.endsWith(".tsbuildinfo"))
    return true;
  if (/^(tsconfig.*\.json|vitest\.config\.[cm]?[jt]s|package\.json|\.gitignore|\.npmignore)$/.test(name))
    return true;
  return /\.[cm]?tsx?$/.test(name) && !/\.d\.[cm]?ts$/.test(name);
}

const DEVELOPMENT_FOLDERS = new Set([
  "node_modules",
  "src",
  "test",
  "tests",
  "__tests__",
  "coverage",
  ".turbo",
]);

function insidePackage(packageDir, path) {
  const rel = relative(packageDir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** Removes what `copyExtras` copied into the package (listed in its manifest file), and nothing else. */
export function removeExtras(packageDir) {
  const manifestPath = join(packageDir, MANIFEST);
  if (!existsSync(manifestPath)) return;
  const copied = JSON.parse(readFileSync(manifestPath, "utf8"));
  for (const path of copied) {
    const target = resolve(packageDir, path);
    if (insidePackage(packageDir, target)) rmSync(target, { recursive: true, force: true });
  }
  // Folders the copies created and left empty (docs/, examples/).
  for (const folder of SHIPPED_FOLDERS) {
    const path = join(packageDir, folder);
    try {
      rmdirSync(path);
    } catch {
      // not there, or not empty: it holds the package's own files
    }
  }
  rmSync(manifestPath, { force: true });
}

/** Copies what the package's README and help name from the repository root; returns the copied paths. */
export function copyExtras(packageDir, repoRoot) {
  removeExtras(packageDir);
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  const units = [...new Set(packageReferences(packageDir, manifest).map(copyUnit))];
  const copied = [];
  const problems = [];
  for (const unit of units) {
    const target = join(packageDir, unit);
    if (existsSync(target)) continue; // the package has it itself
    const source = join(repoRoot, unit);
    if (!existsSync(source)) {
      problems.push(`${unit} is named in the README or --help but is not in the repository`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    cpSync(source, target, {
      recursive: true,
      filter: (from) => !isDevelopmentFile(relative(source, from)),
    });
    copied.push(normalize(unit).split(sep).join("/"));
  }
  writeFileSync(join(packageDir, MANIFEST), `${JSON.stringify(copied, null, 2)}\n`);
  if (problems.length > 0) throw new Error(`${manifest.name}:\n  ${problems.join("\n  ")}`);
  return copied;
}

function main(args) {
  const packageDir = process.cwd();
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  if (args.includes("--clean")) {
    removeExtras(packageDir);
    return;
  }
  if (!statSync(join(packageDir, "package.json")).isFile()) throw new Error("run from a package folder");
  const copied = copyExtras(packageDir, repoRoot);
  if (copied.length > 0) console.error(`pack-extras: ${copied.join(", ")}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`pack-extras: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
