export {
  type CliErrorCode,
  EXIT_DATA,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  exitStatusForSignal,
  type HandledSignal,
} from "./cli-error.js";
export { explainResult } from "./explain/attribute.js";
export { captureRegistry } from "./explain/capture.js";
export type {
  ExplainDecision,
  ExplainDocument,
  ExplainEntry,
  ExplainOrigin,
  ExplainRemoval,
  Explanation,
} from "./explain/model.js";
export { createTraceRecorder, type TraceRecorder } from "./explain/recorder.js";
export { renderExplainedJson, renderExplainedYaml } from "./explain/render.js";
export { createOutputGuard, type OutputGuard, type OutputGuardOptions } from "./interrupt.js";
export type { CliIO } from "./io.js";
export { loadPluginModule } from "./plugins.js";
export { run } from "./run.js";
