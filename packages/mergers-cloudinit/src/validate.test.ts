import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PyDict, PyFloat } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { mergeCloudConfig } from "./parts.js";
import {
  cloudInitSchemaCandidates,
  findCloudInitSchema,
  loadSchema,
  validateCloudConfig,
} from "./validate.js";

const root = mkdtempSync(join(tmpdir(), "merge-validate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, text: string): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

/** A small draft-04 schema in cloud-init's style: properties, a oneOf, a deprecated key, formats. */
const schema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "object",
  properties: {
    runcmd: {
      type: "array",
      items: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    },
    package_update: { type: "boolean" },
    apt_update: { type: "boolean", deprecated: true, description: "Use ``package_update``." },
    mode: { enum: ["auto", "off"] },
    since: { type: "string", format: "date" },
    url: { type: "string", format: "uri" },
    host: { type: "string", format: "hostname" },
    ports: { type: "object", additionalProperties: false, properties: { "8080": { type: "string" } } },
    version: { type: "integer" },
    user: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
  },
};

describe("validateCloudConfig", () => {
  it("accepts a valid configuration, plain or exact", async () => {
    const value = { runcmd: ["ls", ["echo", "hi"]], package_update: true, mode: "auto" };
    expect(await validateCloudConfig(value, { schema })).toEqual({
      valid: true,
      errors: [],
      deprecations: [],
    });
    const exact = new PyDict<unknown>([
      ["runcmd", ["ls"]],
      ["ports", new PyDict([["8080", "web"]])],
    ]);
    expect((await validateCloudConfig(exact, { schema })).valid).toBe(true);
  });

  it("reports every problem, sorted by key path, in jsonschema's words", async () => {
    const result = await validateCloudConfig(
      { user: {}, runcmd: "ls", mode: "on", ports: { 9090: "x" }, package_update: "yes" },
      { schema },
    );
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.code, e.keys, e.message])).toEqual([
      // jsonschema 4.10 under cloud-init 22.4.2 puts the value first ('on' is not one of ...): left out here.
      ["SCHEMA_VALIDATION", ["mode"], "is not one of ['auto', 'off']"],
      ["SCHEMA_VALIDATION", ["package_update"], "is not of type 'boolean'"],
      ["SCHEMA_VALIDATION", ["ports"], "Additional properties are not allowed ('9090' was unexpected)"],
      ["SCHEMA_VALIDATION", ["runcmd"], "is not of type 'array'"],
      ["SCHEMA_VALIDATION", ["user"], "'name' is a required property"],
    ]);
  });

  it("reports a failed oneOf once, at the item, not once per branch", async () => {
    const result = await validateCloudConfig({ runcmd: ["ok", 5, [1]] }, { schema });
    expect(result.errors.map((e) => [e.keys, e.message])).toEqual([
      [["runcmd", 1], "is not valid under any of the given schemas"],
      [["runcmd", 2], "is not valid under any of the given schemas"],
    ]);
  });

  it("gives deprecations apart, without failing the configuration", async () => {
    const result = await validateCloudConfig({ apt_update: true }, { schema });
    expect(result.valid).toBe(true);
    expect(result.deprecations.map((e) => [e.code, e.keys, e.message])).toEqual([
      ["SCHEMA_DEPRECATED", ["apt_update"], "DEPRECATED: Use ``package_update``."],
    ]);
  });

  it("checks the date and uri formats, and not hostname (jsonschema cannot without fqdn)", async () => {
    const bad = await validateCloudConfig({ since: "2026-13-40", url: "not a uri", host: "-x-" }, { schema });
    expect(bad.errors.map((e) => e.keys)).toEqual([["since"], ["url"]]);
    const good = await validateCloudConfig({ since: "2026-12-02", url: "https://example.com/x" }, { schema });
    expect(good.valid).toBe(true);
  });

  it("sees types as cloud-init's jsonschema does: 3.0 is no integer, an int key is no text key, bytes are text", async () => {
    const floats = await validateCloudConfig({ version: new PyFloat(3) }, { schema });
    expect(floats.errors.map((e) => [e.keys, e.message])).toEqual([
      [["version"], "is not of type 'integer'"],
    ]);
    expect((await validateCloudConfig({ version: new PyFloat(3.5) }, { schema })).valid).toBe(false);
    expect((await validateCloudConfig({ version: 3 }, { schema })).valid).toBe(true);
    expect((await validateCloudConfig({ host: new TextEncoder().encode("h") }, { schema })).valid).toBe(true);
    const typed = await validateCloudConfig(new PyDict([["ports", new PyDict([[443, "x"]])]]), { schema });
    expect(typed.errors.map((e) => [e.keys, e.message])).toEqual([
      [["ports"], "Additional properties are not allowed (443 was unexpected)"],
    ]);
    const several = await validateCloudConfig({ ports: { b: 1, "8080": "w", a: 2 } }, { schema });
    expect(several.errors.map((e) => e.message)).toEqual([
      "Additional properties are not allowed ('a', 'b' were unexpected)",
    ]);
  });

  it("names where each offending value came from through locate", async () => {
    const merged = mergeCloudConfig(
      [
        { name: "base.yaml", text: "#cloud-config\nruncmd: [ls]\n" },
        { name: "bad.yaml", text: "#cloud-config\n\nmode: on\n" },
      ],
      { values: "exact" },
    );
    const result = await validateCloudConfig(merged.exact, {
      schema,
      locate: (path) => (path[0] === "mode" ? { file: "bad.yaml", line: 3, column: 7 } : undefined),
    });
    expect(result.errors.map((e) => [e.keys, e.source])).toEqual([
      [["mode"], { file: "bad.yaml", line: 3, column: 7 }],
    ]);
  });

  it("refuses a schema that does not compile", async () => {
    await expect(
      validateCloudConfig(
        {},
        { schema: { type: "object", properties: { a: { $ref: "#/nowhere" } } }, schemaFile: "s.json" },
      ),
    ).rejects.toMatchObject({ code: "SCHEMA_LOAD", source: { file: "s.json" } });
  });
});

