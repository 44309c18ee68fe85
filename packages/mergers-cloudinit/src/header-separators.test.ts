import { describe, expect, it } from "vitest";
import { withHeaderSeparators } from "./header-separators.js";
import { parseUserData } from "./mime.js";

const separated = (text: string) => withHeaderSeparators(Buffer.from(text)).toString("latin1");
const textOf = (part: { readonly text?: string | Uint8Array }) =>
  typeof part.text === "string" ? part.text : Buffer.from(part.text ?? []).toString("utf8");

describe("withHeaderSeparators", () => {
  it("passes a message whose header blocks end with blank lines on unchanged, as the same buffer", () => {
    const message = Buffer.from(
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/cloud-config\n\na: 1\n--B--\n',
    );
    expect(withHeaderSeparators(message)).toBe(message);
  });

  it("ends the headers at the first line that is not one, as Python's email parser does", () => {
    expect(separated("Content-Type: text/cloud-config\n# mime-version: x\nruncmd: [a]\n")).toBe(
      "Content-Type: text/cloud-config\n\n# mime-version: x\nruncmd: [a]\n",
    );
    // A name with a space is not a header name; a continuation line is part of the header before it.
    expect(separated("MIME-Version: 1.0\nX-Long: a\n b\nfoo bar: 1\n")).toBe(
      "MIME-Version: 1.0\nX-Long: a\n b\n\nfoo bar: 1\n",
    );
    expect(separated("#cloud-config\nmime-version: 1\r\n")).toBe("\r\n#cloud-config\nmime-version: 1\r\n");
  });

  it("gives a part whose headers run into the next boundary a blank line, and takes blanks off boundary lines", () => {
    const message = [
      "Content-Type: multipart/mixed; boundary=B",
      "MIME-Version: 1.0",
      "--B ",
      "Content-Type: text/x-shellscript",
      "--B\t",
      "--B",
      "Content-Type: multipart/alternative;",
      ' boundary="in ner"',
      "",
      "--in ner",
      "Content-Type: text/cloud-config",
      "a: 1",
      "--in ner--",
      "--B-- ",
      "",
    ].join("\r\n");
    expect(separated(message)).toBe(
      [
        "Content-Type: multipart/mixed; boundary=B",
        "MIME-Version: 1.0",
        "",
        "--B",
        "Content-Type: text/x-shellscript",
        "",
        "--B",
        "",
        "--B",
        "Content-Type: multipart/alternative;",
        ' boundary="in ner"',
        "",
        "--in ner",
        "Content-Type: text/cloud-config",
        "a: 1",
        "",
        "--in ner--",
        "--B--",
        "",
      ].join("\r\n"),
    );
  });
});

describe("parseUserData on headers without a blank line after them (cloud-init 22.4.2's results)", () => {
  it("reads the line after the last header as the start of the body", async () => {
    const data = await parseUserData(
      "Content-Type: text/plain\nX-A: 1\n#cloud-config\n# mime-version: x\nb: 2\n",
    );
    expect(data.parts.map((p) => [p.name, p.type, textOf(p)])).toEqual([
      ["part-001", "text/cloud-config", "#cloud-config\n# mime-version: x\nb: 2\n"],
    ]);
  });

  it("keeps every part of a multipart message whose parts lack the blank line", async () => {
    const message = [
      'Content-Type: multipart/mixed; boundary="B"',
      "MIME-Version: 1.0",
      "",
      "--B",
      "Content-Type: text/cloud-config",
      "foo: bar",
      "#x",
      "runcmd: [a]",
      "",
      "b: 1",
      "--B",
      "Content-Type: text/x-shellscript",
      'Content-Disposition: attachment; filename="s.sh"',
      "#cloud-config",
      "c: 2",
      "--B ",
      "Content-Type: text/cloud-config",
      "# a comment ends the headers",
      "Content-Transfer-Encoding: base64",
      "",
      "ZDogMwo=",
      "--B--",
      "",
    ].join("\n");
    const data = await parseUserData(message);
    // `foo: bar` is a header; `Content-Transfer-Encoding` after the comment is body text, so nothing is decoded.
    expect(data.parts.map((p) => [p.name, p.type, textOf(p)])).toEqual([
      ["part-001", "text/cloud-config", "#x\nruncmd: [a]\n\nb: 1"],
      ["s.sh", "text/cloud-config", "#cloud-config\nc: 2"],
      [
        "part-003",
        "text/cloud-config",
        "# a comment ends the headers\nContent-Transfer-Encoding: base64\n\nZDogMwo=",
      ],
    ]);
    expect(data.skipped).toEqual([]);
  });
});

