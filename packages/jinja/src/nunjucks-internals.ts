// The parts of nunjucks 3.2.4 this folder builds on that @types/nunjucks does not describe (parser, compiler,
// lexer, nodes, runtime internals). Typed loosely on purpose: they are nunjucks' internal classes.
import nunjucks from "nunjucks";

// biome-ignore lint/suspicious/noExplicitAny: nunjucks' internals are untyped JavaScript classes.
type Any = any;

const nj = nunjucks as unknown as Record<string, Any>;

export const njParser: Any = nj.parser;
export const njCompiler: Any = nj.compiler;
export const njLexer: Any = nj.lexer;
export const njNodes: Any = nj.nodes;
export const njRuntime: Any = nj.runtime;
export const NjTemplate: Any = nj.Template;
export const NjEnvironment: Any = nj.Environment;
export type NjAny = Any;
