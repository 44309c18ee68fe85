// `node:buffer` in the browser: the `buffer` package, plus `isUtf8` (Node 18.14+), which it lacks. A strict WHATWG
// UTF-8 decoder refuses exactly what Node's check refuses (overlong forms, surrogates, truncated sequences).
import { Buffer } from "buffer/index.js";

export { Buffer };

const strict = new TextDecoder("utf-8", { fatal: true });

export function isUtf8(input: Uint8Array | ArrayBuffer): boolean {
  try {
    strict.decode(input);
    return true;
  } catch {
    return false;
  }
}

export default { Buffer, isUtf8 };
