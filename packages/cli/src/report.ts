import { formatMergeError, isMergeError } from "@merge/core";
import { errorExcerpt } from "./excerpt.js";
import { type CliIO, oneLine, painter, useColor } from "./io.js";
import { didYouMean } from "./suggest.js";

/**
 * The text standard error shows for a failed command: always one line, never a JavaScript stack trace.
 * - a coded error: `error: file:line:col: message (at key.path) [CODE]`;
 * - JavaScript running out of stack (data nested too deep for a recursive step) or out of string length (an output
 *   too large to build): the coded `DEPTH_LIMIT` or `SIZE_LIMIT` line the user can act on;
 * - anything else is a bug in merge: `internal error: <what> ... [INTERNAL]`; `MERGE_DEBUG=1` adds the stack trace
 *   below it, for a bug report.
 */
export function failureReport(error: unknown, env: CliIO["env"], isTTY: boolean, color?: boolean): string {
  const paint = painter(useColor(isTTY, env, color));
  if (isMergeError(error)) {
    const text = oneLine(formatMergeError(error)).replace(/(?= \[[A-Z0-9_]+\]$)/, hintFor(error));
    return `${paint.red("error:")} ${text}\n${errorExcerpt(error, paint)}`;
  }
  if (error instanceof RangeError) {
    const message = safeMessage(error);
    if (/maximum call stack/i.test(message)) {
      return `${paint.red("error:")} the data nests too deep to process (the call stack ran out) [DEPTH_LIMIT]\n`;
    }
    if (/invalid string length|array length/i.test(message)) {
      return `${paint.red("error:")} the output is too large to build in memory [SIZE_LIMIT]\n`;
    }
  }
  const debug = env.MERGE_DEBUG !== undefined && env.MERGE_DEBUG !== "" && env.MERGE_DEBUG !== "0";
  const line = `${paint.red("internal error:")} ${oneLine(summary(error))} (a bug in merge, please report it; MERGE_DEBUG=1 shows where) [INTERNAL]\n`;
  return debug ? `${line}${stackOf(error)}` : line;
}

/** ` (did you mean "append"?)` for a mistyped merger name or option in a spec (`lst(append)`, `list(apend)`). */
function hintFor(error: {
  readonly code: string;
  readonly message: string;
  readonly details?: unknown;
}): string {
  const details = (error.details ?? {}) as Record<string, unknown>;
  const words = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === "string") : []);
  if (error.code === "UNKNOWN_MERGER" && typeof details.name === "string") {
    return didYouMean(details.name, words(details.known));
  }
  if (
    error.code === "UNKNOWN_OPTION" &&
    typeof details.option === "string" &&
    !/did you mean/.test(error.message)
  ) {
    return didYouMean(details.option, words(details.valid));
  }
  return "";
}

/** `TypeError: message`, shortened; whatever was thrown, even a value that throws when looked at. */
function summary(error: unknown): string {
  let text: string;
  try {
    if (error instanceof Error) text = `${error.name}: ${error.message}`;
    else if (typeof error === "string") text = error;
    else text = `a non-error value was thrown (${Object.prototype.toString.call(error)})`;
  } catch {
    text = "a value that cannot be printed was thrown";
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function safeMessage(error: Error): string {
  try {
    return String(error.message);
  } catch {
    return "";
  }
}

function stackOf(error: unknown): string {
  try {
    const stack = error instanceof Error ? error.stack : undefined;
    return typeof stack === "string" ? `${stack}\n` : "";
  } catch {
    return "";
  }
}
