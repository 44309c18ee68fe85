import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createStackLoader, loadStack } from "./loader.js";

const platform = fileURLToPath(new URL("../test/fixtures/platform/", import.meta.url));

// A two-environment stack chosen by a pillar matcher, as in `ext_pillar: - stack: {pillar:environment: ...}`.
describe("a platform stack selected per environment", () => {
  const loader = createStackLoader({
    config: { "pillar:environment": { dev: "stack-dev.cfg", prod: "stack-prod.cfg" } },
    cwd: platform,
  });

  it("renders a dev host from the YAML-list config", () => {
    const result = loader.load({
      minionId: "web-1",
      pillar: { environment: "dev", roles: ["app", "cache"], extra_users: ["ann", "bob"] },
      grains: { num_cpus: 4, mem_total: 8192 },
    });
    expect(result.files).toEqual([
      "common/10-base.yml",
      "common/20-users.yml",
      "roles/app.yml",
      "roles/cache.yml",
      "env/dev.yml",
      "hosts/web-1.yml",
    ]);
    expect(result.data).toEqual({
      environment: "dev",
      fqdn: "web-1.dev.example.net",
      app: { port: 8080, workers: 8, log_level: "debug" },
      users: { ann: { uid: 3000 }, bob: { uid: 3001 }, dev: { uid: 4000 } },
      firewall: { allow: [22, 8080, 6379] },
      cache_backend: "redis",
      redis: { maxmemory: "2048mb" },
      backend: "redis",
    });
    expect(result.warnings).toEqual([]);
  });

  it("renders a prod host from the line config, with overwrite and remove", () => {
    const result = loader.load({
      minionId: "api-7",
      pillar: { environment: "prod", roles: ["app"] },
      grains: { num_cpus: 2 },
    });
    expect(result.files).toEqual([
      "common/10-base.yml",
      "common/20-users.yml",
      "roles/app.yml",
      "env/prod.yml",
    ]);
    expect(result.data).toEqual({
      environment: "prod",
      fqdn: "api-7.prod.example.net",
      app: { port: 443, workers: 16 },
      users: { ops: { uid: 2000, keys: ["ops-2023", "ops-2024"] } },
      firewall: { allow: [8080] },
    });
    expect(result.warnings.map((w) => w.code)).toEqual(["STACK_NO_MATCH"]);
  });

  it("renders nothing for a host whose environment selects no config", () => {
    expect(loader.load({ minionId: "x", pillar: { environment: "staging" } })).toEqual({
      data: {},
      files: [],
      warnings: [],
      searched: [],
    });
  });
});

describe("paths templates see", () => {
  it("gives __stack__.cfg_path and ymlpath as upstream PillarStack does: as written, joined with the config's directory", () => {
    // vitest runs in the package directory, so this relative path is relative to the process's directory
    const result = loadStack({ config: "test/fixtures/cfgpath/stack.cfg", minionId: "m" });
    expect(result.data).toEqual({
      cfg: "test/fixtures/cfgpath/stack.cfg",
      yml: "test/fixtures/cfgpath/a.yml",
    });
  });

  it("leaves them undefined with strictSalt, as Salt's bundled stack.py does, unless upstreamPillarStack asks", () => {
    const config = "test/fixtures/cfgpath/stack.cfg";
    expect(loadStack({ config, minionId: "m", strictSalt: true }).data).toEqual({ cfg: null, yml: null });
    expect(loadStack({ config, minionId: "m", upstreamPillarStack: false }).data).toEqual({
      cfg: null,
      yml: null,
    });
    expect(loadStack({ config, minionId: "m", strictSalt: true, upstreamPillarStack: true }).data).toEqual({
      cfg: "test/fixtures/cfgpath/stack.cfg",
      yml: "test/fixtures/cfgpath/a.yml",
    });
  });
});
