// Node globals that code in the worker uses, as browsers provide them:
// - `Buffer`, which @merge/yaml uses for binary scalars and byte lengths, and libmime (under mailsplit) for MIME
//   parts: the `buffer` package is the Node API for browsers, so those code paths run unchanged;
// - `setImmediate`, with which mailsplit and libbase64 yield between chunks: a macrotask, as in Node.
import { Buffer } from "buffer/index.js";

const scope = globalThis as { Buffer?: unknown; setImmediate?: unknown };
scope.Buffer ??= Buffer;
scope.setImmediate ??= (callback: (...args: unknown[]) => void, ...args: unknown[]) =>
  setTimeout(callback, 0, ...args);
