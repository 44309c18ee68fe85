import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isMergeError } from "@merge/core";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { loadStackBatch } from "./batch.js";
import { createStackLoader, loadStack } from "./loader.js";

const example = fileURLToPath(new URL("../../../examples/stack/", import.meta.url));
const yaml = (name: string) =>
  loadYaml(readFileSync(`${example}${name}`, "utf8"), { flavor: "salt" }) as never;

describe("examples/stack (the tree of Salt's PillarStack documentation)", () => {
  it("merges test-1-dev's files in the documented order into expected.yml", () => {
    const result = loadStack({
      config: "config.cfg",
      cwd: example,
      minionId: "test-1-dev",
      grains: yaml("grains.yml"),
      pillar: yaml("pillar.yml"),
    });
    expect(result.files).toEqual([
      "core.yml",
      "common/xxx.yml",
      "common/yyy.yml",
      "osarchs/amd64.yml",
      "oscodenames/jessie.yml",
      "roles/db.yml",
      "minions/test-1-dev.yml",
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.data).toEqual(yaml("expected.yml"));
  });

  it("gives test-2-dev (armhf, wheezy, web) its own stack", () => {
    const result = loadStack({
      config: `${example}config.cfg`,
      minionId: "test-2-dev",
      grains: { osarch: "armhf", oscodename: "wheezy" },
      pillar: { roles: ["web"] },
    });
    expect(result.data).toMatchObject({
      ntp: { servers: ["ntp.arm.example.internal"] },
      users: { deploy: { groups: ["nginx", "www-data"] } },
      sshd: { port: 2222 },
      nginx: { sites: { default: { listen: 80, root: "/srv/www/test-2" } } },
      timezone: "Europe/Paris",
      logging: { timezone: "UTC" },
      python: "python2.7",
    });
  });

  it("warns and goes on when a host's files are missing", () => {
    const result = loadStack({
      config: "config.cfg",
      cwd: example,
      minionId: "test-9",
      grains: {},
      pillar: {},
    });
    expect(result.files).toEqual(["core.yml", "common/xxx.yml", "common/yyy.yml"]);
    expect(result.warnings.map((w) => w.code)).toEqual([
      "STACK_NO_MATCH",
      "STACK_NO_MATCH",
      "STACK_NO_MATCH",
    ]);
  });
});

describe("batch mode", () => {
  const hosts = Array.from({ length: 12 }, (_, i) => ({
    minionId: i % 2 === 0 ? "test-1-dev" : "test-2-dev",
    grains:
      i % 2 === 0 ? { osarch: "amd64", oscodename: "jessie" } : { osarch: "armhf", oscodename: "wheezy" },
    pillar: { roles: i % 3 === 0 ? ["db"] : ["web"] },
  }));

  it("spreads hosts over worker threads and gives the same results, in order, as one loader", async () => {
    const loader = createStackLoader({ config: "config.cfg", cwd: example });
    const entries = await loadStackBatch(hosts, { config: "config.cfg", cwd: example, workers: 2 });
    expect(entries.map((entry) => entry.minionId)).toEqual(hosts.map((host) => host.minionId));
    entries.forEach((entry, i) => {
      expect(entry.ok).toBe(true);
      if (entry.ok) expect(entry.result).toEqual(loader.load(hosts[i]!));
    });
  });

  it("reports a failing host as a coded error without stopping the others", async () => {
    const config = { "pillar:env": { dev: "config.cfg" } };
    const good = { ...hosts[0]!, pillar: { roles: ["db"], env: "dev" } };
    // a list cannot select a config (Salt fails the same way)
    const bad = { minionId: "x", pillar: { env: ["dev"] } };
    const entries = await loadStackBatch([good, bad, good], { config, cwd: example, workers: 2 });
    expect(entries.map((entry) => entry.ok)).toEqual([true, false, true]);
    const failed = entries[1]!;
    expect(failed.ok ? "" : failed.error.code).toBe("STACK_CONFIG");
    expect(failed.ok ? undefined : isMergeError(failed.error)).toBe(true);
  });

  it("gives workers the caller's functions through a setup module", async () => {
    const dir = fileURLToPath(new URL("../test/fixtures/batch/", import.meta.url));
    const hosts = [{ minionId: "a" }, { minionId: "bbb" }, { minionId: "cc" }];
    const entries = await loadStackBatch(hosts, {
      config: "stack.cfg",
      cwd: dir,
      workers: 2,
      setupModule: `${dir}setup.mjs`,
    });
    expect(entries.map((entry) => (entry.ok ? entry.result.data : entry.error.message))).toEqual([
      { rack: "rack-1", host: "a" },
      { rack: "rack-3", host: "bbb" },
      { rack: "rack-2", host: "cc" },
    ]);
  });

  it("stops when its signal aborts", async () => {
    const controller = new AbortController();
    const running = loadStackBatch(hosts, {
      config: "config.cfg",
      cwd: example,
      workers: 2,
      signal: controller.signal,
    });
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: "STACK_WORKER" });
    await expect(
      loadStackBatch(hosts, { config: "config.cfg", cwd: example, signal: controller.signal }),
    ).rejects.toMatchObject({ code: "STACK_WORKER" });
  });
});
