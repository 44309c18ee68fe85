import { readdirSync, readFileSync } from "node:fs";
import { loadYaml } from "@merge/yaml";
import { describe, expect, it } from "vitest";
import { type CloudConfigPart, formatCloudConfig, mergeCloudConfig, mergeUserData } from "../src/index.js";

// The bundled examples in examples/cloud-config, checked against their expected results.
const root = new URL("../../../examples/cloud-config/", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const expected = (path: string) => loadYaml(read(path), { flavor: "pyyaml", filename: path });
const partsIn = (dir: string): CloudConfigPart[] =>
  readdirSync(new URL(dir, root))
    .filter((name) => /^\d\d.*\.yaml$/.test(name))
    .sort()
    .map((name) => ({ name, text: read(`${dir}/${name}`) }));

describe("examples/cloud-config", () => {
  it("seed-run-cmd: the seed's design extends the list (stack mode)", () => {
    const result = mergeCloudConfig(partsIn("seed-run-cmd"), { mode: "stack" });
    expect(result.value).toEqual(expected("seed-run-cmd/expected-stack.yaml"));
  });
  it("seed-run-cmd: cloud-init today replaces the key (current mode)", () => {
    const result = mergeCloudConfig(partsIn("seed-run-cmd"));
    expect(result.value).toEqual(expected("seed-run-cmd/expected-current.yaml"));
    expect(result.merged).toEqual(["01.yaml", "02.yaml"]);
    expect(formatCloudConfig(result)).toBe(read("seed-run-cmd/expected-current-cloud-config.txt"));
  });
  it("runcmd-doc: cloud-init's documented runcmd example in the mapping, list and string forms", () => {
    const result = mergeCloudConfig(partsIn("runcmd-doc"));
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(expected("runcmd-doc/expected.yaml"));
    expect(formatCloudConfig(result)).toBe(read("runcmd-doc/expected-cloud-config.txt"));
  });
  it("user-data: a make-mime message with headers, a script and a JSON patch", async () => {
    const result = await mergeUserData(readFileSync(new URL("user-data/user-data.mime", root)));
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(expected("user-data/expected.yaml"));
    expect(result.merged).toEqual(["base.yaml", "more.yaml", "patch.jsonp", "late.yaml"]);
    expect(formatCloudConfig(result)).toBe(read("user-data/expected-cloud-config.txt"));
    expect(result.skipped).toEqual([
      {
        name: "setup.sh",
        type: "text/x-shellscript",
        reason: "text/x-shellscript parts are not cloud-config",
      },
    ]);
    expect(result.parts.map((part) => part.mergers)).toEqual([
      "dict(replace)+list()+str()",
      "list(append)+dict(recurse_list)+str()",
      undefined,
      "dict(replace)+list()+str()",
    ]);
  });
});
