import { describe, expect, it } from "vitest";
import { parseUserData } from "./mime.js";
import { partFilename } from "./part-filename.js";

// Expected names are what cloud-init 22.4.2 (Python's email package, compat32) gives each part.
const disposition = (value: string, lineBreak: "\n" | "\r\n" = "\n") =>
  partFilename([["Content-Disposition", value.replaceAll("\n", "\r\n")]], lineBreak);

describe("partFilename", () => {
  it("unquotes, trims, and takes the first filename parameter in any case", () => {
    expect(disposition('attachment; filename="a b.yml"')).toBe("a b.yml");
    expect(disposition('attachment; filename="a\\"b.yml"')).toBe('a"b.yml');
    expect(disposition('attachment; filename="\\\\x.yml"')).toBe("\\x.yml");
    expect(disposition('attachment; filename = "sp.yml" ')).toBe("sp.yml");
    expect(disposition('attachment; filename="  pad.yml  "')).toBe("pad.yml");
    expect(disposition("attachment; FILENAME=u.yml")).toBe("u.yml");
    expect(disposition("attachment; filename=f.yml; filename=g.yml")).toBe("f.yml");
    expect(disposition('attachment; filename="a;b.yml"')).toBe("a;b.yml");
    expect(disposition("attachment; filename=a;b.yml")).toBe("a");
  });

  it("is literal where Python is: single quotes, an open quote, angle brackets, encoded words", () => {
    expect(disposition("attachment; filename='x.yml'")).toBe("'x.yml'");
    expect(disposition('attachment; filename="x.yml')).toBe('"x.yml');
    expect(disposition("attachment; filename=<x.yml>")).toBe("x.yml");
    expect(disposition("attachment; filename==?utf-8?b?w6kueW1s?=")).toBe("=?utf-8?b?w6kueW1s?=");
  });

  it("keeps a folded line break inside the value, as the message wrote it", () => {
    expect(disposition('attachment; filename="f4.yml"\n folded')).toBe('"f4.yml"\n folded');
    expect(disposition('attachment; filename="f4.yml"\n folded', "\r\n")).toBe('"f4.yml"\r\n folded');
    expect(disposition("attachment; filename=f4.yml\n folded")).toBe("f4.yml\n folded");
    expect(disposition('attachment;\n filename="f4.yml"')).toBe("f4.yml");
  });

  it("decodes RFC 2231 values and pieces, and reads the header as UTF-8", () => {
    expect(disposition("attachment; filename*=utf-8''%C3%A9.yml")).toBe("é.yml");
    expect(disposition('attachment; filename*0="ab"; filename*1="c.yml"')).toBe("abc.yml");
    expect(disposition(`attachment; filename="${Buffer.from("é.yml").toString("latin1")}"`)).toBe("é.yml");
  });

  it("falls back to the Content-Type's name, and gives nothing without either", () => {
    expect(partFilename([["Content-Type", 'text/cloud-config; name="n.yml"']], "\n")).toBe("n.yml");
    expect(partFilename([["Content-Type", "text/cloud-config"]], "\n")).toBeUndefined();
    expect(disposition('attachment; filename=""')).toBe("");
  });
});

describe("part names in parseUserData", () => {
  it("names parts as cloud-init does (its list of merged files turns the line break into a space)", async () => {
    const message = [
      "MIME-Version: 1.0",
      "Content-Type: multipart/mixed; boundary=B",
      "",
      "--B",
      "Content-Type: text/cloud-config",
      'Content-Disposition: attachment; filename="é.yml"',
      "",
      "a: 1",
      "--B",
      "Content-Type: text/cloud-config",
      'Content-Disposition: attachment; filename="f4.yml"',
      " folded",
      "",
      "b: 2",
      "--B",
      "Content-Type: text/cloud-config",
      'Content-Disposition: attachment; filename=""',
      "",
      "c: 3",
      "--B--",
      "",
    ].join("\n");
    const data = await parseUserData(Buffer.from(message, "utf8"));
    expect(data.parts.map((p) => p.name)).toEqual(["é.yml", '"f4.yml"\n folded', "part-003"]);
  });
});
