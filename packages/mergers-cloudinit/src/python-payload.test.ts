import { describe, expect, it } from "vitest";
import { decodeSurrogateEscape, pythonTextPayload } from "./python-payload.js";

const bytesOf = (text: string, encoding?: string) => pythonTextPayload(Buffer.from(text, "utf8"), encoding);

describe("pythonTextPayload", () => {
  it("gives Latin-1 characters as single bytes and the others as \\u / \\U escapes, as raw-unicode-escape does", () => {
    expect([...bytesOf("café", "7bit")]).toEqual([0x63, 0x61, 0x66, 0xe9]);
    expect(bytesOf("Ж и 🚀", undefined).toString("latin1")).toBe("\\u0416 \\u0438 \\U0001f680");
  });
  it("leaves ASCII, base64 and quoted-printable parts, and bytes that are not UTF-8, as they are", () => {
    expect(bytesOf("plain ascii", "8bit").toString("utf8")).toBe("plain ascii");
    expect(bytesOf("café", "Base64").toString("utf8")).toBe("café");
    expect(bytesOf("café", "quoted-printable").toString("utf8")).toBe("café");
    expect([...pythonTextPayload(Buffer.from([0x61, 0xff]), "7bit")]).toEqual([0x61, 0xff]);
  });
});

describe("decodeSurrogateEscape", () => {
  it("keeps valid UTF-8 and turns every other byte into U+DC80..U+DCFF, as Python's surrogateescape does", () => {
    expect(decodeSurrogateEscape(Buffer.from("café ✓", "utf8"))).toBe("café ✓");
    expect(decodeSurrogateEscape(Buffer.from([0x61, 0xe9, 0x62]))).toBe("a\udce9b");
    // A truncated sequence, an overlong form and an encoded surrogate are escaped byte by byte.
    expect(decodeSurrogateEscape(Buffer.from([0xe2, 0x82, 0x41]))).toBe("\udce2\udc82A");
    expect(decodeSurrogateEscape(Buffer.from([0xc0, 0xaf]))).toBe("\udcc0\udcaf");
    expect(decodeSurrogateEscape(Buffer.from([0xed, 0xa0, 0x80]))).toBe("\udced\udca0\udc80");
  });
});
