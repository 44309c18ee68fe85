/**
 * Codes the CLI itself raises, all about the input the command line names (exit 1). Mistakes in the command line
 * itself are `UsageError`s (exit 2).
 */
export type CliErrorCode =
  | "FILE_NOT_FOUND"
  | "FILE_READ"
  | "OUTPUT_WRITE"
  | "PLUGIN_NOT_FOUND"
  | "PLUGIN_LOAD"
  | "INVALID_PLUGIN"
  | "INPUT_NOT_MAPPING"
  | "MASTER_CONFIG";

export const EXIT_OK = 0;
export const EXIT_DATA = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
