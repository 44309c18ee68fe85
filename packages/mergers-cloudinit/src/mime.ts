import { isUtf8 } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { isMergeError, isPlainObject, MergeError } from "@merge/core";
import type { CloudConfigPart, CloudConfigType } from "./parts.js";
import { pythonLstrip } from "./python-text.js";
import { loadPartYaml } from "./yaml.js";
import { withHeaderSeparators } from "./header-separators.js";
import { partFilename } from "./part-filename.js";
import { pythonTextPayload } from "./python-payload.js";

/** A part of the user-data that is not cloud-config, and why it was left out of the merge. */
export interface SkippedPart {
  readonly name: string;
  readonly type: string;
  readonly reason: string;
  /**
   * For a `text/jinja2` part (`## template: jinja`): its text and headers, and its place among `parts` (how many
   * cloud-config parts come before it), so a renderer can put what it renders there (see `mergeUserData`).
   */
  readonly template?: {
    readonly text: string | Uint8Array;
    readonly headers: readonly (readonly [string, string])[];
    readonly at: number;
  };
}

/** Options of `parseUserData` and `mergeUserData`. */
export interface UserDataOptions {
  /**
   * Budget for all gzip data of the user-data together — the blob itself and every gzip part of its MIME message —
   * in inflated bytes (default 64 MiB); more is a `SIZE_LIMIT` error.
   */
  readonly maxInflatedBytes?: number;
  /**
   * Most parts the user-data may hold, counting every MIME leaf and every `#cloud-config-archive` entry (default
   * 10,000); more is a `SIZE_LIMIT` error. cloud-init has no such limit; this one only stops a small gzip blob from
   * unpacking into millions of empty parts.
   */
  readonly maxParts?: number;
}

/** Default limit on the number of parts: a thousand times what real user-data holds. */
export const DEFAULT_MAX_PARTS = 10_000;

/** Default budget for inflated gzip data: far above any real user-data (cloud providers cap it at a few KB to MB). */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** User-data taken apart as cloud-init's user-data processor does. */
export interface UserData {
  /** The `text/cloud-config` and `text/cloud-config-jsonp` parts, in message order, with their headers. */
  readonly parts: CloudConfigPart[];
  /** Every other part (scripts, boothooks, includes...), which the cloud-config handler never sees. */
  readonly skipped: SkippedPart[];
}

const GZIP_TYPES = new Set([
  "application/gzip",
  "application/gzip-compressed",
  "application/gzipped",
  "application/x-compress",
  "application/x-compressed",
  "application/x-gunzip",
  "application/x-gzip",
  "application/x-gzip-compressed",
]);
const SNIFFED_TYPES = new Set(["text/plain", "text/x-not-multipart", "text/x-shellscript"]);
const INCLUDE_TYPES = new Set(["text/x-include-url", "text/x-include-once-url"]);
const ARCHIVE_TYPE = "text/cloud-config-archive";

// cloud-init's INCLUSION_TYPES_MAP, longest prefix first (its INCLUSION_SRCH order). 22.4 has no `#upstart-job`
// (its upstart handler is gone), so such a text is untyped: an archive entry starting with it is cloud-config. The
// three `text/x-shellscript-per-*` entries are there in cloud-init too, so that a text starting with one is that type.
const STARTS_WITH: readonly (readonly [string, string])[] = [
  ["text/x-shellscript-per-instance", "text/x-shellscript-per-instance"],
  ["text/x-shellscript-per-boot", "text/x-shellscript-per-boot"],
  ["text/x-shellscript-per-once", "text/x-shellscript-per-once"],
  ["#cloud-config-archive", "text/cloud-config-archive"],
  ["#cloud-config-jsonp", "text/cloud-config-jsonp"],
  ["## template: jinja", "text/jinja2"],
  ["#cloud-boothook", "text/cloud-boothook"],
  ["#include-once", "text/x-include-once-url"],
  ["#part-handler", "text/part-handler"],
  ["#cloud-config", "text/cloud-config"],
  ["#include", "text/x-include-url"],
  ["#!", "text/x-shellscript"],
];

