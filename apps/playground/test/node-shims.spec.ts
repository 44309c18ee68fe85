// The browser's `node:zlib` (src/shims/zlib.ts) against Node's own, on what user-data may hold: several gzip
// members, zero padding, garbage, truncation, a damaged CRC, other formats, and a bomb past the budget.
import { deflateRawSync, deflateSync, gunzipSync as nodeGunzip, gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { gunzipSync as shimGunzip } from "../src/shims/zlib.js";

const LIMIT = 1_000_000;
const a = gzipSync("hello ");
const b = gzipSync("world");
const damaged = Buffer.from(a);
damaged[damaged.length - 6]! ^= 0xff;

const CASES: Record<string, Uint8Array> = {
  "one member": a,
  "two members": Buffer.concat([a, b]),
  "zero padding": Buffer.concat([a, Buffer.alloc(8)]),
  "a member after zero padding": Buffer.concat([a, Buffer.alloc(2), b]),
  "trailing garbage": Buffer.concat([a, Buffer.from("garbage!")]),
  "truncated trailer": a.subarray(0, a.length - 4),
  "header only": a.subarray(0, 10),
  "damaged CRC": damaged,
  "not compressed": Buffer.from("#cloud-config\n"),
  "empty content": gzipSync(""),
  "zlib format": deflateSync("x"),
  "raw deflate": deflateRawSync("x"),
  "bomb past the budget": gzipSync(Buffer.alloc(5 * LIMIT)),
};

function outcome(gunzip: (data: Uint8Array) => Uint8Array, data: Uint8Array): string {
  try {
    return `inflates to ${JSON.stringify(Buffer.from(gunzip(data)).toString("latin1"))}`;
  } catch (error) {
    return error instanceof RangeError ? "RangeError (too large)" : "fails";
  }
}

for (const [name, data] of Object.entries(CASES)) {
  test(`gunzipSync in the browser does what Node's does: ${name}`, () => {
    expect(outcome((d) => shimGunzip(d, { maxOutputLength: LIMIT }), data)).toBe(
      outcome((d) => nodeGunzip(d, { maxOutputLength: LIMIT }), data),
    );
  });
}

const UTF8_CASES: Record<string, number[]> = {
  ascii: [0x61, 0x62],
  "two-byte": [0xc3, 0xa9],
  "byte-order mark": [0xef, 0xbb, 0xbf, 0x61],
  "overlong slash": [0xc0, 0xaf],
  "encoded surrogate": [0xed, 0xa0, 0x80],
  truncated: [0xe2, 0x82],
  "lone continuation": [0x80],
  "above U+10FFFF": [0xf4, 0x90, 0x80, 0x80],
};

for (const [name, bytes] of Object.entries(UTF8_CASES)) {
  test(`isUtf8 in the browser does what Node's does: ${name}`, async () => {
    const { isUtf8: nodeIsUtf8 } = await import("node:buffer");
    const { isUtf8: shimIsUtf8 } = await import("../src/shims/buffer.js");
    expect(shimIsUtf8(new Uint8Array(bytes))).toBe(nodeIsUtf8(new Uint8Array(bytes)));
  });
}
