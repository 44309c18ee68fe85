export {
  type CliErrorCode,
  EXIT_DATA,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  exitStatusForSignal,
  type HandledSignal,
} from "./cli-error.js";
// Provenance lives in @merge/explain; re-exported for code written against earlier versions of this package.
export {
  captureRegistry,
  createTraceRecorder,
  type ExplainDecision,
  type ExplainDocument,
  type ExplainEntry,
  type ExplainOrigin,
  type ExplainRemoval,
  type Explanation,
  explainResult,
  type TraceRecorder,
} from "@merge/explain";
export { renderExplainedJson, renderExplainedYaml } from "./explain/render.js";
export { createOutputGuard, type OutputGuard, type OutputGuardOptions } from "./interrupt.js";
export type { CliIO } from "./io.js";
export { loadPluginModule } from "./plugins.js";
export { run } from "./run.js";
