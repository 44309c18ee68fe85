// `Buffer` as a global, which @merge/yaml uses for binary scalars and byte lengths, and libmime (under mailsplit) for
// MIME parts: the `buffer` package is the Node API for browsers, so those code paths run unchanged.
import { Buffer } from "buffer/index.js";

const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= Buffer;
