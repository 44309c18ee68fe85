import { oneLine, type Painter } from "./io.js";

/**
 * The input line an error points at, and a caret under its column, when the error carries one (`details.excerpt`, see
 * `withExcerpt` in load-document.ts); otherwise nothing. Printed under the error's (or warning's) own line:
 * ```
 *     3 | ports: [80, 443
 *       |                ^
 * ```
 * Control characters (and tabs) are shown as escapes, as in every message; the caret counts the columns of the escaped
 * text.
 * Long lines are cut around the column.
 */
export function errorExcerpt(error: { readonly details?: unknown }, paint: Painter): string {
  const excerpt = (error.details as { excerpt?: unknown } | undefined)?.excerpt;
  if (typeof excerpt !== "object" || excerpt === null) return "";
  const { line, column, text } = excerpt as { line?: unknown; column?: unknown; text?: unknown };
  if (typeof line !== "number" || typeof column !== "number" || typeof text !== "string") return "";
  const chars = [...text];
  const at = Math.max(0, Math.min(column - 1, chars.length));
  const start = Math.max(0, at - 60);
  const shown = (part: string) => oneLine(part.replace(/\t/g, "\\t"));
  const before = (start > 0 ? "…" : "") + shown(chars.slice(start, at).join(""));
  const after = shown(chars.slice(at, at + 60).join("")) + (at + 60 < chars.length ? "…" : "");
  const gutter = String(line).padStart(5);
  const blank = " ".repeat(gutter.length);
  return `${paint.dim(`${gutter} |`)} ${before}${after}\n${paint.dim(`${blank} |`)} ${" ".repeat([...before].length)}${paint.red("^")}\n`;
}
