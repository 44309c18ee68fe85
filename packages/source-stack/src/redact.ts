import { isMergeError, MergeError } from "@merge/core";

/** Whether a template's text holds any Jinja syntax (otherwise its rendering is the author's text itself). */
export function hasJinja(source: string): boolean {
  return /\{[{%#]/.test(source);
}

/**
 * A YAML error in text a template rendered, told without quoting that text: what went wrong, the line and column,
 * and the template's own line there. The rendered text may hold pillar or opts values (a password starting with
 * `*` or `!` reads as an alias or a tag), and those must not reach a message or a log; the template's source is
 * the author's text and may be shown. Errors in a file without Jinja syntax are the author's literal text: they keep
 * their message. Anything that is not a `MergeError` passes through.
 */
export function withoutRenderedText(error: unknown, source: string, rendered: string): unknown {
  if (!isMergeError(error) || !hasJinja(source)) return error;
  const line = error.source?.line;
  const column = error.source?.column;
  let message = `${yamlProblem(error.message)} in the rendered text`;
  if (line !== undefined) message += ` at line ${line}${column === undefined ? "" : `, column ${column}`}`;
  message += " (rendered text is not shown: it may hold pillar or opts values)";
  const lines = (text: string) => text.replace(/(?:\r\n?|\n)$/, "").split(/\r\n?|\n/);
  const sourceLines = lines(source);
  // The template's line is shown when template and rendering have as many lines (then line N is line N).
  if (line !== undefined && sourceLines.length === lines(rendered).length) {
    const text = sourceLines[line - 1]?.trim() ?? "";
    if (text !== "")
      message += `; the template's line ${line}: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
  }
  return new MergeError(error.code, message, {
    source: error.source,
    path: error.keys,
    details: error.details,
  });
}

/** What kind of YAML problem a message names: its words up to the first quoted fragment or colon. */
function yamlProblem(message: string): string {
  const cut = message.search(/['"`:]/);
  const kind = (cut < 0 ? message : message.slice(0, cut)).trim();
  return kind === "" ? "invalid YAML" : kind;
}
