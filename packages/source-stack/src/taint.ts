import { type Dict, isPlainObject, setKey } from "@merge/core";

/*
 * Grains and the minion id are set by the minion. When they are interpolated into a config template, a value such as
 * `*` would turn `minions/{{ minion_id }}.yml` into a pattern matching every host's file. So, by default, their
 * glob characters are swapped for private-use characters before rendering, and swapped back, escaped, after: the
 * value then matches only itself. Characters written by the template's author keep their meaning.
 */

const MARK: Readonly<Record<string, string>> = { "*": "\uE02A", "?": "\uE03F", "[": "\uE05B" };
const UNMARK: Readonly<Record<string, string>> = { "\uE02A": "[*]", "\uE03F": "[?]", "\uE05B": "[[]" };
const GLOB_CHARS = /[*?[]/g;
const MARKED = /[\uE02A\uE03F\uE05B]/g;

export function markString(value: string): string {
  return value.replace(GLOB_CHARS, (c) => MARK[c]!);
}

/** A copy of a grains tree whose strings (keys included) carry marked glob characters. */
export function markTree(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return markString(value);
  if (depth > 200 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => markTree(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Dict = {};
  for (const key of Object.keys(value)) setKey(out, markString(key), markTree(value[key], depth + 1));
  return out;
}

/** Turns marked characters back into glob patterns that match only the character itself. */
export function unmarkPattern(item: string): string {
  return item.replace(MARKED, (c) => UNMARK[c]!);
}
