import { formatPath } from "@merge/core";
import type { ExplainDecision, ExplainLoss, ExplainRemoval, Explanation } from "@merge/explain";
import { yamlText } from "../render.js";

/** `file:line`, `file`, or `?`. */
export function where(name: string | undefined, line: number | undefined): string {
  if (name === undefined) return "?";
  return line === undefined ? name : `${name}:${line}`;
}

/** Where an origin is: `file:line`, then what its input says more about it (a query and row), if anything. */
export function originWhere(origin: { name: string; line: number | undefined; detail?: string }): string {
  const at = where(origin.name, origin.line);
  return origin.detail === undefined ? at : `${at}, ${origin.detail}`;
}

const SHORT = 40;

/** A value on one line, as YAML writes it (`'yes'`, `9.0`, `null`), cut at 40 characters. */
export function shortValue(value: unknown): string {
  let text: string;
  try {
    text = yamlText(value)
      .replace(/\n\.\.\.\n$/, "")
      .trimEnd();
  } catch {
    text = String(value);
  }
  if (text.includes("\n")) text = `${JSON.stringify(text.split("\n")[0])}…`;
  return text.length > SHORT ? `${text.slice(0, SHORT)}…` : text;
}

/** `lost: 22 (core.yml:14), a mapping (web.yml:3)`: what other inputs had there; "" when nothing lost. */
export function describeLosers(lost: readonly ExplainLoss[]): string {
  if (lost.length === 0) return "";
  const shown = lost.slice(-3).map((loss) => {
    const what =
      loss.kind === "value" ? shortValue(loss.value) : loss.kind === "dict" ? "a mapping" : "a list";
    return `${what} (${originWhere(loss.origin)})`;
  });
  const more = lost.length > 3 ? `${lost.length - 3} more, ` : "";
  return `lost: ${more}${shown.join(", ")}`;
}

/**
 * `removed users.deploy: by stack() in roles/db.yml:11` for a key; for items taken out of a list that stays,
 * `removed from packages: vim (1 item, by stack() in roles/db.yml:12)`.
 */
export function describeRemoval(removal: ExplainRemoval): string {
  const d = removal.decision;
  const path = formatPath(removal.path) || "(root)";
  const how = `by ${d.merger} in ${where(d.name, d.line)}`;
  if (removal.items === undefined) {
    const why = d.detail === undefined ? "" : `, ${d.detail}`;
    return `removed ${path}: ${how}${why}`;
  }
  if (removal.items.length === 0) return `removed items from ${path}: ${how}`;
  const { shown, count } = itemList(removal.items);
  return `removed from ${path}: ${shown} (${count}, ${how})`;
}

/**
 * A removal as one input's step of a `--get KEY --explain` story tells it (the step names the input):
 * `removed users.deploy by stack()`, `removed from packages: htop (1 item) by stack() (equal items)`.
 */
export function describeRemovalInStep(removal: ExplainRemoval): string {
  const path = formatPath(removal.path) || "(root)";
  const by = byMerger(removal.decision);
  if (removal.items === undefined) return `removed ${path} ${by}`;
  if (removal.items.length === 0) return `removed items from ${path} ${by}`;
  const { shown, count } = itemList(removal.items);
  return `removed from ${path}: ${shown} (${count}) ${by}`;
}

/** `by stack()`, or `by stack() (__: overwrite)` when the decision says more. */
export function byMerger(decision: ExplainDecision): string {
  const detail = decision.detail;
  return `by ${decision.merger}${detail === undefined || detail === "" ? "" : ` (${detail})`}`;
}

/** The first five items on one line (`htop, vim, …`) and how many there are (`1 item`, `7 items`). */
function itemList(items: readonly unknown[]): { shown: string; count: string } {
  const shown = items.slice(0, 5).map(shortValue).join(", ") + (items.length > 5 ? ", …" : "");
  return { shown, count: `${items.length} item${items.length === 1 ? "" : "s"}` };
}

/** The `--explain` header: the title, the inputs in merge order with their notes, and what was removed. */
export function headerLines(title: string, explanation: Explanation, base?: string): string[] {
  const lines = title.split("\n");
  if (base !== undefined) lines.push(`paths are relative to ${base}`);
  lines.push("inputs, in merge order:");
  for (const input of explanation.documents) {
    const notes: string[] = [];
    if (input.note !== undefined) notes.push(input.note);
    // A rejected part or an ignored file says so already.
    if (!input.contributed && !/^(rejected|ignored)/.test(input.note ?? ""))
      notes.push("contributed nothing");
    lines.push(`  ${input.index + 1}. ${input.name}${notes.length === 0 ? "" : ` (${notes.join("; ")})`}`);
  }
  for (const removal of explanation.removed) lines.push(describeRemoval(removal));
  return lines;
}