/**
 * cloud-init's `type_from_starts_with`: the content type a text announces by its first characters, after the
 * whitespace Python's `lstrip` removes (which includes U+001C..U+001F and U+0085, but not a byte-order mark).
 */
export function contentTypeOf(text: string): string | undefined {
  const head = pythonLstrip(text).slice(0, 32).toLowerCase();
  for (const [prefix, type] of STARTS_WITH) if (head.startsWith(prefix)) return type;
  return undefined;
}

interface Leaf {
  readonly headers: [string, string][];
  readonly contentType: string | undefined;
  readonly filename: string | undefined;
  readonly payload: Buffer;
}

/**
 * Whether cloud-init reads these (inflated) bytes as a MIME message: `MIME-Version:` anywhere in the first 4096
 * bytes, in any case, even in the middle of a line or inside a comment of a `#cloud-config` file.
 */
export function isMimeUserData(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096))
    .toString("latin1")
    .toLowerCase()
    .includes("mime-version:");
}

/**
 * Takes user-data apart as cloud-init does: a gzipped blob is inflated; a blob with `MIME-Version:` in its first
 * 4096 bytes is a MIME message whose leaf parts are decoded (base64, quoted-printable) and, for gzip content types,
 * inflated; `text/plain`, `text/x-not-multipart` and `text/x-shellscript` parts are typed by their first line;
 * `#cloud-config-archive` parts are exploded. Parts without a file name are named `part-001`, `part-002`, ... in
 * the order cloud-init attaches them. MIME problems are `MIME_PARSE` errors.
 */
export async function parseUserData(
  raw: string | Uint8Array,
  options: UserDataOptions = {},
): Promise<UserData> {
  // One budget for the whole user-data: forty gzip parts may not inflate to forty times the limit.
  const budget: InflateBudget = { limit: options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES, used: 0 };
  let bytes: Buffer = typeof raw === "string" ? Buffer.from(raw, "utf8") : Buffer.from(raw);
  bytes = inflateQuietly(bytes, budget);
  const maxParts = options.maxParts ?? DEFAULT_MAX_PARTS;
  const isMime = isMimeUserData(bytes);
  // cloud-init reads a MIME message from its text decoded as UTF-8, and stops on bytes that are not UTF-8.
  if (isMime && !isUtf8(bytes)) {
    throw new MergeError(
      "MIME_PARSE",
      "the user-data is a MIME message that is not UTF-8, which cloud-init cannot read",
    );
  }
  const leaves = isMime
    ? await splitMime(bytes, maxParts)
    : [{ headers: [], contentType: "text/x-not-multipart", filename: undefined, payload: bytes }];

  const out: UserData = { parts: [], skipped: [] };
  let attached = 0;
  const attach = (
    type: string,
    text: string | Uint8Array,
    headers: [string, string][],
    filename: string | undefined,
  ) => {
    attached++;
    if (attached > maxParts) throw tooManyParts(maxParts);
    const name = filename ?? `part-${String(attached).padStart(3, "0")}`;
    if (type === "text/cloud-config" || type === "text/cloud-config-jsonp") {
      out.parts.push({ text, name, headers: withType(headers, type), type: type as CloudConfigType });
    } else {
      const template = type === "text/jinja2" ? { text, headers, at: out.parts.length } : undefined;
      out.skipped.push({ name, type, reason: `${type} parts are not cloud-config`, template });
    }
  };

  let number = 0;
  for (const leaf of leaves) {
    number++;
    let type = leaf.contentType ?? "text/plain";
    let payload = leaf.payload;
    let headers = leaf.headers;
    if (GZIP_TYPES.has(type)) {
      try {
        payload = inflate(payload, budget);
      } catch (cause) {
        if (isMergeError(cause)) throw cause;
        throw new MergeError(
          "MIME_PARSE",
          `part ${number} (${type}) cannot be decompressed: ${(cause as Error).message}`,
          {
            source: { file: leaf.filename ?? `part ${number}` },
            cause,
          },
        );
      }
      // cloud-init rebuilds a decompressed part with only its file name, so its Merge-Type headers are lost.
      type = "text/plain";
      headers = [];
    }
    const text = payload.toString("utf8");
    if (SNIFFED_TYPES.has(type)) type = contentTypeOf(text) ?? type;
    if (INCLUDE_TYPES.has(type)) {
      out.skipped.push({
        name: leaf.filename ?? `part ${number}`,
        type,
        reason: "#include parts fetch URLs, which this library does not do",
      });
      continue;
    }
    if (type === ARCHIVE_TYPE) {
      for (const entry of explodeArchive(text, leaf.filename ?? `part ${number}`)) {
        attach(entry.type, entry.text, entry.headers, entry.filename);
      }
      continue;
    }
    // cloud-init decodes a part with surrogateescape and PyYAML then refuses the escaped bytes, so nothing of the part
    // is merged: keep such a part as bytes, which our YAML reader rejects (YAML_ENCODING), rather than merge U+FFFD.
    attach(type, isUtf8(payload) ? text : new Uint8Array(payload), headers, leaf.filename);
  }
  return out;
}

