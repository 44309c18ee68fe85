export {
  loadStackBatch,
  type SerializedError,
  type StackBatchEntry,
  type StackBatchOptions,
} from "./batch.js";
export {
  type MatchSources,
  type StackConfig,
  type StackConfigChoice,
  type StackMatcher,
  configPaths,
} from "./config.js";
export {
  nodeFileSystem,
  type StackDirEntry,
  type StackFileInfo,
  type StackFileSystem,
} from "./files.js";
export { fnmatch, fnmatchRegex, type GlobFs, globMatches, pyGlob } from "./glob.js";
export {
  configItems,
  createStackLoader,
  loadStack,
  type ParsedDocumentStore,
  type SaltFunction,
  type StackHost,
  type StackLoader,
  type StackLoaderOptions,
  type StackLookup,
  type StackResult,
} from "./loader.js";
export { createMemoryFileSystem } from "./memory-files.js";
export type { StackErrorCode, StackWarning, StackWarningCode } from "./problems.js";
export type { CompiledTemplateStore } from "@merge/jinja";
export type { StackRenderer } from "./renderer.js";
export {
  createRenderer,
  type Renderer,
  type RendererOptions,
  type TemplateWarning,
} from "@merge/jinja";
export { NOT_FOUND, traverse } from "./traverse.js";
