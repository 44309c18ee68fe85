import { type Dict, hasOwn, isPlainObject, PyDict, setKey } from "@merge/core";
import { markOpaque, opaqueChar, plainOpaque } from "@merge/jinja";

/*
 * Grains and the minion id are set by the minion. A config template interpolates them into its listing, which is then
 * split into lines, maybe read as YAML, and each item globbed as a path: a value holding a line break, a quote, a
 * YAML escape, a glob character or `../` would add lines, change the YAML, widen the pattern or leave the directory.
 * So, by default, the config template gets them as opaque text (`markOpaque` of @merge/jinja): every character that
 * could mean something to a reader is a private-use mark, which no reader treats as structure, while the template
 * still sees the plain text in comparisons, lookups and string methods. After the listing is split and parsed, each
 * item is turned back into a glob pattern here, by provenance: a marked `*?[]` becomes a bracket expression matching
 * only itself; a marked `/`, line break, control or format character, or a marked `.` in a `.`/`..` segment, makes
 * the item refused. Characters the template's author wrote keep their meaning.
 */

/** The config template's view of the values a minion controls: the minion id, grains and Salt's copies in opts. */
export function markHostValues(
  minionId: string,
  grains: Dict,
  opts: Dict,
): { minionId: string; grains: Dict; opts: Dict } {
  let markedOpts = opts;
  // Salt's pillar compiler sets `__opts__['id']` and `__opts__['grains']` from the minion, in either value model.
  if (opts instanceof PyDict && (opts.has("id") || opts.has("grains"))) {
    const marked = new PyDict();
    for (const [key, value] of opts.entries())
      marked.set(key, key === "id" || key === "grains" ? markOpaque(value) : value);
    markedOpts = marked as unknown as Dict;
  } else if (isPlainObject(opts) && (hasOwn(opts, "id") || hasOwn(opts, "grains"))) {
    markedOpts = {};
    for (const key of Object.keys(opts)) {
      const value = opts[key];
      setKey(markedOpts, key, key === "id" || key === "grains" ? markOpaque(value) : value);
    }
  }
  return { minionId: markOpaque(minionId) as string, grains: markOpaque(grains) as Dict, opts: markedOpts };
}

/** A config item as a glob pattern, or why it is refused. */
export type ItemPattern = { readonly pattern: string } | { readonly refused: string };

const GLOB_ESCAPE: Readonly<Record<string, string>> = { "*": "[*]", "?": "[?]", "[": "[[]", "]": "[]]" };
// Characters a file name made from a minion value may not hold: controls (line breaks included), format
// characters, line and paragraph separators, noncharacters. Of ASCII, only the controls; the pattern for the rest is
// built on first use (a pattern of Unicode classes costs V8 a good part of a millisecond, at every start).
let refusedPattern: RegExp | undefined;
function refusedChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return code < 0x20 || code === 0x7f;
  refusedPattern ??= /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Cs}]/u;
  return refusedPattern.test(ch);
}

/** Turns a config item holding marks into a glob pattern, by the rules at the top of this file. */
export function itemPattern(item: string): ItemPattern {
  let pattern = "";
  let plain = "";
  const markedDot: boolean[] = [];
  for (let i = 0; i < item.length; i++) {
    const code = item.charCodeAt(i);
    const ch = opaqueChar(code);
    if (ch === undefined) {
      pattern += item[i];
      plain += item[i];
      markedDot.push(false);
      continue;
    }
    if (ch === null) return { refused: "it holds a character of a minion value that cannot be named" };
    if (ch === "/") return { refused: "a '/' from a minion value would leave its path segment" };
    if (refusedChar(ch)) {
      return { refused: `a minion value put the control character ${codeName(ch)} into it` };
    }
    pattern += GLOB_ESCAPE[ch] ?? ch;
    plain += ch;
    markedDot.push(ch === ".");
  }
  let start = 0;
  for (const segment of plain.split("/")) {
    if (segment === "." || segment === "..") {
      if (markedDot[start] === true || markedDot[start + 1] === true) {
        return { refused: `a minion value made a '${segment}' path segment` };
      }
    }
    start += segment.length + 1;
  }
  return { pattern };
}

function codeName(ch: string): string {
  return `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A config item as it may be shown in a message: the plain text, with quotes, backslashes, controls, separators and
 * other invisible characters written as escapes, so a hostile value can neither break the line nor hide in it.
 */
export function showItem(item: string): string {
  return plainOpaque(item).replace(/["\\\p{C}\p{Z}]/gu, (c) =>
    c === " "
      ? c
      : c === '"' || c === "\\"
        ? `\\${c}`
        : c.length > 1
          ? `\\u{${c.codePointAt(0)!.toString(16)}}`
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
