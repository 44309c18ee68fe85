import { PyDict } from "@merge/core";
import { describe, expect, it } from "vitest";
import { modulesConfig } from "./modules-config.js";
import { mergeCloudConfig } from "./parts.js";

describe("modulesConfig", () => {
  it("lets the user-data win key by key over the system configuration, mappings merged, system_info dropped", () => {
    const system = { a: "sys", system_info: { distro: "debian" }, runcmd: ["s"], nested: { x: 1, y: 1 } };
    const user = mergeCloudConfig(["#cloud-config\na: user\nrun: 1\nnested: {y: 2}\n"]);
    const result = modulesConfig(system, user);
    expect(result.value).toEqual({ a: "user", nested: { y: 2, x: 1 }, run: 1, runcmd: ["s"] });
    expect(Object.keys(result.value as object)).toEqual(["a", "nested", "run", "runcmd"]);
    expect(result.base.has("system_info")).toBe(false);
    expect(result.userData.get("a")).toBe("user");
  });

  it("is the system configuration without system_info when there is no user-data", () => {
    expect(modulesConfig({ a: 1, system_info: {} }, null).value).toEqual({ a: 1 });
  });

  it("reads the user-data back as cloud-config.txt holds it: the part's merge_how is gone by then", () => {
    const user = mergeCloudConfig([
      "#cloud-config\nmerge_how: 'dict(recurse_list)+list(append)'\nruncmd: [u]\n",
    ]);
    // The handler used merge_how to merge the parts and removed it: the modules stage merges with the defaults.
    expect(modulesConfig({ runcmd: ["s"] }, user).value).toEqual({ runcmd: ["u"] });
  });

  it("keeps typed keys and their order in the exact model", () => {
    const system = new PyDict<unknown>([
      [8080, "port"],
      ["runcmd", ["s"]],
    ]);
    const user = mergeCloudConfig(["#cloud-config\nruncmd: [u]\n"], { values: "exact" });
    const result = modulesConfig(system, user, { values: "exact" });
    expect(result.value).toBe(result.exact);
    expect([...result.exact.keys()]).toEqual(["runcmd", 8080]);
  });
});
