import { MergeError, type SourcePosition } from "@merge/core";

/** Error codes raised by this package itself (templates and YAML add `TEMPLATE_*` and `YAML_*`). */
export type StackErrorCode =
  | "STACK_CONFIG"
  | "STACK_PATH"
  | "STACK_NOT_FILE"
  | "STACK_READ"
  | "STACK_WORKER"
  | "STACK_CYCLE";

/** Codes of the warnings a load can return. */
export type StackWarningCode =
  | "STACK_CONFIG_MISSING"
  | "STACK_NO_MATCH"
  | "STACK_NOT_MAPPING"
  | "TEMPLATE_WARNING";

/** Something Salt would log and step over; the load goes on. */
export interface StackWarning {
  readonly code: StackWarningCode;
  readonly message: string;
  /** The file concerned (a config file or a YAML file), as it was named. */
  readonly file?: string;
  /** 1-based line, when known (template warnings). */
  readonly line?: number;
}

export function stackError(
  code: StackErrorCode,
  message: string,
  source?: SourcePosition,
  cause?: unknown,
  details?: Record<string, unknown>,
): MergeError {
  return new MergeError(code, message, { source, cause, details });
}
