export {
  type ExplainInOrderOptions,
  type ExplanationCursor,
  explainInOrder,
  explainResult,
} from "./attribute.js";
export { captureRegistry } from "./capture.js";
export { cloudConfigProvenance, type PartRecord, patchValues } from "./cloud-config.js";
export type {
  ExplainDecision,
  ExplainDocument,
  ExplainEarlier,
  ExplainEntry,
  ExplainInputSummary,
  ExplainLoss,
  ExplainOrigin,
  ExplainRemoval,
  Explanation,
} from "./model.js";
export { createTraceRecorder, type TraceRecorder } from "./recorder.js";
