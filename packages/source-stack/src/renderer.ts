/** What the loader needs from the template engine (implemented by `@merge/jinja`). */
export interface StackRenderer {
  /**
   * Renders template text `source` read from `file` with `vars`; `cfgPath` is the config file the template belongs
   * to (relative imports and `__stack__.cfg_path`). Compiled templates are cached per file.
   */
  render(source: string, file: string, vars: Record<string, unknown>, cfgPath: string): string;
}

/** A template warning (for example from `log.warning` in a template). */
export interface TemplateWarningLike {
  readonly message: string;
  readonly file?: string;
}
