import { isMergeError, MergeError, type PathKey, parseJson, type SourcePosition } from "@merge/core";
import { loadYaml, loadYamlWithPositions, type YamlFlavor, type YamlWithPositions } from "@merge/yaml";
import type { CliIO } from "./io.js";
import { readInput } from "./read-input.js";

/** One input document with a way back from a key path to the line it was written on. */
export interface LoadedDocument {
  /** As named on the command line (`-` for standard input). */
  readonly file: string;
  /** In `@merge/core`'s exact model: `PyDict` mappings (keys typed, in order), whole floats as `PyFloat`. */
  readonly value: unknown;
  positionOf(path: readonly PathKey[]): { readonly line: number; readonly column: number } | undefined;
}

/** A file named `*.json` is JSON, read as Python's `json.loads` reads it; anything else (and `-`) is YAML. */
export function isJsonName(name: string): boolean {
  return /\.json$/i.test(name);
}

/** How `loadDocument` reads positions. */
export interface LoadDocumentOptions {
  /**
   * `lazy` (default): a second, positions-only read the first time `positionOf` is asked (an error message needs
   * one or two). `eager`: one read that keeps the positions with the value, for `--explain`, which asks for the
   * position of every value: the lazy way would read the whole document twice.
   */
  readonly positions?: "lazy" | "eager";
}

/**
 * Reads and parses one YAML or JSON file the way the system being imitated reads it — `pyyaml` (cloud-init, the
 * default) or `salt` (Salt's loader); `json.loads` for `*.json` — into the exact model, as Python holds it (`9.0`
 * stays a float, `8080:` an int key, every key in its place). An empty file is `null`. Errors carry file, line and
 * column.
 */
export async function loadDocument(
  name: string,
  io: CliIO,
  flavor: YamlFlavor = "pyyaml",
  options: LoadDocumentOptions = {},
): Promise<LoadedDocument> {
  const input = await readInput(name, io);
  const json = isJsonName(name);
  const eager = options.positions === "eager" && !json;
  let value: unknown;
  // Positions read with the value (eager), or not yet read (undefined), or unreadable (null).
  let located: YamlWithPositions | undefined | null;
  try {
    if (json) value = input.text.trim() === "" ? null : parseJson(input.text, { file: name });
    else if (eager) {
      located = loadYamlWithPositions(input.text, { flavor, filename: name, values: "exact" });
      value = located.value;
    } else value = loadYaml(input.text, { flavor, filename: name, values: "exact" });
  } catch (error) {
    // A document the user merges gets the line quoted with a caret under the position. Salt-side files (grains,
    // pillar, master config) may hold secrets: their lines are never quoted.
    if (flavor === "pyyaml") throw withExcerpt(error, input.text);
    throw error;
  }
  // Positions cost half a parse again; they are needed only for an error message or `--explain`. JSON is YAML
  // enough for them (a JSON document's keys are strings either way).
  return {
    file: name,
    value,
    positionOf: (path) => {
      if (located === undefined) {
        try {
          located = loadYamlWithPositions(input.text, { flavor, filename: name, values: "exact" });
        } catch {
          located = null;
        }
      }
      return located?.positionOf(path);
    },
  };
}

/**
 * A syntax error (`YAML_PARSE`, `JSON_PARSE`) with `details.excerpt`: the line at its position and the column, which
 * the CLI prints under the message with a caret (see report.ts). Other errors are returned as they are.
 */
export function withExcerpt(error: unknown, text: string): unknown {
  if (!isMergeError(error) || (error.code !== "YAML_PARSE" && error.code !== "JSON_PARSE")) return error;
  const line = error.source?.line;
  const column = error.source?.column;
  if (line === undefined || column === undefined) return error;
  // PyYAML's line breaks (the only reader whose lines are quoted).
  const lines = text.split(/\r\n|[\r\n\u0085\u2028\u2029]/);
  const shown = lines[line - 1];
  if (shown === undefined) return error;
  return reissued(error, { details: { ...error.details, excerpt: { line, column, text: shown } } });
}

/** The same error with another source position or other details (`details` cannot change in place). */
export function reissued(
  error: MergeError,
  changes: { readonly source?: SourcePosition; readonly details?: Readonly<Record<string, unknown>> },
): MergeError {
  return new MergeError(error.code, error.message, {
    path: error.keys,
    source: changes.source ?? error.source,
    plugin: error.plugin,
    cause: error.cause,
    details: changes.details ?? error.details,
  });
}
