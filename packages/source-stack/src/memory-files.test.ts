import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { loadStack } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";
import { makeTree } from "./test-tree.js";

const example = fileURLToPath(new URL("../../../examples/stack/", import.meta.url));
const yaml = (name: string) =>
  loadYaml(readFileSync(`${example}${name}`, "utf8"), { flavor: "salt" }) as never;

/** Every file of examples/stack by relative path, read from disk. */
function exampleTree(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const entry of readdirSync(example, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = `${entry.parentPath}/${entry.name}`.slice(example.length).replace(/^\/+/, "");
    tree[rel] = readFileSync(`${example}${rel}`, "utf8");
  }
  return tree;
}

describe("a stack read through the files option", () => {
  it("gives for examples/stack kept in memory what the tree on disk gives", () => {
    const host = { minionId: "test-1-dev", grains: yaml("grains.yml"), pillar: yaml("pillar.yml") };
    const fromDisk = loadStack({ config: "config.cfg", cwd: example, ...host });
    const files = createMemoryFileSystem(exampleTree(), "/srv/stack");
    const fromMemory = loadStack({ config: "config.cfg", cwd: "/srv/stack", files, ...host });
    expect(fromMemory.files).toEqual(fromDisk.files);
    expect(fromMemory.files).toContain("minions/test-1-dev.yml");
    expect(fromMemory.data).toEqual(yaml("expected.yml"));
    expect(fromMemory.warnings).toEqual([]);
  });

  it("gives what docs/pillarstack.md shows for a stack kept in memory", () => {
    const files = createMemoryFileSystem(
      { "config.cfg": "core.yml\n", "core.yml": "timezone: UTC\n" },
      "/srv/stack",
    );
    expect(loadStack({ config: "config.cfg", cwd: "/srv/stack", files, minionId: "web-1" }).data).toEqual({
      timezone: "UTC",
    });
  });

  it("never touches the local disk: a config that exists only on disk is missing", () => {
    const files = createMemoryFileSystem({ "other.cfg": "a.yml\n", "a.yml": "a: 1\n" });
    const result = loadStack({ config: `${example}config.cfg`, cwd: "/", files, minionId: "m" });
    expect(result.data).toEqual({});
    expect(result.warnings.map((w) => w.code)).toEqual(["STACK_CONFIG_MISSING"]);
  });

  it("globs, lists directories and skips hidden files as on disk", () => {
    const files = createMemoryFileSystem({
      "config.cfg": "n/*.yml\n*/x.yml\n",
      "n/10.yml": "order: [n10]\n",
      "n/9.yml": "order: [n9]\n",
      "n/.hidden.yml": "order: [hidden]\n",
      "n/x.yml": "order: [x]\n",
    });
    const result = loadStack({ config: "/config.cfg", files, minionId: "m" });
    expect(result.files).toEqual(["/n/10.yml", "/n/9.yml", "/n/x.yml", "/n/x.yml"]);
    expect(result.data).toEqual({ order: ["n10", "n9", "x", "x"] });
  });

  it("reports a file that is not UTF-8 as STACK_READ and a directory listed as a file as STACK_NOT_FILE", () => {
    const bad = createMemoryFileSystem({ "c.cfg": "a.yml\n", "a.yml": new Uint8Array([0x61, 0x3a, 0xff]) });
    expect(failure(() => loadStack({ config: "/c.cfg", files: bad, minionId: "m" })).code).toBe("STACK_READ");
    const dir = createMemoryFileSystem({ "c.cfg": "d\n", "d/a.yml": "a: 1\n" });
    expect(failure(() => loadStack({ config: "/c.cfg", files: dir, minionId: "m" })).code).toBe(
      "STACK_NOT_FILE",
    );
  });
});

// A stack whose templates import, include and check files of their own: the loader's renderer reads them from the
// loader's file system.
const TEMPLATED: Record<string, string> = {
  "config.cfg": [
    "{%- set base = __stack__.cfg_path.rsplit('/', 1)[0] %}",
    "core.yml",
    "{%- if __salt__['file.file_exists'](base ~ '/extra.yml') %}",
    "extra.yml",
    "{%- endif %}",
    "{%- if __salt__['file.directory_exists'](base ~ '/roles') %}",
    "roles/*.yml",
    "{%- endif %}",
    "",
  ].join("\n"),
  "core.yml":
    "{% import_yaml 'common/defaults.yml' as d %}{% import_json 'common/ports.json' as p %}" +
    "{% from 'macros.sls' import owner %}\n" +
    "timezone: {{ d.timezone }}\nports: {{ p.ports | json }}\nowner: {{ owner(minion_id) }}\n",
  "extra.yml": "{% include 'snippets/motd.sls' %}\n",
  "roles/web.yml": "{% import_text 'common/banner.txt' as b %}banner: {{ b | yaml_dquote }}\n",
  "common/defaults.yml": "timezone: {{ 'Etc/UTC' }}\n",
  "common/ports.json": '{"ports": [80, 443]}',
  "common/banner.txt": "Welcome\n",
  "macros.sls": "{% macro owner(id) %}ops-{{ id }}{% endmacro %}",
  "snippets/motd.sls": "motd: hello {{ minion_id }}",
};

