// A PillarStack tree in the style of the public ones (shared macros, import_yaml/import_json of defaults, loops
// over roles, templates reading and changing `stack`). The expected texts and merged data in
// webstack.expected.json come from rendering the same tree with Jinja 3.1 and Salt's serializer extension.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isPlainObject } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { createRenderer } from "./renderer.js";
import { memoryFiles } from "./test-memory-files.js";

const here = dirname(fileURLToPath(import.meta.url));
const tree = resolve(here, "../test/fixtures/templates/webstack");
const expected = JSON.parse(readFileSync(`${tree}.expected.json`, "utf8")) as {
  rendered: Record<string, string>;
  stack: Record<string, unknown>;
};

const HOST = {
  pillar: { roles: ["web", "db"], environment: "dev" },
  minion_id: "test-1-dev",
  __grains__: {
    num_cpus: 4,
    osarch: "amd64",
    oscodename: "bookworm",
    ipv4: ["10.0.0.5", "127.0.0.1"],
    mem_total: 8192,
  },
  __opts__: { id: "master" },
};

/** PillarStack's default merge (merge-last), enough to feed `stack` to the next template. */
function mergeLast(stack: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(data)) {
    const old = stack[k];
    if (isPlainObject(old) && isPlainObject(v)) mergeLast(old, v);
    else if (Array.isArray(old) && Array.isArray(v)) stack[k] = [...old, ...v];
    else stack[k] = v;
  }
  return stack;
}

/** Where runTree reads the tree: its directory, and how the config and stack files are read there. */
interface TreeSource {
  readonly root: string;
  readonly exists: (path: string) => boolean;
  readonly read: (path: string) => string;
}

const onDisk: TreeSource = {
  root: tree,
  exists: existsSync,
  read: (path) => readFileSync(path, "utf8"),
};

function runTree(
  renderer = createRenderer(),
  host: Record<string, unknown> = HOST,
  from: TreeSource = onDisk,
) {
  const { root: tree, exists: existsSync, read } = from;
  const cfg = join(tree, "config.cfg");
  const stack: Record<string, unknown> = {};
  const rendered: Record<string, string> = {};
  const list = renderer.render(read(cfg), cfg, { ...host, stack }, cfg);
  rendered["config.cfg"] = list;
  for (const item of list.split("\n")) {
    const file = join(tree, item);
    if (!existsSync(file)) continue; // PillarStack skips files that do not exist
    const text = renderer.render(read(file), file, { ...host, stack }, cfg);
    rendered[item] = text;
    mergeLast(stack, loadYaml(text, { flavor: "salt", filename: file }) as Record<string, unknown>);
  }
  return { rendered, stack };
}

describe("a realistic PillarStack tree", () => {
  it("renders every file exactly as Salt's Jinja does", () => {
    const { rendered } = runTree();
    expect(Object.keys(rendered)).toEqual(Object.keys(expected.rendered));
    for (const [file, text] of Object.entries(expected.rendered)) expect(rendered[file], file).toBe(text);
  });

  it("merges to the same data", () => {
    expect(runTree().stack).toEqual(expected.stack);
  });

  it("renders many hosts with one renderer, compiling each file once", () => {
    const renderer = createRenderer();
    for (let i = 0; i < 50; i++) {
      const host = { ...HOST, minion_id: `web-${i}`, pillar: { roles: ["web"], environment: "prod" } };
      const { stack } = runTree(renderer, host);
      expect((stack.host as Record<string, unknown>).id).toBe(`web-${i}`);
      expect((stack.app as Record<string, unknown>).features).toEqual(["metrics", "audit"]);
    }
    // config.cfg, core.yml, common/users.yml, roles/web.yml, minions/web-N.yml (missing: not rendered),
    // defaults/app.yml, defaults/packages.json, macros/users.sls
    expect(renderer.compiledCount).toBeLessThanOrEqual(8);
  });

  it("renders the same from a copy of the tree kept in memory (the renderer's `files` option)", () => {
    const texts: Record<string, string> = {};
    for (const entry of readdirSync(tree, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      texts[relative(tree, path)] = readFileSync(path, "utf8");
    }
    // Mounted where nothing is on disk: every import the templates make has to come from memory.
    const root = "/srv/pillar/webstack";
    const files = memoryFiles(texts, root);
    const fromMemory: TreeSource = {
      root,
      exists: (path) => files.stat(path)?.isFile() === true,
      read: (path) => new TextDecoder().decode(files.readFile(path)),
    };
    const { rendered, stack } = runTree(createRenderer({ files }), HOST, fromMemory);
    expect(rendered).toEqual(expected.rendered);
    expect(stack).toEqual(expected.stack);
    expect(files.reads).toContain(`${root}/defaults/app.yml`);
  });
});
