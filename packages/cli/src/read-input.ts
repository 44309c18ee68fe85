import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MergeError } from "@merge/core";
import type { CliIO } from "./io.js";

export interface InputText {
  /** As the user wrote it (`-` for standard input): errors and `--explain` name inputs this way. */
  readonly name: string;
  readonly text: string;
}

/**
 * Reads a file named on the command line (relative to the working directory) or standard input for `-`.
 * Failures are coded errors naming the file: `FILE_NOT_FOUND`, or `FILE_READ` for directories and permissions.
 * Files are read synchronously: a command reads its inputs before it can do anything else, and the first
 * asynchronous read starts libuv's thread pool, which costs a short command more than the read itself.
 */
export async function readInput(name: string, io: CliIO): Promise<InputText> {
  return { name, text: decodeText(name, await readInputBytes(name, io)) };
}

/** The bytes of a file named on the command line, or of standard input for `-`, told to `--watch`, as readInput. */
export async function readInputBytes(name: string, io: CliIO): Promise<Buffer> {
  if (name === "-") return Buffer.from(await readStdinBytes(io));
  io.onFile?.(resolve(io.cwd, name));
  try {
    return readFileSync(resolve(io.cwd, name));
  } catch (error) {
    throw fileError(name, error);
  }
}

/** All of standard input; a failure to read it (a directory, a closed descriptor) is `FILE_READ`. */
export async function readStdinBytes(io: CliIO): Promise<Uint8Array> {
  try {
    return await io.readStdin();
  } catch (error) {
    throw fileError("standard input", error);
  }
}

/**
 * Decodes input as PyYAML's reader does: a UTF-16 byte-order mark selects UTF-16, anything else must be valid UTF-8.
 * A lenient decode would turn bad bytes into U+FFFD and merge a value the real loaders never produce.
 */
function decodeText(name: string, bytes: Uint8Array): string {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : "utf-8";
  try {
    return stripBom(new TextDecoder(encoding, { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new MergeError("YAML_ENCODING", `is not valid ${encoding} text`, { source: { file: name }, cause });
  }
}

export function fileError(name: string, error: unknown): MergeError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") {
    return new MergeError("FILE_NOT_FOUND", "no such file", { source: { file: name }, cause: error });
  }
  const reason =
    code === "EISDIR"
      ? "is a directory, not a file"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : error instanceof Error
          ? error.message
          : String(error);
  return new MergeError("FILE_READ", `cannot read: ${reason}`, { source: { file: name }, cause: error });
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