function withType(headers: [string, string][], type: string): [string, string][] {
  return [...headers.filter(([name]) => name !== "Content-Type"), ["Content-Type", type]];
}

/** Inflated bytes allowed for the whole user-data, and how many were used so far. */
interface InflateBudget {
  readonly limit: number;
  used: number;
}

function inflateQuietly(bytes: Buffer, budget: InflateBudget): Buffer {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return inflate(bytes, budget);
  } catch (cause) {
    if (isMergeError(cause)) throw cause;
    // cloud-init's decomp_gzip(quiet=True) keeps the data as it was.
    return bytes;
  }
}

/**
 * Inflates gzip data within what is left of the budget; a `SIZE_LIMIT` error when it would go past it (a gzip bomb,
 * or many parts that are each small). Other failures are zlib's errors, for the caller to word.
 */
function inflate(bytes: Buffer, budget: InflateBudget): Buffer {
  const left = budget.limit - budget.used;
  let out: Buffer;
  try {
    out = gunzipSync(bytes, { maxOutputLength: Math.max(1, left) });
  } catch (cause) {
    if (tooLarge(cause)) throw sizeError(budget.limit, cause);
    throw cause;
  }
  if (out.length > left) throw sizeError(budget.limit, undefined);
  budget.used += out.length;
  return out;
}

function tooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
}

// A gzip bomb (a few KB that inflate to gigabytes) stops here instead of exhausting memory.
function sizeError(limit: number, cause: unknown): MergeError {
  return new MergeError(
    "SIZE_LIMIT",
    `gzip data in the user-data inflates to more than ${limit} bytes in all`,
    {
      cause,
      details: { maxInflatedBytes: limit },
    },
  );
}

function tooManyParts(maxParts: number, cause?: unknown): MergeError {
  return new MergeError("SIZE_LIMIT", `the user-data holds more than ${maxParts} parts`, {
    cause,
    details: { maxParts },
  });
}

async function splitMime(bytes: Buffer, maxParts: number): Promise<Leaf[]> {
  const { Splitter } = await import("mailsplit");
  // mailsplit stops at 1,000 nodes by default; cloud-init takes any number, so only our own limit applies (with
  // room for the multipart containers, which mailsplit counts too).
  const splitter = new Splitter({ maxChildNodes: 2 * maxParts + 1 });
  type Pending = { node: import("mailsplit").MimeNode; chunks: Buffer[] };
  const pending: Pending[] = [];
  let current: Pending | undefined;
  await new Promise<void>((resolve, reject) => {
    splitter.on("data", (chunk: import("mailsplit").SplitterChunk) => {
      if (chunk.type === "node") {
        current = chunk.multipart ? undefined : { node: chunk, chunks: [] };
        if (current !== undefined && pending.push(current) > maxParts) {
          splitter.destroy(tooManyParts(maxParts));
        }
      } else if (chunk.type === "body" && current !== undefined) {
        current.chunks.push(chunk.value);
      }
    });
    splitter.on("end", resolve);
    splitter.on("error", (cause: Error) =>
      reject(
        isMergeError(cause)
          ? cause
          : /child nodes/.test(cause.message)
            ? tooManyParts(maxParts, cause)
            : new MergeError("MIME_PARSE", `the user-data is not a readable MIME message: ${cause.message}`, {
                cause,
              }),
      ),
    );
    splitter.end(withHeaderSeparators(bytes));
  });
  const leaves: Leaf[] = [];
  const lineBreak = bytes.includes("\r\n") ? "\r\n" : "\n";
  for (const { node, chunks } of pending) {
    const headers = node.headers.getList().map(headerPair);
    const filename = partFilename(headers, lineBreak);
    const encoding = headers.find(([name]) => name.trim().toLowerCase() === "content-transfer-encoding")?.[1];
    leaves.push({
      headers,
      contentType: contentTypeHeader(headers),
      filename: filename === "" ? undefined : filename,
      payload: pythonTextPayload(await decode(node, Buffer.concat(chunks)), encoding),
    });
  }
  return leaves;
}

