// Keeps the README's plugin example true: the code block is taken from the README as written, pointed at this
// package's sources, loaded, registered and run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { MergerPlugin } from "./plugin.js";
import { createRegistry } from "./registry.js";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "..", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const example = blocks.find((block) => block.includes("keep_first"));
const scratch = mkdtempSync(join(here, ".readme-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("README plugin example", () => {
  it("registers and merges as the README says", async () => {
    expect(example).toBeDefined();
    const file = join(scratch, "keep-first.ts");
    writeFileSync(
      file,
      example!.replace('from "@merge/core"', `from ${JSON.stringify(join(here, "index.js"))}`),
    );
    const module = (await import(pathToFileURL(file).href)) as { keepFirst: () => MergerPlugin };
    const registry = createRegistry([module.keepFirst()]);
    const deep = registry.resolve("keep_first()");
    expect(deep.merge({ a: 1, n: { x: 1 } }, { a: 2, b: 3, n: { x: 2, y: 2 } })).toEqual({
      a: 1,
      b: 3,
      n: { x: 1, y: 2 },
    });
    const shallow = registry.resolve("keep_first(shallow)");
    expect(shallow.merge({ n: { x: 1 } }, { n: { y: 2 } })).toEqual({ n: { x: 1 } });
    expect(() => registry.resolve("keep_first(deep)")).toThrow(/unknown option "deep"/);
  });
});
