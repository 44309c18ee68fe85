export {
  createMerger,
  DEFAULT_MAX_DEPTH,
  type EngineOptions,
  type Merger,
  type PluginUse,
} from "./engine.js";
export {
  type CoreErrorCode,
  formatMergeError,
  isMergeError,
  MergeError,
  type MergeErrorCode,
  type MergeErrorOptions,
  type SourcePosition,
} from "./errors.js";
export {
  copyDict,
  createDict,
  type Dict,
  hasOwn,
  isPlainObject,
  kindOf,
  setKey,
  VALUE_KINDS,
  type ValueKind,
} from "./kinds.js";
export {
  copyMapping,
  deleteItem,
  emptyLike,
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  mappingKeys,
  mappingSize,
  setItem,
} from "./mapping.js";
export { compareCodePoints } from "./order.js";
export { formatPath, type PathKey } from "./path.js";
export {
  definePlugin,
  type InPlaceHandlers,
  type KindValue,
  type KindValues,
  type MergeHandler,
  type MergeHandlers,
  type MergerContext,
  type MergerMap,
  type MergerName,
  type MergerOptions,
  type MergerPlugin,
  type TraceAction,
  type TraceEvent,
  type TraceSink,
} from "./plugin.js";
export {
  createRegistry,
  type RegisterOptions,
  type Registry,
  type ResolveOptions,
} from "./registry.js";
export {
  type DocumentError,
  type Extracted,
  type MergeAllOptions,
  mergeAll,
  type MergerExtractor,
  type MergerScope,
} from "./sequence.js";
export {
  formatSpec,
  formatSpecEntry,
  normalizeSpec,
  type ParsedSpec,
  parseSpec,
  parseSpecList,
  type SpecEntry,
  type SpecInput,
  type SpecList,
  type SpecListMapping,
} from "./spec.js";
export type {
  CheckedSpec,
  PluginOptionNames,
  PluginTable,
  UnknownMergers,
} from "./spec-types.js";
export { checkTree, cloneTree, DEFAULT_MAX_NODES, type TreeLimits } from "./tree.js";
export { toExact, toPlain } from "./values/convert.js";
export { pyEquals } from "./values/equality.js";
export {
  type FormatJsonOptions,
  type FrozenText,
  formatJson,
  type ParseJsonOptions,
  parseJson,
} from "./values/json.js";
export { keyIdentity, keyText, type MappingKey, PY_KEY, PyDict } from "./values/pydict.js";
export { isPyFloat, numberValue, PyFloat, pyFloat, pyFloatRepr } from "./values/pyfloat.js";
