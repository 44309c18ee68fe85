import {
  formatPath,
  getItem,
  isMapping,
  isPyFloat,
  keyText,
  MergeError,
  mappingKeys,
  numberValue,
  type PathKey,
} from "@merge/core";
import { closest } from "./suggest.js";

/** One step of a key as written: a text to match against keys (or an index), or an exact quoted key. */
interface Step {
  readonly text: string;
  /** `["a.b"]` or `'a:b'`: one key, never split or read as an index. */
  readonly quoted: boolean;
  /** The separator written before this step (`:`, `.` or `` for the first and bracketed steps). */
  readonly before: string;
}

export type KeyLookup =
  | { readonly found: true; readonly path: readonly PathKey[]; readonly value: unknown }
  | {
      readonly found: false;
      /** The longest prefix of the key that exists, and what is there. */
      readonly nearest: readonly PathKey[];
      readonly nearestValue: unknown;
      /** The step that matched nothing, as written. */
      readonly missing: string;
    };

/**
 * Splits a key as users write it: Salt's `a:b:c`, dotted `a.b.c`, list indexes as steps (`users:0:name`,
 * `users.0.name`) or in brackets (`users[0].name`), and quoted keys (`servers["web.example.com"]`, `'a.b'.c`),
 * which is also how `--explain` prints paths.
 */
export function parseKey(key: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  let before = "";
  let text = "";
  let pending = false;
  const push = (step: Step) => {
    steps.push(step);
    text = "";
    pending = false;
  };
  while (i < key.length) {
    const c = key[i]!;
    if ((c === '"' || c === "'") && text === "") {
      const end = key.indexOf(c, i + 1);
      if (end < 0) throw badKey(key, `the quote at ${i + 1} is not closed`);
      push({ text: key.slice(i + 1, end), quoted: true, before });
      i = end + 1;
      before = "";
      continue;
    }
    if (c === "[") {
      if (pending || text !== "") push({ text, quoted: false, before });
      const close = key.indexOf("]", i + 1);
      if (close < 0) throw badKey(key, `the [ at ${i + 1} is not closed`);
      const inner = key.slice(i + 1, close);
      if (inner.startsWith('"') && inner.endsWith('"') && inner.length >= 2) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(inner);
        } catch {
          throw badKey(key, `${inner} is not a quoted key`);
        }
        push({ text: String(parsed), quoted: true, before: "" });
      } else {
        push({ text: inner, quoted: false, before: "" });
      }
      i = close + 1;
      before = "";
      continue;
    }
    if (c === ":" || c === ".") {
      if (pending || text !== "" || steps.length === 0) push({ text, quoted: false, before });
      before = c;
      pending = true;
      i++;
      continue;
    }
    text += c;
    pending = true;
    i++;
  }
  if (pending || text !== "" || steps.length === 0) push({ text, quoted: false, before });
  return steps;
}

function badKey(key: string, why: string): MergeError {
  return new MergeError("KEY_SYNTAX", `cannot read the key ${JSON.stringify(key)}: ${why}`);
}

/** How a key is written when a user types it: Python's `str()` of the key (`8080`, `True`, `None`, `1.0`). */
function keyWords(key: PathKey): string[] {
  if (typeof key === "string") return [key];
  if (typeof key === "boolean") return key ? ["True", "true"] : ["False", "false"];
  if (key === null || key === undefined) return ["None", "null", "~"];
  const text = keyText(key);
  return isPyFloat(key) ? [text, String(numberValue(key))] : [text];
}

/**
 * Finds the value a key names in a result. At a mapping, the longest run of the remaining steps (joined as written)
 * that is a key wins, so keys holding `.` or `:` (`mysql.host`) are found; a key that is not a string matches its
 * Python text (`8080`, `True`). At a list, a step is an index (negative from the end, as Python) or, as Salt's
 * `traverse_dict_and_list` does, a key of the first mapping item that has it.
 */