describe("templates of a stack read through the files option", () => {
  it("import, include and check files in the in-memory tree as in the same tree on disk", () => {
    const dir = makeTree(TEMPLATED);
    const fromDisk = loadStack({ config: "config.cfg", cwd: dir, minionId: "web-1" });
    expect(fromDisk.data).toEqual({
      timezone: "Etc/UTC",
      ports: [80, 443],
      owner: "ops-web-1",
      motd: "hello web-1",
      banner: "Welcome",
    });
    // Where nothing is on disk, and at the root of the file system as the playground mounts its tree.
    for (const root of ["/srv/nowhere/stack", "/"]) {
      const files = createMemoryFileSystem(TEMPLATED, root);
      const fromMemory = loadStack({ config: "config.cfg", cwd: root, files, minionId: "web-1" });
      expect(fromMemory.data).toEqual(fromDisk.data);
      expect(fromMemory.files).toEqual(fromDisk.files);
      expect(fromMemory.warnings).toEqual(fromDisk.warnings);
    }
  });

  it("give what docs/templates.md shows for an import from a stack kept in memory", () => {
    const files = createMemoryFileSystem(
      {
        "config.cfg": "core.yml\n",
        "core.yml": "{% import_yaml 'common/defaults.yml' as d %}timezone: {{ d.timezone }}\n",
        "common/defaults.yml": "timezone: UTC\n",
      },
      "/srv/stack",
    );
    expect(loadStack({ config: "config.cfg", cwd: "/srv/stack", files, minionId: "web-1" }).data).toEqual({
      timezone: "UTC",
    });
  });

  it("report a missing import as on disk, naming the file that imports it", () => {
    const tree = { "config.cfg": "a.yml\n", "a.yml": "x: 1\n{% import_yaml 'gone.yml' as g %}\n" };
    const onDisk = failure(() => loadStack({ config: "config.cfg", cwd: makeTree(tree), minionId: "m" }));
    const files = createMemoryFileSystem(tree, "/srv/stack");
    const inMemory = failure(() =>
      loadStack({ config: "config.cfg", cwd: "/srv/stack", files, minionId: "m" }),
    );
    expect(inMemory.code).toBe(onDisk.code);
    expect(inMemory.message).toBe(onDisk.message);
    expect(inMemory.message).toContain("TemplateNotFound: gone.yml");
    expect(inMemory.source?.line).toBe(2);
  });
});

describe("createMemoryFileSystem", () => {
  const fs = createMemoryFileSystem({ "s/a.yml": "a: 1\n", "s/sub/b.yml": "b: 2\n" }, "/root");

  it("resolves .. one component at a time, as an operating system does", () => {
    expect(fs.realpath("/root/s/sub/../a.yml")).toBe("/root/s/a.yml");
    expect(() => fs.realpath("/root/s/nothing/../a.yml")).toThrow();
    expect(fs.stat("/root/s/a.yml/../a.yml")).toBeUndefined();
    expect(fs.stat("/root/s/a.yml/")).toBeUndefined();
    expect(fs.realpath("/../root/./s")).toBe("/root/s");
  });

  it("lists directories with their kinds and reads files as bytes", () => {
    expect(fs.readdir("/root/s").map((e) => [e.name, e.isDirectory()])).toEqual([
      ["a.yml", false],
      ["sub", true],
    ]);
    expect(new TextDecoder().decode(fs.readFile("/root/s/sub/b.yml"))).toBe("b: 2\n");
    expect(fs.lstat("/root/s/sub")?.isDirectory()).toBe(true);
    expect(fs.lstat("/root/s/sub/c.yml")).toBeUndefined();
    expect(() => fs.readFile("/root/s/sub")).toThrow();
    expect(() => fs.readdir("/root/s/a.yml")).toThrow();
  });

  it("refuses paths with empty, . or .. components, a path given as file and directory, and a relative root", () => {
    expect(failure(() => createMemoryFileSystem({ "a/../b.yml": "" })).code).toBe("STACK_PATH");
    expect(failure(() => createMemoryFileSystem({ "a//b.yml": "" })).code).toBe("STACK_PATH");
    expect(failure(() => createMemoryFileSystem({ "a.yml": "", "a.yml/b.yml": "" })).code).toBe("STACK_PATH");
    expect(failure(() => createMemoryFileSystem({ "d/b.yml": "", d: "" })).code).toBe("STACK_PATH");
    expect(failure(() => createMemoryFileSystem({}, "srv")).code).toBe("STACK_PATH");
  });
});
