import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MergeError, type MergerPlugin } from "@merge/core";

/**
 * Loads the merger plugins of one `--plugin MODULE`.
 *
 * MODULE is a file path (it starts with `.` or `/`, or ends in `.js`, `.mjs` or `.cjs`) resolved against the working
 * directory, or a package name resolved from the working directory the way `node` would. The module provides
 * its plugins as its default export, else as an export named `plugins`, else `plugin`; the value is one of
 * - a plugin object (`{ name, kinds, options, create }`),
 * - an array of plugin objects,
 * - a function called without arguments (it may be async) that returns one of the above.
 */
export async function loadPluginModule(specifier: string, cwd: string): Promise<MergerPlugin[]> {
  const file = resolveModule(specifier, cwd);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new MergeError(
      "PLUGIN_LOAD",
      `plugin module "${specifier}" failed to load: ${describeError(error)}`,
      {
        source: { file: specifier },
        cause: error,
      },
    );
  }
  const exported = namespace.default ?? namespace.plugins ?? namespace.plugin;
  if (exported === undefined) {
    throw new MergeError(
      "INVALID_PLUGIN",
      `plugin module "${specifier}" exports no plugin: export a plugin, an array of plugins or a function returning them as "default", "plugins" or "plugin"`,
      { source: { file: specifier } },
    );
  }
  let value: unknown = exported;
  if (typeof value === "function") {
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      throw new MergeError(
        "PLUGIN_LOAD",
        `plugin factory of "${specifier}" failed: ${describeError(error)}`,
        {
          source: { file: specifier },
          cause: error,
        },
      );
    }
  }
  const list = Array.isArray(value) ? value : [value];
  list.forEach((plugin, index) => {
    const ok =
      typeof plugin === "object" &&
      plugin !== null &&
      typeof (plugin as MergerPlugin).name === "string" &&
      typeof (plugin as MergerPlugin).create === "function";
    if (!ok) {
      throw new MergeError(
        "INVALID_PLUGIN",
        `plugin module "${specifier}": item ${index + 1} is not a merger plugin (an object with name, kinds, options and create)`,
        { source: { file: specifier } },
      );
    }
  });
  return list as MergerPlugin[];
}

function resolveModule(specifier: string, cwd: string): string {
  const looksLikePath = specifier.startsWith(".") || isAbsolute(specifier) || /\.[cm]?js$/.test(specifier);
  const asPath = resolve(cwd, specifier);
  if (looksLikePath) {
    if (!existsSync(asPath)) {
      throw new MergeError("PLUGIN_NOT_FOUND", `plugin file "${specifier}" does not exist`, {
        source: { file: specifier },
      });
    }
    return asPath;
  }
  try {
    return createRequire(join(cwd, "noop.js")).resolve(specifier);
  } catch (error) {
    // `require.resolve` reads the `require`/`default` export conditions; an ESM-only package may offer `import` only.
    const esm = resolveImportTarget(specifier, cwd);
    if (esm !== undefined) return esm;
    throw new MergeError(
      "PLUGIN_NOT_FOUND",
      `plugin package "${specifier}" is not installed where merge runs (${cwd}); install it or give a file path`,
      { source: { file: specifier }, cause: error },
    );
  }
}

/**
 * Finds `node_modules/<package>` from `cwd` upwards and follows its `exports` (conditions `node`, `import`,
 * `default`) or `main` for the requested subpath, the way `import` would from a module in `cwd`.
 */
function resolveImportTarget(specifier: string, cwd: string): string | undefined {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  const subpath = `.${specifier.slice(name.length)}`;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, "node_modules", name);
    const manifest = join(root, "package.json");
    if (existsSync(manifest)) {
      let pkg: { exports?: unknown; main?: string };
      try {
        pkg = (JSON.parse(readFileSync(manifest, "utf8")) ?? {}) as typeof pkg;
      } catch (error) {
        throw new MergeError(
          "PLUGIN_LOAD",
          `plugin package "${specifier}" has a package.json that cannot be read: ${describeError(error)}`,
          { source: { file: manifest }, cause: error },
        );
      }
      const target =
        pkg.exports === undefined
          ? subpath === "."
            ? (pkg.main ?? "index.js")
            : subpath
          : pickExport(pkg.exports, subpath);
      return target === undefined ? undefined : join(root, target);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function pickExport(exports: unknown, subpath: string): string | undefined {
  const isMap = typeof exports === "object" && exports !== null && !Array.isArray(exports);
  const entry =
    isMap && Object.keys(exports).some((key) => key.startsWith("."))
      ? (exports as Record<string, unknown>)[subpath]
      : subpath === "."
        ? exports
        : undefined;
  return pickCondition(entry);
}

function pickCondition(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (Array.isArray(entry)) {
    for (const item of entry) {
      const found = pickCondition(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof entry !== "object" || entry === null) return undefined;
  for (const [condition, value] of Object.entries(entry)) {
    if (condition === "node" || condition === "import" || condition === "default") {
      const found = pickCondition(value);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The message of whatever a plugin module threw, even a value that cannot be turned into text. */
function describeError(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "it threw a value that cannot be printed";
  }
}
