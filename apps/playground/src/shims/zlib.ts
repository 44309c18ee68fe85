// `node:zlib` in the browser, only what @merge/mergers-cloudinit's user-data reader calls: `gunzipSync` with
// `maxOutputLength`, the budget that stops a gzip bomb. pako is zlib ported to JavaScript, with Node's handling of
// what follows a gzip member (another member, zero padding, or garbage that fails), truncation and CRC errors;
// test/zlib-shim.spec.ts checks it against node:zlib. The budget is checked as each inflated chunk arrives, so a
// bomb fails with the RangeError Node throws before it has all been inflated.
import { Buffer } from "buffer/index.js";
import pako from "pako";

export interface GunzipOptions {
  readonly maxOutputLength?: number;
}

/** gzip only (window bits 15 + 16), as Node's `gunzipSync`: a zlib or raw deflate stream is an error. */
const GZIP_ONLY = 31;

export function gunzipSync(input: Uint8Array, options: GunzipOptions = {}): Buffer {
  const limit = options.maxOutputLength ?? Number.MAX_SAFE_INTEGER;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new pako.Inflate({ windowBits: GZIP_ONLY });
  inflater.onData = (chunk: Uint8Array) => {
    size += chunk.length;
    if (size > limit) throw new RangeError(`Cannot create a Buffer larger than ${limit} bytes`);
    chunks.push(chunk);
  };
  inflater.push(input, true);
  if (inflater.err !== 0) throw new Error(inflater.msg || `zlib error ${inflater.err}`);
  // `ended` (set when the last member's trailer was read) is missing from @types/pako.
  if (!(inflater as unknown as { ended: boolean }).ended) throw new Error("unexpected end of file");
  return Buffer.concat(chunks);
}

export default { gunzipSync };
