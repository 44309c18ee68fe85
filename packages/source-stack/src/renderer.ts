/** What the loader needs from the template engine (implemented by `@merge/jinja`). */
export interface StackRenderer {
  /**
   * Renders template text `source` read from `file` with `vars`; `cfgPath` is the config file the template belongs
   * to (relative imports and `__stack__.cfg_path`). Compiled templates are cached per file. With `opaqueText`,
   * values marked by `markOpaque` (grains and the minion id in config templates) are read through their marks
   * (see `RenderOptions` of `@merge/jinja`); a renderer that ignores the option sees them marked.
   */
  render(
    source: string,
    file: string,
    vars: Record<string, unknown>,
    cfgPath: string,
    options?: { readonly opaqueText?: boolean },
  ): string;
}

/** A template warning (for example from `log.warning` in a template). */
export interface TemplateWarningLike {
  readonly message: string;
  readonly file?: string;
}
