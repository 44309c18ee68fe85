// Minimal types for the parts of mailsplit (which ships none) that user-data parsing uses.
declare module "mailsplit" {
  import type { Transform } from "node:stream";

  interface HeaderLine {
    /** Lowercased header name. */
    readonly key: string;
    /** The raw header line as written, continuation lines joined with CRLF. */
    readonly line: string;
  }

  interface MimeNode {
    readonly type: "node";
    readonly root: boolean;
    readonly contentType: string | false;
    readonly encoding: string | false;
    readonly multipart: string | false;
    readonly filename: string | false;
    readonly headers: { getList(): HeaderLine[] };
    getDecoder(): Transform;
  }

  type SplitterChunk = MimeNode | { readonly type: "data" | "body"; readonly value: Buffer };

  class Splitter extends Transform {
    constructor(options?: { ignoreEmbedded?: boolean; maxHeadSize?: number; maxChildNodes?: number });
  }
}