describe("loadSchema", () => {
  it("reads a JSON object and refuses anything else with SCHEMA_LOAD", async () => {
    expect(await loadSchema(file("ok.json", '{"type": "object"}'))).toEqual({ type: "object" });
    await expect(loadSchema(file("list.json", "[]"))).rejects.toMatchObject({ code: "SCHEMA_LOAD" });
    await expect(loadSchema(file("bad.json", "{"))).rejects.toMatchObject({ code: "SCHEMA_LOAD" });
    await expect(loadSchema(join(root, "none.json"))).rejects.toMatchObject({ code: "SCHEMA_LOAD" });
  });
});

describe("findCloudInitSchema", () => {
  it("looks at $CLOUD_INIT_SCHEMA, then below $CLOUD_INIT_ROOT, then the machine's Python directories", () => {
    const unpacked = join(root, "unpacked");
    const inPackage = file(
      "unpacked/usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json",
      "{}",
    );
    const own = file("own.json", "{}");
    expect(
      cloudInitSchemaCandidates({ CLOUD_INIT_SCHEMA: own, CLOUD_INIT_ROOT: unpacked }).slice(0, 2),
    ).toEqual([own, inPackage]);
    expect(findCloudInitSchema({ CLOUD_INIT_SCHEMA: own, CLOUD_INIT_ROOT: unpacked })).toBe(own);
    expect(findCloudInitSchema({ CLOUD_INIT_ROOT: unpacked })).toBe(inPackage);
    expect(cloudInitSchemaCandidates({})).toContain(
      "/usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json",
    );
  });
});

// cloud-init's own schema, never copied here: found below $CLOUD_INIT_ROOT (scripts/cloud-init.sh unpacks Debian's
// package there in CI) or on a machine with cloud-init installed. Required in CI, skipped elsewhere without it.
const realSchema = findCloudInitSchema();
const required = process.env.CI !== undefined || process.env.CLOUD_INIT_ROOT !== undefined;

describe("cloud-init's own schema", () => {
  it.runIf(realSchema === undefined && required)("is found in CI", () => {
    expect(
      realSchema,
      "no schema-cloud-config-v1.json below $CLOUD_INIT_ROOT or the Python directories",
    ).toBeDefined();
  });

  it.runIf(realSchema !== undefined)("validates user-data as cloud-init 22.4's schema does", async () => {
    const schema = await loadSchema(realSchema!);
    expect(schema.$schema).toBe("http://json-schema.org/draft-04/schema#");
    const good = await validateCloudConfig(
      {
        runcmd: ["ls", ["echo", "hi"]],
        packages: ["vim", ["nginx", "1.2"]],
        write_files: [{ path: "/etc/x", content: "y", permissions: "0644" }],
        users: ["default", { name: "ann", groups: "adm", sudo: "ALL=(ALL) NOPASSWD:ALL" }],
        package_update: true,
        // Both match a oneOf branch before the one marked deprecated: cloud-init reports no deprecation.
        ssh_pwauth: true,
        manage_etc_hosts: true,
      },
      { schema, schemaFile: realSchema },
    );
    expect(good.errors.map((e) => e.message)).toEqual([]);
    expect(good.deprecations.map((e) => e.keys)).toEqual([]);
    const old = await validateCloudConfig(
      { manage_etc_hosts: "template" },
      { schema, schemaFile: realSchema },
    );
    expect(old.valid).toBe(true);
    expect(old.deprecations.map((e) => e.keys)).toEqual([["manage_etc_hosts"]]);
    const bad = await validateCloudConfig(
      { runcmd: 5, apt_update: true, ssh_pwauth: "maybe", users: [{ name: "x", groups: 3 }] },
      { schema, schemaFile: realSchema },
    );
    expect(bad.errors.map((e) => [e.keys, e.message])).toEqual([
      [["runcmd"], "is not of type 'array'"],
      [["users", 0], "is not valid under any of the given schemas"],
    ]);
    expect(bad.deprecations.map((e) => e.keys)).toEqual([["apt_update"], ["ssh_pwauth"]]);
  });
});
