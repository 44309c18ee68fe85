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

export function typeError(message: string): TemplateProblem {
  return new TemplateProblem(`TypeError: ${message}`);
}
