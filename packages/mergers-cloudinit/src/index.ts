export {
  extractDeclaration,
  mergeTypeHeader,
  type PartDeclaration,
  type PartHeaders,
} from "./declarations.js";
export { type DictMethod, type DictOption, dictMerger, dictMethodOf } from "./dict.js";
export { CLOUD_INIT_ERROR_CODES, type CloudInitErrorCode } from "./errors.js";
export { applyJsonPatchPart, JSONP_PREFIX, type JsonPatchOptions } from "./jsonpatch.js";
export { type InstanceData, instanceDataFrom, loadInstanceData } from "./instance-data.js";
export {
  type ListMergerSettings,
  type ListMethod,
  type ListOption,
  listMerger,
  listMethodOf,
} from "./list.js";
export {
  contentTypeOf,
  DEFAULT_MAX_INFLATED_BYTES,
  DEFAULT_MAX_PARTS,
  isMimeUserData,
  parseUserData,
  type SkippedPart,
  type UserData,
  type UserDataOptions,
} from "./mime.js";
export { type ModulesConfigOptions, type ModulesConfigResult, modulesConfig } from "./modules-config.js";
export { type MergeManyDictsOptions, type MergeManyDictsResult, mergeManyDicts } from "./mergemanydict.js";
export { formatCloudConfig } from "./output.js";
export {
  type CloudConfigMode,
  type CloudConfigPart,
  type CloudConfigResult,
  type CloudConfigType,
  type CloudConfigWarning,
  type CloudConfigWarningCode,
  type MergeCloudConfigOptions,
  mergeCloudConfig,
  type PartOutcome,
} from "./parts.js";
export {
  CLOUD_CONFIG_DEFAULT_SPEC,
  type CloudInitMergers,
  cloudInitPlugins,
  createCloudInitRegistry,
  MERGERS_DEFAULT_SPEC,
  STACK_DEFAULT_SPEC,
} from "./plugins.js";
export { type StrOption, strMerger } from "./str.js";
export {
  type ConfdDirectory,
  loadSystemConfig,
  type SystemConfigFile,
  type SystemConfigOptions,
  type SystemConfigResult,
  type SystemConfigWarning,
} from "./system-config.js";
export { type RenderedUserData, renderTemplateParts, type TemplatePartOutcome } from "./template-parts.js";
export {
  createTemplateRenderer,
  type DetectedTemplate,
  detectTemplate,
  MISSING_JINJA_PREFIX,
  type RenderedTemplate,
  type TemplateRenderer,
} from "./templates.js";
export {
  cloudInitSchemaCandidates,
  findCloudInitSchema,
  loadSchema,
  type ValidateOptions,
  type ValidationResult,
  validateCloudConfig,
} from "./validate.js";
export { type MergeUserDataOptions, mergeUserData, type UserDataResult } from "./user-data.js";
