// The error a template raises while it renders or compiles, before the renderer turns it into a MergeError with
// the file, line and column (1-based) where it happened.
export class TemplateProblem extends Error {
  readonly code: "TEMPLATE_SYNTAX" | "TEMPLATE_RENDER" | "TEMPLATE_LIMIT";
  file: string | undefined;
  line: number | undefined;
  column: number | undefined;

  constructor(
    message: string,
    options: {
      code?: "TEMPLATE_SYNTAX" | "TEMPLATE_RENDER" | "TEMPLATE_LIMIT";
      file?: string;
      line?: number;
      column?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TemplateProblem";
    this.code = options.code ?? "TEMPLATE_RENDER";
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
  }

  /** nunjucks calls this on errors passing through its own render; ours already carry their position. */
  Update(): this {
    return this;
  }
}

/** Jinja's UndefinedError: using an undefined value beyond printing or testing it. */
export function undefinedError(what: string): TemplateProblem {
  return new TemplateProblem(`'${what}' is undefined`);
}

/**
 * A lookup of a render that found nothing on an existing value (`pillar.x` on a dict without `x`): the text of the
 * expression, the value looked in and the attribute name or key. An undefined value made that way is, in Jinja, an
 * `Undefined` that remembers both, and using it raises their message rather than `'pillar.x' is undefined`.
 */
export interface LookupMiss {
  readonly desc: string;
  readonly obj: unknown;
  readonly name: unknown;
  /** Jinja's message when it is not the usual one (an import's name the template does not export). */
  readonly message?: string;
}

/** How many of a render's latest misses are kept: enough for the operands of one expression (`a.x + b.y`). */
export const MISSES_KEPT = 4;

/**
 * The UndefinedError for using the undefined value of expression `desc`: Jinja's message for a lookup that missed
 * (`'dict object' has no attribute 'x'`, `list object has no element 5`) when one of the latest `misses` is that
 * expression's, else `'desc' is undefined`. `typeRepr` and `repr` are Jinja's `object_type_repr` and Python's
 * `repr`.
 */
export function undefinedUse(
  desc: string,
  misses: readonly LookupMiss[] | undefined,
  typeRepr: (value: unknown) => string,
  repr: (value: unknown) => string,
): TemplateProblem {
  if (misses !== undefined) {
    for (let i = misses.length - 1; i >= 0; i--) {
      const miss = misses[i] as LookupMiss;
      if (miss.desc === desc)
        return new TemplateProblem(miss.message ?? missMessage(miss.obj, miss.name, typeRepr, repr));
    }
  }
  return undefinedError(desc);
}

/** Jinja's `Undefined._undefined_message` for a value that has no attribute or element `name`. */
export function missMessage(
  obj: unknown,
  name: unknown,
  typeRepr: (value: unknown) => string,
  repr: (value: unknown) => string,
): string {
  return typeof name === "string"
    ? `${repr(typeRepr(obj))} has no attribute ${repr(name)}`
    : `${typeRepr(obj)} has no element ${repr(name)}`;
}

/**
 * Using an undefined value as an operand (`+`, `%`, `<`) or as the value of a filter or test that cannot take one
 * (`int`, `even`). Where the expression is known (a filter or test, see `pyChecked` in runtime.ts), it becomes
 * Jinja's message for that value.
 */
export class UndefinedOperand extends TemplateProblem {}

export function undefinedOperand(use: string): UndefinedOperand {
  return new UndefinedOperand(`an undefined value was used with ${use}`);
}

export function typeError(message: string): TemplateProblem {
  return new TemplateProblem(`TypeError: ${message}`);
}
