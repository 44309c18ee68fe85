// Jinja's `self`: the template's own blocks, callable anywhere in it (`{{ self.title() }}` renders the block
// `title` again, as the template's context now stands).
import { setKey } from "@merge/core";
import { typeError } from "./errors.js";
import { njRuntime } from "./nunjucks-internals.js";
import { PY_REPR } from "./pyvalues.js";

/** What a compiled template passes: nunjucks' context, holding the blocks in force (an extending template's first). */
interface BlockContext {
  readonly blocks: Record<string, readonly BlockFn[]>;
  getBlock(name: string): BlockFn;
}
type BlockFn = (env: unknown, context: unknown, frame: unknown, runtime: unknown, cb: Callback) => void;
type Callback = (err: unknown, out: string) => void;

/**
 * Jinja's `TemplateReference`: one attribute per block, each a `BlockReference` that renders the block when called
 * (Jinja's `self.name()`), with the template's variables but none of the caller's loop or macro locals.
 */
export class TemplateRef {
  /** Jinja prints the template's name; templates here are named by their file, which Jinja's loader names otherwise. */
  [PY_REPR](): string {
    return "<TemplateReference None>";
  }
}

/** A block's `BlockReference`: a function that prints without an address, as our methods do. */
function blockReference(env: unknown, context: BlockContext, runtime: unknown, name: string): () => string {
  const call = (...args: unknown[]): string => {
    if (args.length > 0)
      throw typeError(
        `BlockReference.__call__() takes 1 positional argument but ${args.length + 1} were given`,
      );
    let out = "";
    context.getBlock(name)(env, context, new njRuntime.Frame(), runtime, (err, res) => {
      if (err) throw err;
      out = res;
    });
    return out;
  };
  Object.defineProperty(call, "pyRepr", { value: "<jinja2.runtime.BlockReference object>" });
  return call;
}

/** `self` in a template: the blocks the context holds now. */
export function templateRef(env: unknown, context: BlockContext, runtime: unknown): TemplateRef {
  const ref = new TemplateRef();
  for (const name of Object.keys(context.blocks))
    setKey(ref as unknown as Record<string, unknown>, name, blockReference(env, context, runtime, name));
  return ref;
}
