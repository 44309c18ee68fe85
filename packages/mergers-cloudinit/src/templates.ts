import { isMergeError, MergeError } from "@merge/core";
import type { InstanceData } from "./instance-data.js";
import { isPythonSpace } from "./python-text.js";

/** What cloud-init prints for a variable the instance data does not have (`templater.MISSING_JINJA_PREFIX`). */
export const MISSING_JINJA_PREFIX = "CI_MISSING_JINJA_VAR/";

/** A template, as cloud-init's `detect_template` sees it. */
export interface DetectedTemplate {
  /** `jinja`, or `basic` (no `## template:` line, or `## template: basic`). */
  readonly type: "jinja" | "basic";
  /** The text after the first line (the whole text for a text without a `## template:` line). */
  readonly body: string;
}

/**
 * cloud-init's `detect_template`: the first line (up to the first `\n`) is the type line; its type, lowercased and
 * stripped, must be `jinja` or `basic`. Any other type is a `TEMPLATE_SYNTAX` error, as cloud-init raises one.
 */
export function detectTemplate(text: string, file?: string): DetectedTemplate {
  const newline = text.indexOf("\n");
  const first = newline < 0 ? text : text.slice(0, newline);
  const body = newline < 0 ? "" : text.slice(newline + 1);
  const declared = typeLine(first);
  if (declared === undefined) return { type: "basic", body: text };
  const type = pythonStrip(declared.toLowerCase());
  if (type === "jinja" || type === "basic") return { type, body };
  throw new MergeError("TEMPLATE_SYNTAX", `Unknown template rendering type '${type}' requested`, {
    source: { file, line: 1 },
  });
}

/** The outcome of rendering one template with instance data. */
export interface RenderedTemplate {
  /**
   * The rendered text with the type line removed, as cloud-init hands it on: undefined when it failed (`error`) or
   * rendered to nothing (cloud-init then drops it without a word).
   */
  readonly text: string | undefined;
  /** The failure: `TEMPLATE_SYNTAX` or `TEMPLATE_RENDER`, placed at the line of the template's own text. */
  readonly error?: MergeError;
  /**
   * Variables the instance data lacks, as cloud-init lists them in its warning: every `CI_MISSING_JINJA_VAR/name` in
   * the output (printing a missing variable writes that text, which stays in the result).
   */
  readonly missing: readonly string[];
}

/** Renders jinja templates as cloud-init does; one per merge, so each template text compiles once. */
export interface TemplateRenderer {
  /** Renders the body of a `## template: jinja` text (see `detectTemplate`) whose type line is on line 1. */
  render(body: string, file: string, instanceData: InstanceData): RenderedTemplate;
}

/**
 * A renderer with cloud-init's settings: plain Jinja2 (`jinja2.Template` with the `do` extension, `trim_blocks`, no
 * loader), missing variables printed as `CI_MISSING_JINJA_VAR/name`, one trailing newline kept. `@merge/jinja` is
 * loaded only when this is called.
 */
export async function createTemplateRenderer(): Promise<TemplateRenderer> {
  const { createRenderer } = await import("@merge/jinja");
  const renderer = createRenderer({
    flavor: "jinja",
    trimBlocks: true,
    undefinedText: (name) => `${MISSING_JINJA_PREFIX}${name}`,
  });
  return {
    render(body, file, instanceData) {
      let text: string;
      try {
        text = renderer.render(body, file, instanceData.variables(), file);
      } catch (error) {
        return { text: undefined, error: onTemplateLine(error, file), missing: [] };
      }
      // Jinja drops one trailing newline (keep_trailing_newline=False); cloud-init puts it back.
      if (body.endsWith("\n")) text += "\n";
      return { text: text === "" ? undefined : text, missing: missingNames(text) };
    },
  };
}

/** cloud-init's warning regex: the prefix and the non-space characters after it. */
function missingNames(text: string): string[] {
  const out: string[] = [];
  let at = text.indexOf(MISSING_JINJA_PREFIX);
  while (at >= 0) {
    let end = at + MISSING_JINJA_PREFIX.length;
    while (end < text.length && !isPythonSpace(text.charCodeAt(end))) end++;
    // `[^\s]+` needs one character at least.
    if (end > at + MISSING_JINJA_PREFIX.length) out.push(text.slice(at + MISSING_JINJA_PREFIX.length, end));
    at = text.indexOf(MISSING_JINJA_PREFIX, Math.max(end, at + 1));
  }
  return out;
}

/** The engine counts lines from the body; the part's own text has the type line before it. */
function onTemplateLine(error: unknown, file: string): MergeError {
  if (!isMergeError(error)) {
    return new MergeError("TEMPLATE_RENDER", `template ${file} failed: ${String(error)}`, {
      source: { file },
      cause: error,
    });
  }
  const line = error.source?.line;
  error.source = { ...error.source, file, line: line === undefined ? undefined : line + 1 };
  return error;
}

/** `re.match(r"##\s*template:(.*)", line, re.I)`: what follows `template:`, or undefined. */
function typeLine(line: string): string | undefined {
  if (!line.startsWith("##")) return undefined;
  let i = 2;
  while (i < line.length && isPythonSpace(line.charCodeAt(i))) i++;
  if (line.slice(i, i + 9).toLowerCase() !== "template:") return undefined;
  return line.slice(i + 9);
}

function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
