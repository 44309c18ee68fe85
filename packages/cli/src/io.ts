import type { TraceEvent } from "@merge/core";
import type { ExplainDocument } from "@merge/explain";
import type { CompiledTemplateStore, ParsedDocumentStore } from "@merge/source-stack";
import type { OutputGuard } from "./interrupt.js";

/** What the CLI touches of the outside world, so `run` can be driven by tests without a process. */
export interface CliIO {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input (bytes: user-data may be gzip). */
  readStdin(): Promise<Uint8Array>;
  /** Writes to standard output; resolves once the text is handed over. */
  writeOut(text: string): Promise<void>;
  writeErr(text: string): void;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /**
   * What signals must clean up while `-o` writes (temporary files, the commit point). `main` passes the one its
   * signal handlers use; without it, `-o` uses a private guard that no signal reaches.
   */
  readonly outputGuard?: OutputGuard;
  /** `--color` (true) or `--no-color` (false) on the command line; undefined when neither was given. */
  readonly color?: boolean;
  /**
   * Told of every input file a command reads (absolute paths): `--watch` watches exactly these. Commands call it
   * through `noteFile`; without it nothing is recorded.
   */
  readonly onFile?: (path: string) => void;
  /**
   * Told of every place a command looked for input and where a file created later would change the result: a file
   * that was missing, a glob. `--watch` watches their directories for new files. Commands call it through
   * `noteSearch`.
   */
  readonly onSearch?: (search: SearchedPath) => void;
  /**
   * Set by `merge diff`: a merging command hands its result (exact model) and what `--explain` needs here instead of
   * printing it. See `finish` in commands/common.ts.
   */
  readonly capture?: (result: CapturedResult) => void;
  /**
   * Where stack loads keep compiled templates between runs (`main` passes the on-disk cache of build-cache.ts);
   * without it every run compiles the templates it renders.
   */
  readonly compiledTemplates?: CompiledTemplateStore;
  /**
   * Where stack loads keep parsed plain YAML files between runs (`main` passes the on-disk cache of build-cache.ts);
   * without it every run parses the files it reads.
   */
  readonly parsedDocuments?: ParsedDocumentStore;
}

/** A place a command looked for input (see `CliIO.onSearch`). */
export interface SearchedPath {
  /** Absolute and normalized (no `.`, `..` or `//`). */
  readonly pattern: string;
  /** True: a glob as Python's `glob` reads it (`@merge/source-stack`'s `globMatches`); false: a literal path. */
  readonly glob: boolean;
}

/** A merging command's result as `merge diff` compares it. */
export interface CapturedResult {
  readonly value: unknown;
  readonly title: string;
  readonly documents: readonly ExplainDocument[];
  readonly events: readonly TraceEvent[];
}

/**
 * Whether messages are coloured, first rule that applies: `--color` / `--no-color`; `FORCE_COLOR` (set to anything
 * but `0` or `false`: colour, as Node reads it; `0`/`false`: none); `NO_COLOR` set to anything non-empty
 * (no-color.org); `TERM=dumb`; else colour on a terminal only.
 */
export function useColor(isTTY: boolean, env: CliIO["env"], flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

export interface Painter {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain = (text: string): string => text;
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function painter(enabled: boolean): Painter {
  if (!enabled) return { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
  return { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

/**
 * A message as one line a terminal shows as it is: line breaks (including U+2028, U+2029 and NEL) and other control
 * characters — an escape sequence in a file name or a value — become visible escapes (`\n`, `\x1b`, `\u2028`).
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    if (char === "\n") return "\\n";
    if (char === "\r") return "\\r";
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}
