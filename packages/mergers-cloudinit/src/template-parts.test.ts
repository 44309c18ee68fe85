import { describe, expect, it } from "vitest";
import { loadInstanceData } from "./instance-data.js";
import { mergeUserData } from "./user-data.js";

const instanceData = loadInstanceData(
  '{"v1": {"cloud-name": "aws", "region": "eu"}, "ds": {"meta-data": {"x": 1}}}',
);

describe("instance data", () => {
  it("copies v1 to the top level and gives every key with an operator a _ alias, in sorted order", () => {
    const variables = instanceData.variables();
    expect(Object.keys(variables)).toEqual(["ds", "v1", "cloud-name", "cloud_name", "region"]);
    expect(variables.ds).toEqual({ "meta-data": { x: 1 }, meta_data: { x: 1 } });
    // Each call is a fresh copy: a template that changes its variables changes nothing for the next part.
    (variables.v1 as Record<string, unknown>).region = "changed";
    expect((instanceData.variables().v1 as Record<string, unknown>).region).toBe("eu");
  });

  it("refuses JSON that is not an object (INSTANCE_DATA) and text that is not JSON (JSON_PARSE)", () => {
    expect(() => loadInstanceData("[1]", { file: "i.json" })).toThrow(
      expect.objectContaining({ code: "INSTANCE_DATA" }),
    );
    expect(() => loadInstanceData("{", { file: "i.json" })).toThrow(
      expect.objectContaining({ code: "JSON_PARSE" }),
    );
  });
});

describe("## template: jinja user-data parts", () => {
  it("render with the instance data; a missing variable prints cloud-init's marker and is reported", async () => {
    const result = await mergeUserData(
      "## template: jinja\n#cloud-config\nregion: {{ v1.region }}\ncloud: {{ cloud_name }}\nmd: {{ ds.meta_data.x }}\nzone: {{ nothing }}\n",
      { instanceData },
    );
    expect(result.value).toEqual({ region: "eu", cloud: "aws", md: 1, zone: "CI_MISSING_JINJA_VAR/nothing" });
    expect(result.templates).toEqual([
      { name: "part-001", status: "cloud-config", type: "text/cloud-config", missing: ["nothing"] },
    ]);
  });

  it("are ignored without instance data, as cloud-init ignores them without its instance-data file", async () => {
    const result = await mergeUserData("## template: jinja\n#cloud-config\nregion: {{ v1.region }}\n");
    expect(result.value).toBeNull();
    expect(result.templates).toMatchObject([
      { status: "ignored", reason: "there is no instance data to render it with" },
    ]);
  });

  it("that do not render are ignored, with the error at the part's own line", async () => {
    const result = await mergeUserData(
      "Content-Type: multipart/mixed; boundary=XX\nMIME-Version: 1.0\n\n--XX\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--XX\nContent-Type: text/jinja2\n\n## template: jinja\n#cloud-config\nb: 1\nregion: {% if %}\n--XX--\n",
      { instanceData },
    );
    expect(result.value).toEqual({ a: 1 });
    const [outcome] = result.templates;
    expect(outcome).toMatchObject({ status: "ignored", error: { code: "TEMPLATE_SYNTAX" } });
    expect(outcome!.error!.source).toMatchObject({ line: 4 });
  });

  it("render text that is not UTF-8 as cloud-init does, and the cloud-config handler then refuses it", async () => {
    // A Terraform-style 7bit part: é reaches cloud-init 22.4.2 as a byte that is not UTF-8. Its jinja handler renders
    // the template anyway and the cloud-config handler fails on it, so the result is {} (a failed merge), not nothing.
    const raw =
      'Content-Type: multipart/mixed; boundary="TFB"\nMIME-Version: 1.0\r\n\r\n--TFB\r\n' +
      "Content-Transfer-Encoding: 7bit\r\nContent-Type: text/jinja2\r\nMime-Version: 1.0\r\n\r\n" +
      "## template: jinja\n#cloud-config\nhostname: {{ v1.region }}-é\n\r\n--TFB--\r\n";
    const result = await mergeUserData(raw, { instanceData });
    expect(result.templates).toMatchObject([{ name: "part-001", status: "cloud-config" }]);
    expect(result.merged).toEqual([]);
    expect(result.value).toEqual({});
    expect(result.errors).toHaveLength(1);
  });

  it("that render to a script are reported as such and not merged", async () => {
    const result = await mergeUserData("## template: jinja\n#!/bin/sh\necho {{ v1.region }}\n", {
      instanceData,
    });
    expect(result.value).toBeNull();
    expect(result.templates).toEqual([
      { name: "part-001", status: "other", type: "text/x-shellscript", missing: [] },
    ]);
  });
});
