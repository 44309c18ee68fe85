import { isUtf8 } from "node:buffer";

// The transfer encodings Python's email package decodes in get_payload(decode=True); any other (7bit, 8bit, binary,
// none, a misspelling) leaves the text as it is.
const DECODED = new Set(["base64", "quoted-printable", "x-uuencode", "uuencode", "uue", "x-uue"]);

/**
 * The bytes cloud-init gets for a MIME part that is not base64 or quoted-printable encoded. cloud-init parses the
 * message from a string (the user-data decoded as UTF-8), and Python's `get_payload(decode=True)` turns a part's text
 * that is not ASCII into bytes with `raw-unicode-escape`: U+0080..U+00FF become single Latin-1 bytes, everything above
 * becomes the six or ten characters `\uXXXX` / `\UXXXXXXXX`. cloud-init then decodes those bytes as UTF-8 with
 * surrogateescape, so `é` ends up a lone surrogate (PyYAML refuses the whole part) and `Система` the text
 * `\u0421...` (a plain YAML scalar keeps it so, a double-quoted one reads the escapes back). Terraform's
 * `cloudinit_config` writes every part this way (7bit, the text as is). `transferEncoding` is the first
 * Content-Transfer-Encoding header's value as Python reads it (left-trimmed); `payload` the part's bytes.
 */
export function pythonTextPayload(payload: Buffer, transferEncoding: string | undefined): Buffer {
  if (DECODED.has((transferEncoding ?? "").toLowerCase())) return payload;
  // Only text the whole message's UTF-8 decoding produced: bytes that are not UTF-8 never get this far in cloud-init.
  if (!payload.some((byte) => byte >= 0x80) || !isUtf8(payload)) return payload;
  const out: number[] = [];
  for (const char of payload.toString("utf8")) {
    const code = char.codePointAt(0)!;
    if (code < 0x100) out.push(code);
    else {
      const escaped = code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
      for (let i = 0; i < escaped.length; i++) out.push(escaped.charCodeAt(i));
    }
  }
  return Buffer.from(out);
}

const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");

/**
 * `bytes.decode("utf-8", "surrogateescape")`, as cloud-init decodes a part's payload: every byte that is not part of
 * a valid UTF-8 sequence becomes the lone surrogate U+DC80..U+DCFF, so the text still carries it (PyYAML then refuses
 * it; Jinja renders it through).
 */
export function decodeSurrogateEscape(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = validSequenceAt(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]!);
      i++;
    } else {
      out += Buffer.from(bytes.subarray(i, i + length)).toString("utf8");
      i += length;
    }
  }
  return out;
}

/** The length of the well-formed UTF-8 sequence starting at `i` (no overlong forms, surrogates or code points past U+10FFFF), or 0. */
function validSequenceAt(bytes: Uint8Array, i: number): number {
  const first = bytes[i]!;
  if (first < 0x80) return 1;
  const [length, low, high] =
    first >= 0xc2 && first <= 0xdf
      ? [2, 0x80, 0xbf]
      : first === 0xe0
        ? [3, 0xa0, 0xbf]
        : first === 0xed
          ? [3, 0x80, 0x9f]
          : first >= 0xe1 && first <= 0xef
            ? [3, 0x80, 0xbf]
            : first === 0xf0
              ? [4, 0x90, 0xbf]
              : first >= 0xf1 && first <= 0xf3
                ? [4, 0x80, 0xbf]
                : first === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0];
  if (length === 0 || i + length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k]!;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