export function lookupKey(root: unknown, key: string): KeyLookup {
  const steps = parseKey(key);
  const path: PathKey[] = [];
  let node = root;
  let at = 0;
  while (at < steps.length) {
    const found = stepInto(node, steps, at);
    if (found === undefined) {
      return { found: false, nearest: path, nearestValue: node, missing: steps[at]!.text };
    }
    path.push(...found.keys);
    node = found.value;
    at += found.used;
  }
  return { found: true, path, value: node };
}

function stepInto(
  node: unknown,
  steps: readonly Step[],
  at: number,
): { keys: PathKey[]; value: unknown; used: number } | undefined {
  if (isMapping(node)) {
    const keys = mappingKeys(node);
    // Longest first: `mysql.host` is one key before it is two steps.
    for (let used = steps.length - at; used >= 1; used--) {
      if (used > 1 && steps.slice(at, at + used).some((step) => step.quoted)) continue;
      const text = joined(steps, at, used);
      let index = keys.indexOf(text);
      if (index < 0 && !steps[at]!.quoted) {
        index = keys.findIndex((key) => typeof key !== "string" && keyWords(key).includes(text));
      }
      if (index >= 0) return { keys: [keys[index]!], value: getItem(node, keys[index]!), used };
    }
    return undefined;
  }
  if (Array.isArray(node)) {
    const step = steps[at]!;
    if (!step.quoted && /^-?\d+$/.test(step.text)) {
      const index = Number(step.text);
      const real = index < 0 ? node.length + index : index;
      if (real < 0 || real >= node.length) return undefined;
      return { keys: [real], value: node[real], used: 1 };
    }
    for (let index = 0; index < node.length; index++) {
      const item = node[index];
      if (!isMapping(item)) continue;
      const inner = stepInto(item, steps, at);
      if (inner !== undefined) return { keys: [index, ...inner.keys], value: inner.value, used: inner.used };
    }
  }
  return undefined;
}

function joined(steps: readonly Step[], at: number, count: number): string {
  let text = steps[at]!.text;
  for (let i = at + 1; i < at + count; i++) text += steps[i]!.before + steps[i]!.text;
  return text;
}

/**
 * `no value at "sshd:prot": sshd is a mapping with keys port, permit_root_login (did you mean sshd.port?)`: the
 * error for a key that names nothing, with the nearest path that exists.
 */
export function keyNotFound(key: string, lookup: Extract<KeyLookup, { found: false }>): MergeError {
  return new MergeError(
    "KEY_NOT_FOUND",
    `no value at ${JSON.stringify(key)}: ${whereLookupStopped(lookup)}`,
    {
      path: lookup.nearest,
      details: { key, missing: lookup.missing },
    },
  );
}

/** `sshd is a mapping with keys port, permit_root_login (did you mean sshd.port?)`: where a lookup found nothing. */
export function whereLookupStopped(lookup: Extract<KeyLookup, { found: false }>): string {
  const near = lookup.nearest.length === 0 ? "the result" : formatPath(lookup.nearest);
  const value = lookup.nearestValue;
  let what: string;
  let hint = "";
  if (isMapping(value)) {
    const keys = mappingKeys(value);
    const names = keys.map((k) => keyWords(k)[0]!);
    what = keys.length === 0 ? "an empty mapping" : `a mapping with keys ${preview(names)}`;
    const best = closest(lookup.missing, names);
    if (best !== undefined) {
      const key = keys[names.indexOf(best)]!;
      hint = ` (did you mean ${formatPath([...lookup.nearest, key])}?)`;
    }
  } else if (Array.isArray(value)) {
    what =
      value.length === 0
        ? "an empty list"
        : `a list of ${value.length} item${value.length === 1 ? "" : "s"} (indexes 0 to ${value.length - 1})`;
  } else {
    what = `a ${value === null ? "null" : typeof value === "object" ? "scalar" : typeof value} value, with nothing inside`;
  }
  return `${near} is ${what}${hint}`;
}

function preview(names: readonly string[]): string {
  const shown = names.slice(0, 8).join(", ");
  return names.length > 8 ? `${shown}, … (${names.length} in all)` : shown;
}