/**
 * Python's `get_content_type()`: the first Content-Type header's value before `;`, lowercased; `text/plain` (here:
 * undefined) when it is missing or is not `type/subtype`. mailsplit would say `application/octet-stream` for an
 * attachment without one.
 */
function contentTypeHeader(headers: readonly [string, string][]): string | undefined {
  const found = headers.find(([name]) => name.trim().toLowerCase() === "content-type");
  if (found === undefined) return undefined;
  const value = found[1].split(";")[0]!.trim().toLowerCase();
  return value.split("/").length === 2 ? value : undefined;
}

/** The header name exactly as written and its value as Python's email package returns it (left-trimmed). */
function headerPair(header: { key: string; line: string }): [string, string] {
  const colon = header.line.indexOf(":");
  if (colon < 0) return [header.line, ""];
  return [
    header.line.slice(0, colon),
    header.line
      .slice(colon + 1)
      .replace(/^[ \t]+/, "")
      .replace(/[\r\n]+$/, ""),
  ];
}

async function decode(node: import("mailsplit").MimeNode, body: Buffer): Promise<Buffer> {
  const decoder = node.getDecoder();
  const out: Buffer[] = [];
  return await new Promise<Buffer>((resolve, reject) => {
    decoder.on("data", (chunk: Buffer) => out.push(chunk));
    decoder.on("end", () => resolve(Buffer.concat(out)));
    decoder.on("error", (cause: Error) =>
      reject(new MergeError("MIME_PARSE", `a MIME part cannot be decoded: ${cause.message}`, { cause })),
    );
    decoder.end(body);
  });
}

interface ArchiveEntry {
  readonly type: string;
  readonly text: string;
  readonly headers: [string, string][];
  readonly filename: string | undefined;
}

const ARCHIVE_RESERVED = new Set([
  "content",
  "filename",
  "type",
  "launch-index",
  "content-disposition",
  "number-attachments",
  "content-type",
]);

/**
 * A `#cloud-config-archive` part: a YAML list whose items are a string (the content) or a mapping with `content`,
 * `type`, `filename` and extra headers (written as given, so `Merge-Type` must be spelled that way). cloud-init
 * ignores an archive that is not a list, and items that are neither.
 */
function explodeArchive(text: string, file: string): ArchiveEntry[] {
  let entries: unknown;
  try {
    entries = loadPartYaml(text, file, "plain");
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const out: ArchiveEntry[] = [];
  for (const item of entries) {
    const entry = typeof item === "string" ? { content: item } : item;
    if (!isPlainObject(entry)) continue;
    const content =
      typeof entry.content === "string" ? entry.content : entry.content == null ? "" : String(entry.content);
    const declared = typeof entry.type === "string" && entry.type !== "" ? entry.type : undefined;
    const type = declared ?? contentTypeOf(content) ?? "text/cloud-config";
    const headers: [string, string][] = [];
    for (const key of Object.keys(entry)) {
      if (ARCHIVE_RESERVED.has(key.toLowerCase())) continue;
      headers.push([key, String(entry[key])]);
    }
    const filename = Object.hasOwn(entry, "filename") ? String(entry.filename) : undefined;
    out.push({ type, text: content, headers, filename });
  }
  return out;
}
