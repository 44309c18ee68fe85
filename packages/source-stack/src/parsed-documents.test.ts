import type { PyDict } from "@merge/core";
import { STORED_VALUE_FORMAT, YAML_READING_RULES } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { catchMergeError as failure } from "../../../test-kit/errors.js";
import { loadStack, type ParsedDocumentStore, type StackLoaderOptions } from "./loader.js";
import { createMemoryFileSystem } from "./memory-files.js";

/** `count` more lines of `key: value` under `section`, to make a file as large as the ones worth storing. */
const filler = (section: string, count: number) =>
  `${section}:\n${Array.from({ length: count }, (_, i) => `  ${section}_${i}: value ${i}\n`).join("")}`;

const TREE = {
  "stack.cfg": "core.yml\ncommon/*.yml\nminions/{{ minion_id }}.yml\n",
  "core.yml": `timezone: UTC\nusers:\n  root: {shell: /bin/bash}\nports: &p [22, 80]\nalso: *p\n${filler("packages", 400)}`,
  "common/ntp.yml": `ntp:\n  servers: [0.pool.ntp.org]\n  when: 2001-12-14\n  drift: 1.0\n${filler("sysctl", 400)}`,
  "common/small.yml": "motd: small files parse faster than they are read back\n",
  "minions/web1.yml": `db:\n  password: {{ pillar['secret'] }}\n  host: {{ minion_id }}\n${filler("big", 400)}`,
};

/** A store kept in a Map, that counts what it is asked. */
function mapStore(): ParsedDocumentStore & { entries: Map<string, string>; sets: number; gets: number } {
  const entries = new Map<string, string>();
  const store = {
    entries,
    sets: 0,
    gets: 0,
    get(key: string) {
      store.gets++;
      return entries.get(key);
    },
    set(key: string, value: string) {
      store.sets++;
      entries.set(key, value);
    },
  };
  return store;
}

function load(
  extra: Partial<StackLoaderOptions> = {},
  tree: Record<string, string> = TREE,
): { data: PyDict; files: readonly string[] } {
  return loadStack({
    config: "stack.cfg",
    cwd: "/srv/stack",
    files: createMemoryFileSystem(tree, "/srv/stack"),
    minionId: "web1",
    pillar: { secret: "hunter2" },
    ...extra,
    values: "exact",
  });
}

describe("parsedDocuments", () => {
  it("keeps the large plain files' documents, and never what a template rendered", () => {
    const store = mapStore();
    const plain = load();
    const first = load({ parsedDocuments: store });
    expect(first.data).toEqual(plain.data);
    expect(store.entries.size).toBe(2);
    const keys = [...store.entries.keys()];
    // Keyed by the text as Jinja reads it (the last line break dropped).
    expect(keys.some((key) => key.endsWith(TREE["core.yml"].slice(0, -1)))).toBe(true);
    expect(keys.some((key) => key.endsWith(TREE["common/ntp.yml"].slice(0, -1)))).toBe(true);
    expect(TREE["minions/web1.yml"].length).toBeGreaterThan(8192);
    expect(keys.some((key) => key.includes("small files"))).toBe(false);
    for (const [key, value] of store.entries) {
      expect(key).not.toContain("hunter2");
      expect(value).not.toContain("hunter2");
    }
  });

  it("files them under the encoding's version and the version of the YAML reading rules", () => {
    // An entry made under other reading rules (a store kept across an upgrade of @merge/yaml) is never looked up.
    const store = mapStore();
    load({ parsedDocuments: store });
    for (const key of store.entries.keys()) {
      expect(
        key.startsWith(`merge stack document ${STORED_VALUE_FORMAT}\nyaml rules ${YAML_READING_RULES}\n`),
      ).toBe(true);
    }
    const stale = mapStore();
    for (const [key, value] of store.entries)
      stale.entries.set(key.replace(/yaml rules \d+/, "yaml rules 0"), value);
    const sets = stale.sets;
    expect(load({ parsedDocuments: stale }).data).toEqual(load().data);
    expect(stale.sets - sets).toBe(2);
  });

  it("reads them back instead of parsing, with aliases, dates and whole floats as parsed", () => {
    const store = mapStore();
    load({ parsedDocuments: store });
    const sets = store.sets;
    const again = load({ parsedDocuments: store });
    expect(store.sets).toBe(sets);
    expect(again.data).toEqual(load().data);
    const data = again.data as PyDict;
    expect(String((data.get("ntp") as PyDict).get("drift"))).toBe("1.0");
    // What is read is the stored value: a changed one shows in the result.
    for (const [key, value] of store.entries)
      store.entries.set(key, value.replace('"UTC"', '"Europe/Paris"'));
    expect((load({ parsedDocuments: store }).data as PyDict).get("timezone")).toBe("Europe/Paris");
  });

  it("parses again and stores again a value that does not decode", () => {
    const store = mapStore();
    load({ parsedDocuments: store });
    for (const key of store.entries.keys()) store.entries.set(key, '["d", "half');
    const sets = store.sets;
    const again = load({ parsedDocuments: store });
    expect(again.data).toEqual(load().data);
    expect(store.sets).toBe(sets + 2);
    for (const value of store.entries.values()) expect(value.startsWith('["d",')).toBe(true);
  });

  it("stores nothing for a file that does not parse, and fails as without a store", () => {
    const store = mapStore();
    const broken = { ...TREE, "common/ntp.yml": "ntp: [unclosed\n" };
    const without = failure(() => load({}, broken));
    const withStore = failure(() => load({ parsedDocuments: store }, broken));
    expect(withStore.code).toBe(without.code);
    expect(withStore.message).toBe(without.message);
    expect([...store.entries.keys()].every((key) => !key.includes("unclosed"))).toBe(true);
  });

  it("with a renderer of the caller's, keeps the texts it gave back unchanged", () => {
    const store = mapStore();
    const result = load({
      parsedDocuments: store,
      renderer: {
        render: (source: string) =>
          source.replaceAll("{{ minion_id }}", "web1").replace(/\{\{[^}]*\}\}/g, "x"),
      },
    });
    expect((result.data.get("db") as PyDict).get("password")).toBe("x");
    expect(store.entries.size).toBe(2);
    expect([...store.entries.keys()].some((key) => key.includes("password"))).toBe(false);
  });
});
