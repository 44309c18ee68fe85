import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { contentTypeOf, isMimeUserData, parseUserData } from "./mime.js";
import { mergeUserData } from "./user-data.js";

const B = "BOUNDARY42";
const message = (...parts: string[]) =>
  `Content-Type: multipart/mixed; boundary="${B}"\nMIME-Version: 1.0\n\n${parts.map((p) => `--${B}\n${p}\n`).join("")}--${B}--\n`;
const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");

describe("contentTypeOf", () => {
  it("reads the first characters, lowercased and after leading whitespace, longest prefix first", () => {
    expect(contentTypeOf("#cloud-config\na: 1")).toBe("text/cloud-config");
    expect(contentTypeOf("  #Cloud-Config-JSONP\n[]")).toBe("text/cloud-config-jsonp");
    expect(contentTypeOf("#cloud-config-archive\n- x")).toBe("text/cloud-config-archive");
    expect(contentTypeOf("#!/bin/sh")).toBe("text/x-shellscript");
    expect(contentTypeOf("#include-once\nhttp://x")).toBe("text/x-include-once-url");
    expect(contentTypeOf("a: 1")).toBeUndefined();
  });
  it("knows cloud-init 22.4's prefixes only: no #upstart-job, but the text/x-shellscript-per-* names", () => {
    expect(contentTypeOf("#upstart-job\nstart on runlevel 2")).toBeUndefined();
    expect(contentTypeOf("text/x-shellscript-per-boot\necho hi")).toBe("text/x-shellscript-per-boot");
    expect(contentTypeOf("Text/X-Shellscript-Per-Instance\n")).toBe("text/x-shellscript-per-instance");
    expect(contentTypeOf("text/x-shellscript-per-once")).toBe("text/x-shellscript-per-once");
  });
  it("skips the whitespace Python's lstrip skips, not a byte-order mark (cloud-init 22.4.2)", () => {
    expect(contentTypeOf("\x1c\x85#cloud-config\n")).toBe("text/cloud-config");
    expect(contentTypeOf("\ufeff#cloud-config\n")).toBeUndefined();
  });
});

describe("isMimeUserData", () => {
  it("finds MIME-Version anywhere in the first 4096 bytes, in any case, as cloud-init does", () => {
    expect(isMimeUserData(Buffer.from("#cloud-config\n# MiMe-VeRsIoN: 1.0\na: 1\n"))).toBe(true);
    expect(isMimeUserData(Buffer.from("a: 'mime-version:'\n"))).toBe(true);
    expect(isMimeUserData(Buffer.from("#cloud-config\nmime-version 1.0\n"))).toBe(false);
    const late = Buffer.from(`#cloud-config\n#${"x".repeat(4096)}\nmime-version: 1.0\n`);
    expect(isMimeUserData(late)).toBe(false);
    // Only the first 4096 bytes of a view are read, not those of the buffer behind it.
    expect(isMimeUserData(late.subarray(4090))).toBe(true);
  });
});

