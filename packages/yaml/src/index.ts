export type { YamlErrorCode, YamlMark } from "./errors.js";
export { YamlFloat } from "./float.js";
export { keyEquality, keyText } from "./keys.js";
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_NODES,
  type LoadYamlOptions,
  loadYaml,
  loadYamlAll,
  loadYamlWithPositions,
  type YamlWithPositions,
} from "./load.js";
export { pythonFloatRepr } from "./pyfloat.js";
export { type LoadYaml12Options, loadYaml12 } from "./yaml12.js";
export { YAML_READING_RULES } from "./reading-rules.js";
export { resolvePlain } from "./resolver.js";
export type { YamlFlavor } from "./scalars.js";
export { decodeYamlValue, encodeYamlValue, STORED_VALUE_FORMAT } from "./stored-value.js";
export { YamlTimestamp } from "./timestamp.js";
export { type DumpPreset, type DumpYamlOptions, dumpYaml } from "./dump.js";
export { sortedKeys } from "./represent.js";
export {
  type ScalarStyleOptions,
  yamlDoubleQuote,
  yamlEncode,
  yamlScalarStyle,
  yamlSingleQuote,
} from "./quote.js";
export { createYamlLoader, type YamlLoader, type YamlLoaderOptions } from "./loader.js";
