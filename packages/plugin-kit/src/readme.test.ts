// Keeps the README true: its usage block runs as written (imports pointed at this repository's sources), and the
// failure it shows is the one checkPlugin gives for the plugin that README and docs/authoring-plugins.md describe.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { definePlugin } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { checkPlugin, PluginCheckError } from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..", "..");
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const guide = readFileSync(join(repo, "docs", "authoring-plugins.md"), "utf8");
const scratch = mkdtempSync(join(here, ".readme-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A union merger that adds the new items to the old list itself: the mistake the README's failure shows.
const union = () =>
  definePlugin({
    name: "union",
    kinds: ["list"],
    options: {},
    create: () => ({
      list: (base: readonly unknown[], incoming: unknown) => {
        if (!Array.isArray(incoming)) return incoming;
        for (const item of incoming) if (!base.includes(item)) (base as unknown[]).push(item);
        return base;
      },
    }),
  });

describe("README", () => {
  it("runs the usage example as written", async () => {
    const block = readme.match(/```ts\n([\s\S]*?)```/)?.[1];
    expect(block).toContain("checkPlugin(keyedList()");
    const file = join(scratch, "usage.ts");
    writeFileSync(
      file,
      block!
        .replace('from "@merge/plugin-kit"', `from ${JSON.stringify(join(here, "index.js"))}`)
        .replace(
          'from "@merge/strategies-stack"',
          `from ${JSON.stringify(join(repo, "packages/strategies-stack/src/index.js"))}`,
        )
        .replace(
          'from "./index.js"',
          `from ${JSON.stringify(join(repo, "examples/plugin-keyed-list/src/index.js"))}`,
        )
        .replace(
          'import { it } from "vitest";',
          "const it = (_name: string, run: () => void) => { run(); (globalThis as Record<string, unknown>).ranReadme = true; };",
        ),
    );
    await import(pathToFileURL(file).href);
    expect((globalThis as Record<string, unknown>).ranReadme).toBe(true);
  });

  it("shows the failure checkPlugin gives, here and in docs/authoring-plugins.md", () => {
    let message = "";
    try {
      checkPlugin(union());
    } catch (error) {
      if (!(error instanceof PluginCheckError)) throw error;
      message = error.message;
    }
    expect(message).toMatch(/^checkPlugin\(union\): inputs-unchanged: /);
    expect(readme).toContain(`\`\`\`text\n${message}\n\`\`\``);
    expect(guide).toContain(`\`\`\`text\n${message}\n\`\`\``);
  });
});
