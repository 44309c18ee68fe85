export {
  type CheckExample,
  type CheckPluginOptions,
  type CheckReport,
  checkPlugin,
  DEFAULT_FREE_VALUES,
  DEFAULT_RUNS,
  DEFAULT_SEED,
} from "./check.js";
export { PluginCheckError, type PluginCheckFailure } from "./failure.js";
export {
  HOSTILE_FRAGMENTS,
  HOSTILE_KEYS,
  hostileJsonTexts,
  ownHostileKeys,
  PLANTED,
  pollutionSince,
  prototypeState,
} from "./hostile.js";
export { PROPERTY_NAMES, type PropertyName } from "./properties.js";
export {
  hostileValues,
  SAMPLE_KEYS,
  SAMPLE_STRINGS,
  type SampleShape,
  sampleScalars,
  sampleValues,
} from "./samples.js";

/** The fast-check the kit runs on, for building `samples` (one copy, so its arbitraries mix with the kit's). */
export { default as fc } from "fast-check";
