export { DEFAULT_LIMITS, type TemplateLimits } from "./budget.js";
export { type CompileNames, compileTemplate } from "./compiler.js";
export { jinjaFilters, jinjaTests, saltFilters } from "./filters.js";
export { pyFormatMethod, pyPercent } from "./pyformat.js";
export {
  DictView,
  floatRepr,
  PyTuple,
  pyBool,
  pyEq,
  pyRepr,
  pyStr,
} from "./pyvalues.js";
export { type CompiledTemplateStore, jinjaSource } from "./environment.js";
export { nodeTemplateFiles, type TemplateFileInfo, type TemplateFileSystem } from "./files.js";
export { compileFnmatch, fnmatch, fnmatchRegex } from "./fnmatch.js";
export {
  createRenderer,
  type Renderer,
  type RendererOptions,
  type RenderOptions,
  type TemplateWarning,
} from "./renderer.js";
export { markOpaque, opaqueChar, plainOpaque } from "./opaque.js";
export { type SaltHost, saltBuiltins, traverse } from "./salt.js";
export { type JsonOptions, pyJsonDumps, pyPformat } from "./serialize-python.js";
