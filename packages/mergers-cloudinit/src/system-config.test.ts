import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TraceEvent } from "@merge/core";
import { afterAll, describe, expect, it } from "vitest";
import { loadInstanceData } from "./instance-data.js";
import { loadSystemConfig } from "./system-config.js";

const root = mkdtempSync(join(tmpdir(), "merge-system-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let trees = 0;

/** A fresh directory holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const dir = join(root, String(trees++));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe("loadSystemConfig", () => {
  it("lets conf.d win over the base file and a later conf.d file over an earlier one", async () => {
    const cwd = tree({
      "cloud.cfg": "a: base\nb: base\nc: base\n",
      "cloud.cfg.d/10-x.cfg": "a: ten\nb: ten\n",
      "cloud.cfg.d/90-y.cfg": "a: ninety\n",
      "cloud.cfg.d/README": "a: never\n",
    });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd });
    expect(result.value).toEqual({ a: "ninety", b: "ten", c: "base" });
    expect(result.files.map((f) => [f.path, f.status, f.mergers])).toEqual([
      ["cloud.cfg", "merged", "list()+dict()+str()"],
      ["cloud.cfg.d/10-x.cfg", "merged", "list()+dict()+str()"],
      ["cloud.cfg.d/90-y.cfg", "merged", "list()+dict()+str()"],
    ]);
    expect(result.confd).toEqual({ path: "cloud.cfg.d", from: "default", exists: true });
  });

  it("merges each file with its own merge_how into the files above it (the highest first)", async () => {
    const cwd = tree({
      "cloud.cfg": "merge_how: 'dict(recurse_list)+list(append)'\nruncmd: [base]\n",
      "cloud.cfg.d/50.cfg": "runcmd: [confd]\n",
    });
    // cloud.cfg goes into what conf.d made, with its own mergers: its list is appended.
    expect((await loadSystemConfig({ file: "cloud.cfg", cwd })).value).toEqual({ runcmd: ["confd", "base"] });
  });

  it("reports the files cloud-init steps over and reads them as {}", async () => {
    const cwd = tree({
      "cloud.cfg": "a: 1\n",
      "cloud.cfg.d/bad.cfg": "a: [unclosed\n",
      "cloud.cfg.d/list.cfg": "- a\n",
      "cloud.cfg.d/empty.cfg": "",
    });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd });
    expect(result.value).toEqual({ a: 1 });
    expect(result.files.map((f) => [f.path, f.status, f.error?.code])).toEqual([
      ["cloud.cfg", "merged", undefined],
      ["cloud.cfg.d/bad.cfg", "ignored", "YAML_PARSE"],
      ["cloud.cfg.d/empty.cfg", "empty", undefined],
      ["cloud.cfg.d/list.cfg", "ignored", "SYSTEM_CONFIG"],
    ]);
    expect(result.warnings.map((w) => [w.code, w.file])).toEqual([
      ["SYSTEM_CONFIG_IGNORED", "cloud.cfg.d/bad.cfg"],
      ["SYSTEM_CONFIG_IGNORED", "cloud.cfg.d/list.cfg"],
    ]);
  });

  it("still reads FILE.d when the base file is missing", async () => {
    const cwd = tree({ "cloud.cfg.d/a.cfg": "x: 1\n" });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd });
    expect(result.value).toEqual({ x: 1 });
    expect(result.files[0]).toMatchObject({ path: "cloud.cfg", status: "missing" });
  });

  it("follows conf_d (stripped, relative to the working directory), and reads no conf.d when it is empty", async () => {
    const cwd = tree({
      "cloud.cfg": "conf_d: '  elsewhere.d '\na: base\n",
      "elsewhere.d/x.cfg": "a: elsewhere\n",
      "cloud.cfg.d/x.cfg": "a: default\n",
    });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd });
    expect(result.value).toEqual({ conf_d: "  elsewhere.d ", a: "elsewhere" });
    expect(result.confd).toEqual({ path: "elsewhere.d", from: "conf_d", exists: true });
    const none = tree({ "cloud.cfg": "conf_d: ''\na: base\n", "cloud.cfg.d/x.cfg": "a: default\n" });
    expect((await loadSystemConfig({ file: "cloud.cfg", cwd: none })).value).toEqual({
      conf_d: "",
      a: "base",
    });
  });

  it("stops where cloud-init raises: conf_d not a string, unknown mergers, text that is not UTF-8", async () => {
    const cwd = tree({ "cloud.cfg": "conf_d: 1\n" });
    await expect(loadSystemConfig({ file: "cloud.cfg", cwd })).rejects.toMatchObject({
      code: "SYSTEM_CONFIG",
    });
    const merger = tree({ "cloud.cfg": "merge_how: 'nope()'\na: 1\n" });
    await expect(loadSystemConfig({ file: "cloud.cfg", cwd: merger })).rejects.toMatchObject({
      code: "UNKNOWN_MERGER",
    });
    const bytes = tree({});
    writeFileSync(join(bytes, "cloud.cfg"), Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]));
    await expect(loadSystemConfig({ file: "cloud.cfg", cwd: bytes })).rejects.toMatchObject({
      code: "YAML_ENCODING",
    });
  });

  it("reads the directory given as confd instead of the one cloud-init would find", async () => {
    const cwd = tree({ "cloud.cfg": "conf_d: 5\na: base\n", "mine/x.cfg": "a: mine\n" });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd, confd: "mine" });
    expect(result.value).toEqual({ conf_d: 5, a: "mine" });
    expect(result.confd).toEqual({ path: "mine", from: "option", exists: true });
  });

  it("renders ## template: jinja files with instance data, and reads them as YAML without", async () => {
    const cwd = tree({ "cloud.cfg": "## template: jinja\nregion: '{{ v1.region }}'\nzone: {{ v1.nope }}\n" });
    const instanceData = loadInstanceData('{"v1": {"region": "eu-1"}}');
    const rendered = await loadSystemConfig({ file: "cloud.cfg", cwd, instanceData });
    expect(rendered.value).toEqual({ region: "eu-1", zone: "CI_MISSING_JINJA_VAR/nope" });
    expect(rendered.files[0]).toMatchObject({ rendered: true, status: "merged" });
    expect(rendered.warnings).toEqual([
      {
        code: "TEMPLATE_MISSING_VARIABLE",
        message: "cloud.cfg: the instance data has no 'nope'",
        file: "cloud.cfg",
      },
    ]);
    // Read as YAML, `{{ v1.nope }}` is a mapping used as a key, which PyYAML refuses: cloud-init reads {}.
    const plain = await loadSystemConfig({ file: "cloud.cfg", cwd });
    expect(plain.value).toEqual({});
    expect(plain.files[0]).toMatchObject({ status: "ignored", error: { code: "YAML_KEY" } });
  });

  it("keeps whole floats and typed keys in the exact result", async () => {
    const cwd = tree({ "cloud.cfg": "version: 9.0\n8080: port\n" });
    const result = await loadSystemConfig({ file: "cloud.cfg", cwd, values: "exact" });
    expect([...result.exact.keys()]).toEqual(["version", 8080]);
    expect(String(result.exact.get("version"))).toBe("9.0");
  });

  it("reads YAML 1.2 when asked", async () => {
    const cwd = tree({ "cloud.cfg": "on: yes\nmode: 0755\n" });
    expect((await loadSystemConfig({ file: "cloud.cfg", cwd })).value).toEqual({ true: true, mode: 493 });
    expect((await loadSystemConfig({ file: "cloud.cfg", cwd, yaml: "1.2" })).value).toEqual({
      on: "yes",
      mode: 755,
    });
  });

  it("numbers trace events by the file in result.files", async () => {
    const cwd = tree({ "cloud.cfg": "a: base\nb: base\n", "cloud.cfg.d/x.cfg": "a: confd\n" });
    const events: TraceEvent[] = [];
    const result = await loadSystemConfig({
      file: "cloud.cfg",
      cwd,
      trace: { record: (e) => events.push(e) },
    });
    const at = (key: string) => events.filter((e) => e.path[0] === key).map((e) => [e.action, e.document]);
    expect(at("a")).toEqual([
      ["added", 1],
      ["kept", 0],
    ]);
    expect(at("b")).toEqual([["added", 0]]);
    expect(result.files[1]!.path).toBe("cloud.cfg.d/x.cfg");
  });
});
