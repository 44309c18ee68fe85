import { MergeError } from "@merge/core";

/** The codes this package throws. Each is listed in the README and in docs/errors.md. */
export type YamlErrorCode =
  | "YAML_PARSE"
  | "YAML_ENCODING"
  | "YAML_TAG"
  | "YAML_DUPLICATE_KEY"
  | "YAML_KEY"
  | "YAML_DUMP"
  | "SIZE_LIMIT"
  | "DEPTH_LIMIT";

/** A position in the YAML text, 1-based, as `MergeError.source` carries it. */
export interface YamlMark {
  readonly line: number;
  readonly column: number;
  readonly offset?: number;
}

export function yamlError(
  code: YamlErrorCode,
  message: string,
  file: string | undefined,
  mark: YamlMark | undefined,
  cause?: unknown,
): MergeError {
  const source =
    mark === undefined
      ? file === undefined
        ? undefined
        : { file }
      : { file, line: mark.line, column: mark.column, offset: mark.offset };
  return new MergeError(code, message, { source, cause });
}
