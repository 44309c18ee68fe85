import { formatPath, type PathKey } from "./path.js";

/** Codes raised by `@merge/core` itself. Other packages add their own; all are listed in docs/errors.md. */
export type CoreErrorCode =
  | "SPEC_SYNTAX"
  | "UNKNOWN_MERGER"
  | "UNKNOWN_OPTION"
  | "DUPLICATE_PLUGIN"
  | "INVALID_PLUGIN"
  | "REGISTRY_FROZEN"
  | "PLUGIN_FAILED"
  | "MERGE_TYPE"
  | "CYCLIC_INPUT"
  | "DEPTH_LIMIT"
  | "SIZE_LIMIT"
  | "UNHASHABLE_KEY"
  | "JSON_PARSE";

/** A stable, documented error code. The `string & {}` keeps editor completion for the known ones. */
export type MergeErrorCode = CoreErrorCode | (string & {});

/** Where in the input an error was found: a file position, a document of a sequence, or an offset in a spec. */
export interface SourcePosition {
  /** File name or label (`-` for stdin, `part 2`, `query main`). */
  readonly file?: string;
  /** 1-based line. */
  readonly line?: number;
  /** 1-based column. */
  readonly column?: number;
  /** 0-based character offset (in a spec string, the segment's start). */
  readonly offset?: number;
  /** The text the offset refers to, when it is not a file (a spec string). */
  readonly text?: string;
  /** Index of the document in a sequence given to `mergeAll`. */
  readonly document?: number;
}

export interface MergeErrorOptions {
  readonly path?: readonly PathKey[];
  readonly source?: SourcePosition;
  readonly plugin?: string;
  readonly cause?: unknown;
  readonly details?: Readonly<Record<string, unknown>>;
}

const BRAND = Symbol.for("@merge/core.MergeError");

/**
 * The one error type of `@merge`. `code` is stable and documented; `message` is for people and may change.
 * Every package throws (subclasses of) this, so callers need one `catch` branch.
 */
export class MergeError extends Error {
  readonly code: MergeErrorCode;
  /** Key path of the value being merged, as steps (`["users", "tom", "roles", 1]`). */
  keys: readonly PathKey[] | undefined;
  source: SourcePosition | undefined;
  /** The merger (formatted spec entry, e.g. `list(append)`) that was running. */
  plugin: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: MergeErrorCode, message: string, options: MergeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "MergeError";
    this.code = code;
    this.keys = options.path;
    this.source = options.source;
    this.plugin = options.plugin;
    this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The key path formatted as `users.tom.roles[1]`, or undefined at the root or when unknown. */
  get path(): string | undefined {
    return this.keys === undefined || this.keys.length === 0 ? undefined : formatPath(this.keys);
  }
}

/**
 * True for a `MergeError` from any copy of `@merge/core` (two installed copies would break `instanceof`).
 */
export function isMergeError(value: unknown): value is MergeError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * One line for people: `file:line:col: message (at key.path) [CODE]`, the form the CLI prints.
 */
export function formatMergeError(error: MergeError): string {
  const where = formatSource(error.source);
  const at = error.path === undefined ? "" : ` (at ${error.path})`;
  return `${where === "" ? "" : `${where}: `}${error.message}${at} [${error.code}]`;
}

function formatSource(source: SourcePosition | undefined): string {
  if (source === undefined) return "";
  let out = source.file ?? "";
  if (source.line !== undefined) {
    out += `:${source.line}`;
    if (source.column !== undefined) out += `:${source.column}`;
  } else if (source.offset !== undefined && source.text !== undefined) {
    out += `${out === "" ? "" : " "}spec ${JSON.stringify(source.text)} at offset ${source.offset}`;
  }
  if (source.document !== undefined && source.file === undefined) {
    out = `document ${source.document + 1}${out === "" ? "" : ` ${out}`}`;
  }
  return out;
}