describe("lines Python's email parser skips in a header block (cloud-init 22.4.2's results)", () => {
  it("takes out a first `From ` line, a line with no header name and a continuation of no header", () => {
    expect(separated("From nobody\n:empty\n folded\nContent-Type: text/cloud-config\n\na: 1\n")).toBe(
      "Content-Type: text/cloud-config\n\na: 1\n",
    );
  });

  it("reads a `From ` line that ends the header block as the body's first line, without the blank after it", () => {
    expect(separated("MIME-Version: 1.0\nFrom nobody\n\n#cloud-config\nruncmd: [a]\n")).toBe(
      "MIME-Version: 1.0\n\nFrom nobody\n#cloud-config\nruncmd: [a]\n",
    );
  });

  it("splits parts as cloud-init does around such lines", async () => {
    const message = [
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=B",
      "",
      "--B",
      "From nobody",
      "Content-Type: text/cloud-config",
      ":empty",
      " folded",
      "X-A: 1",
      "",
      "#cloud-config",
      "b: 2",
      "--B",
      "Content-Type: text/cloud-config",
      "From x",
      "",
      "#cloud-config",
      "c: 1",
      "--B",
      "Content-Type: text/cloud-config",
      "From x",
      "d: 4",
      "--B",
      "From nobody",
      "",
      "#cloud-config",
      "e: 5",
      "--B--",
      "",
    ].join("\n");
    const data = await parseUserData(message);
    // cloud-init merges b and e; it fails to read part-002 as YAML (line 3) and finds part-003 empty: `d: 4` is a
    // header there, after a skipped `From ` line in the middle of the block.
    expect(data.parts.map((p) => [p.name, p.type, textOf(p)])).toEqual([
      ["part-001", "text/cloud-config", "#cloud-config\nb: 2"],
      ["part-002", "text/cloud-config", "From x\n#cloud-config\nc: 1"],
      ["part-003", "text/cloud-config", ""],
      ["part-004", "text/cloud-config", "#cloud-config\ne: 5"],
    ]);
  });

  it("leaves a message that is only a `From ` line's body no cloud-config", async () => {
    const data = await parseUserData("MIME-Version: 1.0\nFrom nobody\n\n#cloud-config\nruncmd: [a]\n");
    expect(data.parts).toEqual([]);
    expect(data.skipped.map((s) => s.type)).toEqual(["text/plain"]);
  });
});

describe("multipart structure as Python's email parser reads it (cloud-init 22.4.2's results)", () => {
  const cloudConfigs = async (message: string) =>
    (await parseUserData(message)).parts.map((p) => [p.name, textOf(p)]);

  it("ignores what follows the closing boundary (the epilogue), boundary lines included", async () => {
    const message =
      "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/cloud-config\n\na: 1\n--B--\n--B\nContent-Type: text/cloud-config\n\nb: 2\n--B--\n";
    expect(await cloudConfigs(message)).toEqual([["part-001", "a: 1"]]);
  });

  it("reads no part in a nested multipart that reuses its parent's boundary: its parts are the parent's", async () => {
    const message = [
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=B",
      "",
      "--B",
      "Content-Type: multipart/mixed; boundary=B",
      "",
      "--B",
      "Content-Type: text/cloud-config",
      "",
      "a: 1",
      "--B",
      "Content-Type: text/cloud-config",
      "",
      "b: 2",
      "--B--",
      "--B",
      "Content-Type: text/cloud-config",
      "",
      "c: 3",
      "--B--",
      "",
    ].join("\n");
    // The first `--B--` closes the outer message; `c: 3` is its epilogue.
    expect(await cloudConfigs(message)).toEqual([
      ["part-001", "a: 1"],
      ["part-002", "b: 2"],
    ]);
  });

  it("ends a nested multipart at any enclosing boundary, however deep, and keeps the parts after it", async () => {
    const message = [
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=A",
      "",
      "--A",
      "Content-Type: multipart/mixed; boundary=b1",
      "",
      "--b1",
      "Content-Type: multipart/mixed; boundary=A",
      "",
      "--A",
      "Content-Type: text/cloud-config",
      "",
      "x: 1",
      "--A",
      "Content-Type: multipart/mixed; boundary=C",
      "",
      "--C",
      "Content-Type: text/cloud-config",
      "",
      "y: 2",
      "--A",
      "Content-Type: text/cloud-config",
      "",
      "z: 3",
      "--A--",
      "--A",
      "Content-Type: text/cloud-config",
      "",
      "w: 4",
      "",
    ].join("\n");
    expect(await cloudConfigs(message)).toEqual([
      ["part-001", "x: 1"],
      ["part-002", "y: 2"],
      ["part-003", "z: 3"],
    ]);
  });

  it("numbers a header-only part before a nested multipart without parts, and not the multipart", async () => {
    const message = [
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=B",
      "--B",
      "Merge-Type: list(append)+dict(recurse_array)",
      "packages: [git]",
      "--B ",
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=B",
      "",
      "--B",
      "Content-Type: text/cloud-config",
      "",
      "#cloud-config",
      "runcmd: [a]",
      "--B--",
      "",
    ].join("\n");
    const data = await parseUserData(message);
    expect(data.parts.map((p) => [p.name, textOf(p)])).toEqual([["part-002", "#cloud-config\nruncmd: [a]"]]);
    expect(data.skipped.map((s) => s.name)).toEqual(["part-001"]);
  });
});
