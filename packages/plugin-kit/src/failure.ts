// The error checkPlugin throws: a plain Error subclass, so any test runner shows it as a failed assertion.
import type { PropertyName } from "./properties.js";

/** What went wrong, where, and how to run exactly that case again. */
export interface PluginCheckFailure {
  readonly plugin: string;
  readonly property: PropertyName;
  /** One line: what the property found. */
  readonly problem: string;
  /** The spec the failing merge used, when a merge failed. */
  readonly spec?: string;
  /** The inputs as they were before the merge, labelled (`base`, `incoming`, `initial`, `documents`). */
  readonly inputs?: readonly (readonly [string, string])[];
  /** Further lines (the value after the merge, the trace events, the error thrown). */
  readonly details?: readonly string[];
  /** The fast-check seed and the path of the shrunk case (`merge:4:1:0`), which replay it. */
  readonly seed?: number;
  readonly path?: string;
}

export class PluginCheckError extends Error {
  readonly plugin: string;
  readonly property: PropertyName;
  readonly spec: string | undefined;
  readonly seed: number | undefined;
  readonly path: string | undefined;

  constructor(failure: PluginCheckFailure, options?: { cause?: unknown }) {
    super(formatFailure(failure), options);
    this.name = "PluginCheckError";
    this.plugin = failure.plugin;
    this.property = failure.property;
    this.spec = failure.spec;
    this.seed = failure.seed;
    this.path = failure.path;
  }
}

function formatFailure(failure: PluginCheckFailure): string {
  const lines = [`checkPlugin(${failure.plugin}): ${failure.property}: ${failure.problem}`];
  if (failure.spec !== undefined) lines.push(`  spec:     ${failure.spec}`);
  for (const [label, text] of failure.inputs ?? []) lines.push(`  ${`${label}:`.padEnd(9)} ${text}`);
  for (const line of failure.details ?? []) lines.push(`  ${line}`);
  if (failure.seed !== undefined && failure.path !== undefined) {
    lines.push(
      `  replay: checkPlugin(plugin, { ...yourOptions, seed: ${failure.seed}, path: ${JSON.stringify(failure.path)} })`,
    );
  }
  return lines.join("\n");
}
