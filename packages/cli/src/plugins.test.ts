import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { loadPluginModule } from "./plugins.js";

const dir = mkdtempSync(join(tmpdir(), "merge-plugin-unit-"));
function module(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return `./${name}`;
}

const PLUGIN = `{ name: "p", kinds: ["list"], options: {}, create: () => ({ list: (b) => b }) }`;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isMergeError(error) ? error.code : "not a MergeError";
  }
}

describe("loadPluginModule", () => {
  it("accepts a plugin, an array, a factory and an async factory", async () => {
    for (const [file, text] of [
      ["one.mjs", `export default ${PLUGIN};`],
      ["array.mjs", `export default [${PLUGIN}];`],
      ["factory.mjs", `export default () => (${PLUGIN});`],
      ["async.mjs", `export const plugins = async () => [${PLUGIN}];`],
      ["named.mjs", `export const plugin = ${PLUGIN};`],
    ] as const) {
      const plugins = await loadPluginModule(module(file, text), dir);
      expect(plugins.map((plugin) => plugin.name)).toEqual(["p"]);
    }
  });

  it("reports a factory that throws as PLUGIN_LOAD", async () => {
    expect(
      await codeOf(
        loadPluginModule(module("bad.mjs", "export default () => { throw new Error('x') };"), dir),
      ),
    ).toBe("PLUGIN_LOAD");
  });

  it("reports a missing file and a missing package as PLUGIN_NOT_FOUND", async () => {
    expect(await codeOf(loadPluginModule("./absent.mjs", dir))).toBe("PLUGIN_NOT_FOUND");
    expect(await codeOf(loadPluginModule("no-such-merge-plugin-package", dir))).toBe("PLUGIN_NOT_FOUND");
  });
});

describe("loadPluginModule with an ESM-only package", () => {
  it("follows the import condition of a package that has no require or default export", async () => {
    const root = mkdtempSync(join(tmpdir(), "merge-esm-only-"));
    const pkg = join(root, "node_modules", "@scope", "esm-only-plugin");
    mkdirSync(join(pkg, "lib"), { recursive: true });
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({
        name: "@scope/esm-only-plugin",
        type: "module",
        exports: { ".": { import: "./lib/main.js" } },
      }),
    );
    writeFileSync(join(pkg, "lib", "main.js"), `export default ${PLUGIN};`);
    const nested = join(root, "project", "sub");
    mkdirSync(nested, { recursive: true });
    const plugins = await loadPluginModule("@scope/esm-only-plugin", nested);
    expect(plugins.map((plugin) => plugin.name)).toEqual(["p"]);
  });
});
