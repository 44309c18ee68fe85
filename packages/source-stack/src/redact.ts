import { isMergeError, MergeError } from "@merge/core";
import { jinjaSource } from "@merge/jinja";

/**
 * A YAML error in a stack file's rendered text, as it may be told: a templated file's without the rendered text
 * (`withoutRenderedText`); a file whose rendering is its own text (no template syntax) with the line it points at
 * (`withSourceLine`). Anything else (a custom renderer that changed a file without Jinja syntax) as it is.
 *
 * The line is given as `details.excerpt` (`{ line, column, text }`), which the CLI prints under the message with a
 * caret under the column. It is given only when it is the author's text, exactly: the rendered line the position
 * counts in is the same string as the template's line of that number. So no pillar, grains or opts value can be in
 * it, and the caret stands where the parser stopped.
 */
export function renderedYamlError(error: unknown, source: string, rendered: string): unknown {
  if (hasJinja(source)) return withoutRenderedText(error, source, rendered);
  return rendered === jinjaSource(source) ? withSourceLine(error, rendered) : error;
}

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
  // A line the rendering left as the author wrote it is quoted exactly, with a caret; no other rendered text is.
  const exact = line === undefined || column === undefined ? undefined : sameLine(source, rendered, line);
  if (exact !== undefined) {
    message += " (a line of the template's own text; other rendered text is not shown)";
    return new MergeError(error.code, message, {
      source: error.source,
      path: error.keys,
      details: { ...error.details, excerpt: { line, column, text: exact } },
    });
  }
  message += " (rendered text is not shown: it may hold pillar or opts values)";
  const lines = (text: string) => text.replace(/(?:\r\n?|\n)$/, "").split(/\r\n?|\n/);
  const sourceLines = lines(source);
  // The template's line is shown when template and rendering have as many lines (then line N is line N). An
  // unclosed collection is marked past the last line, where the text ends (as Salt's loader marks it): its last line.
  if (line !== undefined && sourceLines.length === lines(rendered).length) {
    const at = Math.min(line, sourceLines.length);
    const text = sourceLines[at - 1]?.trim() ?? "";
    const which = at < line ? "last line" : "line";
    if (text !== "")
      message += `; the template's ${which} ${at}: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
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

/** Line `line` of the rendered text when it is, exactly, the template's line of that number. */
function sameLine(source: string, rendered: string, line: number): string | undefined {
  const text = yamlLines(rendered)[line - 1];
  return text !== undefined && text === yamlLines(jinjaSource(source))[line - 1] ? text : undefined;
}

/** The lines YAML positions count in (PyYAML's line breaks). */
function yamlLines(text: string): string[] {
  return text.split(/\r\n|[\r\n\u0085\u2028\u2029]/);
}

/** A YAML error in a file whose rendering is its own text, with the line it points at (see `renderedYamlError`). */
function withSourceLine(error: unknown, rendered: string): unknown {
  if (!isMergeError(error)) return error;
  const line = error.source?.line;
  const column = error.source?.column;
  if (line === undefined || column === undefined) return error;
  const text = yamlLines(rendered)[line - 1];
  return text === undefined ? error : withExcerpt(error, line, column, text);
}

/** The error with `details.excerpt`, the line (`text`, numbered `line`) it points at, and the column in it. */
function withExcerpt(error: MergeError, line: number, column: number, text: string): MergeError {
  return new MergeError(error.code, error.message, {
    source: error.source,
    path: error.keys,
    plugin: error.plugin,
    cause: error.cause,
    details: { ...error.details, excerpt: { line, column, text } },
  });
}

const TEMPLATE_CODES = new Set(["TEMPLATE_SYNTAX", "TEMPLATE_RENDER", "TEMPLATE_LIMIT"]);

/**
 * A template error with the template's line it points at as `details.excerpt` (the CLI prints it with a caret under
 * the column). That line is the template file's own text, which its author wrote, never rendered text; `textOf`
 * gives a file's text by the name the error gives it (undefined when it cannot be read: then no line is shown).
 */
export function withTemplateLine(error: unknown, textOf: (file: string) => string | undefined): unknown {
  if (!isMergeError(error) || !TEMPLATE_CODES.has(error.code)) return error;
  const { file, line, column } = error.source ?? {};
  const details = error.details as { excerpt?: unknown } | undefined;
  if (file === undefined || line === undefined || column === undefined || details?.excerpt !== undefined)
    return error;
  const source = textOf(file);
  const text = source === undefined ? undefined : jinjaSource(source).split(/\r\n|\r|\n/)[line - 1];
  return text === undefined ? error : withExcerpt(error, line, column, text);
}
