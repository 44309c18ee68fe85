import type { PathKey } from "@merge/core";
import { loadYaml, loadYamlWithPositions, type YamlFlavor, type YamlWithPositions } from "@merge/yaml";
import type { CliIO } from "./io.js";
import { readInput } from "./read-input.js";

/** One input document with a way back from a key path to the line it was written on. */
export interface LoadedDocument {
  /** As named on the command line (`-` for standard input). */
  readonly file: string;
  readonly value: unknown;
  positionOf(path: readonly PathKey[]): { readonly line: number; readonly column: number } | undefined;
}

/**
 * Reads and parses one YAML (or JSON) file the way the system being imitated reads it: `pyyaml` (cloud-init, the
 * default) or `salt` (Salt's loader). An empty file is the value `null`. Parse errors carry file, line and column.
 */
export async function loadDocument(
  name: string,
  io: CliIO,
  flavor: YamlFlavor = "pyyaml",
): Promise<LoadedDocument> {
  const input = await readInput(name, io);
  const value = loadYaml(input.text, { flavor, filename: name });
  // Positions cost half a parse again; they are needed only for an error message or `--explain`.
  let located: YamlWithPositions | undefined;
  return {
    file: name,
    value,
    positionOf: (path) => {
      located ??= loadYamlWithPositions(input.text, { flavor, filename: name });
      return located.positionOf(path);
    },
  };
}
