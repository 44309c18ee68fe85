// `node:zlib` in the browser, only what @merge/mergers-cloudinit's user-data reader calls: `gunzipSync` with
// `maxOutputLength`, the budget that stops a gzip bomb. fflate inflates in chunks, so the budget is checked as the
// output grows, and a blob past it fails with the RangeError Node throws, before it has all been inflated.
import { Buffer } from "buffer/index.js";
import { Gunzip } from "fflate";

export interface GunzipOptions {
  readonly maxOutputLength?: number;
}

export function gunzipSync(input: Uint8Array, options: GunzipOptions = {}): Buffer {
  const limit = options.maxOutputLength ?? Number.MAX_SAFE_INTEGER;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Gunzip((chunk) => {
    size += chunk.length;
    if (size > limit) throw new RangeError(`Cannot create a Buffer larger than ${limit} bytes`);
    chunks.push(chunk);
  });
  inflater.push(input, true);
  return Buffer.concat(chunks);
}

export default { gunzipSync };
