import { constants } from "node:os";

/**
 * Codes the CLI itself raises, all about the input the command line names (exit 1). Mistakes in the command line
 * itself are `UsageError`s (exit 2).
 */
export type CliErrorCode =
  | "FILE_NOT_FOUND"
  | "FILE_READ"
  | "OUTPUT_WRITE"
  | "OUTPUT_NOT_FILE"
  | "OUTPUT_SYMLINK"
  | "PLUGIN_NOT_FOUND"
  | "PLUGIN_LOAD"
  | "INVALID_PLUGIN"
  | "INPUT_NOT_MAPPING"
  | "MASTER_CONFIG"
  | "DAEMON_DIRECTORY"
  | "DAEMON_START"
  | "INTERNAL";

export const EXIT_OK = 0;
export const EXIT_DATA = 1;
export const EXIT_USAGE = 2;
/** SIGINT (128 + 2). SIGHUP exits 129 and SIGTERM 143, by the same rule: see `exitStatusForSignal`. */
export const EXIT_INTERRUPTED = 130;

/** The signals the CLI handles: each ends the run before its output is replaced, with its own status. */
export type HandledSignal = "SIGHUP" | "SIGINT" | "SIGTERM";

/** 128 + the signal's number, as shells report a process a signal ended: 129 SIGHUP, 130 SIGINT, 143 SIGTERM. */
export function exitStatusForSignal(signal: HandledSignal): number {
  return 128 + constants.signals[signal];
}
