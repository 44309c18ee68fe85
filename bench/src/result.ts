import type { Timing } from "./harness.js";

/** One line of a result table. */
export interface Row {
  readonly label: string;
  /** `ok`; `differs` (output not equal to the engine's: timed for reference, never ranked); `unavailable`. */
  readonly status: "ok" | "differs" | "unavailable" | "error";
  readonly timing?: Timing;
  /** Why a row differs or is unavailable. */
  readonly note?: string;
  /** Extra numbers (nodes, bytes, per-host times). */
  readonly extra?: Readonly<Record<string, number | string>>;
}

/** What one child process reports for one workload. */
export interface WorkloadResult {
  readonly part: string;
  readonly workload: string;
  readonly mode: Mode;
  readonly rows: readonly Row[];
  readonly notes: readonly string[];
  /** Seconds the child ran. */
  readonly seconds?: number;
}

/** `fresh`: a new process; `polluted`: a new process that first built two 10^5-node random-key trees. */
export type Mode = "fresh" | "polluted";

export const RESULT_MARKER = "@@bench-result ";
