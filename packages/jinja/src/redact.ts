// What an error in data a template decodes may say. The text given to `load_yaml`, `load_json` or an import
// rendered with variables may hold pillar or opts values (a password starting with `*` or `!` reads as a YAML alias
// or tag), so its messages give the kind of problem and the position, never the text. A file imported without any
// Jinja syntax is the author's literal text: its messages are kept whole.
import { isMergeError } from "@merge/core";

/** The message for a failed `import_*`/`load_*` of `kind` from `where`. */
export function decodeErrorMessage(kind: string, where: string, error: unknown, literal: boolean): string {
  const raw = isMergeError(error) ? error.message : String((error as Error)?.message ?? error);
  if (kind === "json") {
    if (literal) return `Unable to load json from ${where}: ${raw}`;
    const at = /at position (\d+)/.exec(raw);
    return `Unable to load json from ${where}: invalid JSON${at === null ? "" : ` at position ${at[1]}`} (the text is not shown: it may hold pillar or opts values)`;
  }
  if (literal) return `Encountered error loading yaml from ${where}: ${raw}`;
  const cut = raw.search(/['"`:]/);
  const problem = (cut < 0 ? raw : raw.slice(0, cut)).trim() || "invalid YAML";
  const source = isMergeError(error) ? error.source : undefined;
  const at =
    source?.line === undefined
      ? ""
      : ` at line ${source.line}${source.column === undefined ? "" : `, column ${source.column}`}`;
  return `Encountered error loading yaml from ${where}: ${problem}${at} (the text is not shown: it may hold pillar or opts values)`;
}

/** Whether a template's text holds any Jinja syntax. */
export function hasJinja(source: string): boolean {
  return /\{[{%#]/.test(source);
}
