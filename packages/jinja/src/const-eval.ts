// Computes a literal expression of a template while it is compiled, for Jinja's constant folding (const-fold.ts):
// compiled as at run time, run with the environment's filters and a budget of its own, and refused as soon as it
// looks a name up, calls something or runs a filter that is given the render context (what Jinja does not fold).
import { RenderAccount } from "./budget.js";
import { type CompileNames, compileConstExpression } from "./compiler.js";
import type { ConstEvaluator } from "./const-fold.js";
import type { NjAny } from "./nunjucks-internals.js";
import { NOT_CONSTANT, pyRuntime } from "./runtime.js";

// The frame of a literal expression, and its render context but for the environment (which filters use): there
// are none, so touching them is not a constant.
const NO_FRAME = new Proxy(Object.create(null), {
  get() {
    throw NOT_CONSTANT;
  },
});

function contextOnly(env: NjAny): object {
  return new Proxy(Object.create(null), {
    get(_target, key) {
      if (key === "env") return env;
      throw NOT_CONSTANT;
    },
  });
}

/** The evaluator `compileTemplate` folds with, for templates of environment `env`. */
export function constEvaluator(env: NjAny): ConstEvaluator {
  const context = contextOnly(env);
  return (node) => {
    let run: (...args: unknown[]) => unknown;
    try {
      run = new Function(
        "env",
        "context",
        "frame",
        "runtime",
        compileConstExpression(node, env.pyNames as CompileNames),
      ) as never;
    } catch {
      return undefined;
    }
    const previous = env.pyState;
    env.pyState = {
      cfgDir: previous?.cfgDir ?? "",
      cfgPath: previous?.cfgPath ?? "",
      file: previous?.file ?? "",
      vars: {},
      session: undefined,
      // A budget of its own, as large as the render's: computing it must not cost more than running it would.
      account: new RenderAccount(previous?.account.limits),
    };
    try {
      return { value: run(env, context, NO_FRAME, pyRuntime) };
    } catch {
      // Any failure (a Python error, the budget, a name) leaves the expression to run time, as Jinja does.
      return undefined;
    } finally {
      env.pyState = previous;
    }
  };
}