describe("parseUserData", () => {
  it("takes a plain #cloud-config blob as one part named part-001", async () => {
    const data = await parseUserData("#cloud-config\na: 1\n");
    expect(data.parts).toEqual([
      {
        name: "part-001",
        type: "text/cloud-config",
        text: "#cloud-config\na: 1\n",
        headers: [["Content-Type", "text/cloud-config"]],
      },
    ]);
  });
  it("inflates a gzipped blob", async () => {
    const result = await mergeUserData(gzipSync("#cloud-config\na: 1\n"));
    expect(result.value).toEqual({ a: 1 });
  });
  it("leaves a plain blob that is not cloud-config out", async () => {
    const result = await mergeUserData("#!/bin/sh\necho hi\n");
    expect(result.value).toBeNull();
    expect(result.skipped).toEqual([
      { name: "part-001", type: "text/x-shellscript", reason: expect.any(String) },
    ]);
  });
  it("decodes base64 and quoted-printable parts and keeps headers as written", async () => {
    const data = await parseUserData(
      message(
        `Content-Type: text/cloud-config\nContent-Transfer-Encoding: base64\nMerge-Type: list(append)\n\n${base64("a: [1]\n")}`,
        "Content-Type: text/cloud-config\nContent-Transfer-Encoding: quoted-printable\n\nb: x=3Dy\n",
      ),
    );
    expect(data.parts.map((p) => p.text)).toEqual(["a: [1]\n", "b: x=y\n"]);
    expect(data.parts[0]!.headers).toContainEqual(["Merge-Type", "list(append)"]);
  });
  it("types text/plain and text/x-shellscript parts by their first line", async () => {
    const result = await mergeUserData(
      message(
        "Content-Type: text/plain\n\n#cloud-config\na: 1\n",
        "Content-Type: text/x-shellscript\n\n  #cloud-config\nb: 2\n",
      ),
    );
    expect(result.value).toEqual({ a: 1, b: 2 });
  });
  it("reads a part without Content-Type as text/plain, also when it is an attachment", async () => {
    const result = await mergeUserData(
      message(
        'Content-Disposition: attachment; filename="a.yaml"\nContent-Transfer-Encoding: base64\n\n' +
          base64("#cloud-config\na: 1\n"),
        "Content-Type: nonsense\n\n#cloud-config\nb: 2\n",
      ),
    );
    expect(result.value).toEqual({ a: 1, b: 2 });
    expect(result.merged).toEqual(["a.yaml", "part-002"]);
  });
  it("does not retype a text/cloud-config part that starts like a JSON patch", async () => {
    const result = await mergeUserData(
      message(
        'Content-Type: text/cloud-config\n\n#cloud-config-jsonp\n[{"op": "add", "path": "/a", "value": 1}]\n',
      ),
    );
    expect(result.errors.map((e) => e.code)).toEqual(["CLOUD_CONFIG_PART"]);
  });
  it("inflates gzip parts, and loses their Merge-Type header as cloud-init does", async () => {
    const gz = (text: string) =>
      `Content-Type: application/gzip\nContent-Transfer-Encoding: base64\nMerge-Type: dict(recurse_list)+list(append)\n\n${base64(gzipSync(text))}`;
    const result = await mergeUserData(
      message("Content-Type: text/cloud-config\n\na: [1]\n", gz("#cloud-config\na: [2]\n")),
    );
    expect(result.value).toEqual({ a: [2] });
  });
  it("fails with MIME_PARSE on a MIME message that is not UTF-8, where cloud-init stops", async () => {
    // cloud-init 22.4.2 raises UnicodeDecodeError for this message and merges nothing of it.
    const latin1 = Buffer.from(
      message(
        "Content-Type: text/cloud-config\n\n#cloud-config\na: café",
        "Content-Type: text/cloud-config\n\nb: 1",
      ),
      "latin1",
    );
    await expect(parseUserData(latin1)).rejects.toMatchObject({ code: "MIME_PARSE" });
    // Not MIME, the same bytes are one part that PyYAML (and so cloud-init) refuses, nothing more.
    expect((await mergeUserData(Buffer.from("#cloud-config\na: café\n", "latin1"))).errors).toMatchObject([
      { code: "YAML_ENCODING" },
    ]);
  });
  it("fails with MIME_PARSE on a gzip part that cannot be inflated", async () => {
    await expect(
      parseUserData(
        message("Content-Type: application/x-gzip\nContent-Transfer-Encoding: base64\n\nbm90IGd6aXA="),
      ),
    ).rejects.toMatchObject({ code: "MIME_PARSE" });
  });
  it("stops a gzip bomb with SIZE_LIMIT", async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024));
    await expect(parseUserData(bomb, { maxInflatedBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: "SIZE_LIMIT",
    });
    const part = `Content-Type: application/gzip\nContent-Transfer-Encoding: base64\n\n${base64(bomb)}`;
    await expect(parseUserData(message(part), { maxInflatedBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: "SIZE_LIMIT",
    });
  });
  it("names parts by file name, else part-NNN counting every attached part", async () => {
    const data = await parseUserData(
      message(
        "Content-Type: text/x-shellscript\n\n#!/bin/sh\n",
        'Content-Type: text/cloud-config\nContent-Disposition: attachment; filename="named.yaml"\n\na: 1\n',
        "Content-Type: text/cloud-config\n\nb: 1\n",
      ),
    );
    expect(data.parts.map((p) => p.name)).toEqual(["named.yaml", "part-003"]);
    expect(data.skipped.map((p) => p.name)).toEqual(["part-001"]);
  });
  it("leaves #include parts out: fetching URLs is not this library's job", async () => {
    const data = await parseUserData(
      message("Content-Type: text/plain\n\n#include\nhttp://example.invalid/x\n"),
    );
    expect(data.skipped[0]).toMatchObject({ type: "text/x-include-url" });
  });
  it("explodes #cloud-config-archive parts with their exact-case headers", async () => {
    const archive = [
      "#cloud-config-archive",
      "- {content: 'a: [1]'}",
      "- {content: 'a: [2]', Merge-Type: 'dict(recurse_list)+list(append)', filename: two.yaml}",
      "- {content: 'a: [3]', merge-type: 'dict(recurse_list)+list(append)'}",
      "- 42",
    ].join("\n");
    const result = await mergeUserData(message(`Content-Type: text/plain\n\n${archive}\n`));
    expect(result.value).toEqual({ a: [3] });
    expect(result.merged).toEqual(["part-001", "two.yaml", "part-003"]);
  });
  it("reads non-ASCII text in a 7bit part as Python's email package hands it to cloud-init (Terraform's MIME)", async () => {
    // Terraform's cloudinit_config writes parts 7bit with the text as is; cloud-init 22.4.2 (checked with the real
    // one) rejects a part holding é (a lone surrogate for PyYAML) and reads Cyrillic as \\u escapes, which only a
    // double-quoted scalar turns back into the letters.
    const part = (name: string, text: string) =>
      `--TFB\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: 7bit\r\n` +
      `Content-Type: text/cloud-config\r\nMime-Version: 1.0\r\n\r\n${text}\r\n`;
    const raw =
      'Content-Type: multipart/mixed; boundary="TFB"\nMIME-Version: 1.0\r\n\r\n' +
      part("one.yaml", "#cloud-config\n# commentaire: déjà vu\nruncmd: [one]\n") +
      part("two.yaml", '#cloud-config\nmotd: Система\nquoted: "Система"\nplain_emoji: go 🚀\n') +
      "--TFB--\r\n";
    const result = await mergeUserData(raw);
    expect(result.value).toEqual({
      motd: "\\u0421\\u0438\\u0441\\u0442\\u0435\\u043c\\u0430",
      quoted: "Система",
      plain_emoji: "go \\U0001f680",
    });
    expect(result.merged).toEqual(["two.yaml"]);
    expect(result.errors.map((error) => error.code)).toEqual(["YAML_ENCODING"]);
    // Encoded the way make-mime encodes UTF-8 text, the same part is read as written.
    const encoded = message(
      `Content-Type: text/cloud-config; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n${base64("#cloud-config\nmotd: Система\n")}`,
    );
    expect((await mergeUserData(encoded)).value).toEqual({ motd: "Система" });
  });
  it("merges an archive entry that starts with #upstart-job as cloud-config, as cloud-init 22.4 does", async () => {
    // 22.4 no longer knows #upstart-job, so the entry takes the archive's default type (checked with the real one).
    const archive = [
      "#cloud-config-archive",
      '- content: "#upstart-job\\nrunlevel: 2\\n"',
      '- {content: "text/x-shellscript-per-boot\\necho hi\\n", filename: boot.sh}',
    ].join("\n");
    const result = await mergeUserData(archive);
    expect(result.value).toEqual({ runlevel: 2 });
    expect(result.merged).toEqual(["part-001"]);
    expect(result.skipped).toMatchObject([{ name: "boot.sh", type: "text/x-shellscript-per-boot" }]);
  });
});
