import { formatJson, getItem, isMergeError, type PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { createStackLoader, type StackHost } from "./loader.js";
import { makeTree } from "./test-tree.js";

// With `sharedValues`, documents join each host's stack uncopied and frozen, and a template that may change `stack`
// gets a copy first. Every host must get what a loader that copies (or one made for that host alone) gives, and no
// host may see what a template changed for another.

const root = makeTree({
  "stack.cfg": [
    "core.yml",
    "common.yml",
    "aliases.yml",
    "{%- for role in pillar.get('roles', []) %}",
    "roles/{{ role }}.yml",
    "{%- endfor %}",
    "common.yml",
    "",
  ].join("\n"),
  "core.yml": "packages: [vim, curl]\nhost:\n  id: {{ minion_id }}\nusers:\n  root: {shell: /bin/bash}\n",
  "common.yml": "ntp:\n  servers: [a, b]\nusers:\n  deploy:\n    keys: [k1]\nchecks:\n  - {name: disk}\n",
  "aliases.yml": "defaults: &d {nofile: 1024}\nlimits: *d\n",
  // Names `stack` itself.
  "roles/web.yml": [
    "{%- do stack['packages'].append('nginx-' ~ minion_id) %}",
    "{%- do stack['ntp']['servers'].append(minion_id) %}",
    "defaults: {nofile: 65536}",
    "",
  ].join("\n"),
  // Changes `stack` through a template it includes, which the file's own text does not name.
  "roles/mail.yml": "{% include 'change.jinja' %}\nmail: {relay: smtp}\n",
  "change.jinja": "{%- do stack['users']['deploy']['keys'].append(minion_id) %}",
  "roles/db.yml":
    "users:\n  __: overwrite\n  postgres: {uid: 999}\nchecks:\n  - __: merge-first\n  - {name: pg}\n",
});

const hosts: StackHost[] = [
  { minionId: "web1", pillar: { roles: ["web", "mail"] } },
  { minionId: "db1", pillar: { roles: ["db"] } },
  { minionId: "web2", pillar: { roles: ["mail", "web"] } },
  { minionId: "both", pillar: { roles: ["web", "mail", "db"] } },
  { minionId: "web3", pillar: { roles: ["web"] } },
  { minionId: "web1", pillar: { roles: ["web", "mail"] } },
];

function outcome(load: () => { data: unknown }): string {
  try {
    return formatJson(load().data, { indent: 0 });
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

describe("a loader with sharedValues", () => {
  it("gives every host what a loader that copies gives, whatever templates did to `stack` before", () => {
    const shared = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact", sharedValues: true });
    const copying = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
    for (let round = 0; round < 2; round++) {
      for (const host of hosts) {
        const alone = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" });
        const expected = outcome(() => alone.load(host));
        expect(expected).not.toMatch(/^[A-Z_]+: /);
        expect(outcome(() => shared.load(host))).toBe(expected);
        expect(outcome(() => copying.load(host))).toBe(expected);
      }
    }
  });

  it("keeps what one host's templates changed out of the next host's stack", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact", sharedValues: true });
    loader.load(hosts[0]!);
    const web3 = loader.load(hosts[4]!).data;
    expect(getItem(web3, "packages")).toEqual(["vim", "curl", "nginx-web3"]);
    const users = getItem(web3, "users") as PyDict;
    // common.yml is listed twice; web1's include added its id to web1's copy only.
    expect(getItem(users.get("deploy") as PyDict, "keys")).toEqual(["k1", "k1"]);
    // The alias: merged into `defaults`, seen through `limits`, as in Salt.
    expect(getItem(getItem(web3, "limits") as PyDict, "nofile")).toBe(65536);
  });

  it("hands out parsed parts frozen, so that a change to a result fails instead of reaching other hosts", () => {
    const loader = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact", sharedValues: true });
    const data = loader.load(hosts[1]!).data;
    // What the merge made is the host's own; what a file gave as it was is the cache's, frozen.
    const users = getItem(data, "users") as PyDict;
    const postgres = users.get("postgres") as PyDict;
    expect(users.isFrozen).toBe(false);
    expect(postgres.isFrozen).toBe(true);
    expect(() => postgres.set("uid", 0)).toThrow(TypeError);
    const checks = getItem(data, "checks") as PyDict[];
    expect(Object.isFrozen(checks)).toBe(false);
    expect(checks.every((check) => check.isFrozen)).toBe(true);
    // Without the option, the result is the caller's own.
    const own = createStackLoader({ config: "stack.cfg", cwd: root, values: "exact" }).load(hosts[1]!).data;
    expect(((getItem(own, "users") as PyDict).get("postgres") as PyDict).isFrozen).toBe(false);
  });
});
