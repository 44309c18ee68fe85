import type { MergerContext, MergerOptions, MergerPlugin } from "@merge/core";
import { hasItem, isMapping, mappingKeys, mappingSize, numberValue } from "@merge/core";
import { substringNote, withNote } from "./substring.js";

/** The options of `list(...)`. */
export type ListOption =
  | "append"
  | "extend"
  | "prepend"
  | "replace"
  | "no_replace"
  | "recurse_dict"
  | "recurse_list"
  | "recurse_array"
  | "recurse_str";

/** How the list merger combines two lists, chosen by fixed precedence (cloud-init's `MERGE_TYPES` order). */
export type ListMethod = "append" | "prepend" | "replace" | "no_replace";

enum Method {
  Append = 0,
  Prepend = 1,
  Replace = 2,
  NoReplace = 3,
}

/**
 * Reads the method the way cloud-init does: the first of append > prepend > replace > no_replace found in the
 * options wins, whatever order they were written in. `extend` is the seed's name for `append` when `seedExtend`;
 * cloud-init today does not know it, so there it selects nothing (replace, unless another option says otherwise).
 */
export function listMethodOf(options: MergerOptions, seedExtend = true): ListMethod {
  if (options.has("append") || (seedExtend && options.has("extend"))) return "append";
  if (options.has("prepend")) return "prepend";
  if (options.has("replace")) return "replace";
  if (options.has("no_replace")) return "no_replace";
  return "replace";
}

/** The options that select each method (see `listMethodOf`), with `extend` read as the seed reads it. */
const LIST_METHOD_OPTIONS: Readonly<Record<ListMethod, readonly string[]>> = {
  append: ["append", "extend"],
  prepend: ["prepend"],
  replace: ["replace"],
  no_replace: ["no_replace"],
};

/** `1 item`, `3 items`. */
function items(count: number): string {
  return `${count} item${count === 1 ? "" : "s"}`;
}

const METHOD_CODES: Readonly<Record<ListMethod, Method>> = {
  append: Method.Append,
  prepend: Method.Prepend,
  replace: Method.Replace,
  no_replace: Method.NoReplace,
};

/**
 * cloud-init's `list` merger (`m_list`). Handles list base values.
 * - `append` / `prepend`: the new value is iterated as Python's `list.extend` would (list items, a string's
 *   characters, a mapping's keys); anything not iterable is a `MERGE_TYPE` error.
 * - `replace` (default): index by index over the shared length; a new value that is not a list is returned as is.
 *   The `recurse_*` flags merge a pair through the root merger instead, chosen by the type of the *new* element.
 * - `no_replace`: the old list is kept.
 */
/** Settings of `listMerger`. */
export interface ListMergerSettings {
  /**
   * Read `extend` as `append`, as the seed's design does (default). cloud-init's own list merger (22.4 and every
   * release since the option was documented) does not know `extend`: `list(extend)` replaces index by index there,
   * so its current-mode merges make the merger with `false`.
   */
  readonly seedExtend?: boolean;
}

export function listMerger(settings: ListMergerSettings = {}): MergerPlugin<"list", ListOption> {
  const seedExtend = settings.seedExtend ?? true;
  return {
    name: "list",
    kinds: ["list"],
    description: "cloud-init's list merger: append, prepend, replace index by index, or keep the old list",
    // Without the seed's reading `extend` is not an option at all, as in cloud-init: ignored, or UNKNOWN_OPTION when
    // strict.
    options: {
      append: "add the new items after the old ones",
      ...(seedExtend ? { extend: "the seed's name for append" } : {}),
      prepend: "add the new items before the old ones",
      replace: "replace the old items index by index over the shared length (default)",
      no_replace: "keep the old list",
      recurse_dict: "in replace mode, merge a pair of items when the new item is a mapping",
      recurse_list: "in replace mode, merge a pair of items when the new item is a list",
      recurse_array: "alias of recurse_list",
      recurse_str: "in replace mode, merge a pair of items when the new item is a string",
    } as Record<ListOption, string>,
    create(options, ctx) {
      const listMethod = listMethodOf(options, seedExtend);
      const method = METHOD_CODES[listMethod];
      // Without the seed's reading, "append" (listed first) is what selected append.
      const note = substringNote(options, LIST_METHOD_OPTIONS[listMethod]);
      const recurseDict = options.has("recurse_dict");
      const recurseList = options.has("recurse_array") || options.has("recurse_list");
      const recurseStr = options.has("recurse_str");
      const recurses = recurseDict || recurseList || recurseStr;

      const list = (base: readonly unknown[], incoming: unknown): unknown => {
        switch (method) {
          case Method.Append:
            return concat(base, iterateLikePython(incoming, ctx), ctx, "appended", note);
          case Method.Prepend:
            return concat(iterateLikePython(incoming, ctx), base, ctx, "prepended", note);
          case Method.NoReplace:
            return keepOld(base, incoming, ctx);
          default:
            break;
        }
        if (!Array.isArray(incoming)) {
          if (ctx.tracing) ctx.explain("replaced", undefined, withNote("the new value is not a list", note));
          return incoming;
        }
        const out = base.slice();
        const shared = Math.min(base.length, incoming.length);
        if (!recurses) {
          for (let i = 0; i < shared; i++) out[i] = incoming[i];
        } else {
          for (let i = 0; i < shared; i++) {
            const item = incoming[i];
            if (
              Array.isArray(item)
                ? recurseList
                : typeof item === "string"
                  ? recurseStr
                  : recurseDict && isMapping(item)
            ) {
              out[i] = ctx.merge(out[i], item, i);
            } else {
              out[i] = item;
            }
          }
        }
        if (ctx.tracing)
          ctx.explain("replaced", undefined, withNote(`${items(shared)} replaced index by index`, note));
        return out;
      };
      return { list };
    },
  };
}

function concat(
  first: readonly unknown[],
  second: readonly unknown[],
  ctx: MergerContext,
  action: "appended" | "prepended",
  note: string | undefined,
): unknown[] {
  const out = new Array<unknown>(first.length + second.length);
  let n = 0;
  for (let i = 0; i < first.length; i++) out[n++] = first[i];
  for (let i = 0; i < second.length; i++) out[n++] = second[i];
  if (ctx.tracing)
    ctx.explain(
      action,
      undefined,
      withNote(items(action === "appended" ? second.length : first.length), note),
    );
  return out;
}

/**
 * What Python's `list.extend(value)` iterates: a list's items, a string's characters (code points), a mapping's keys,
 * a byte string's numbers. Numbers, booleans, null and other objects are not iterable: a `MERGE_TYPE` error.
 */
function iterateLikePython(value: unknown, ctx: MergerContext): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  if (isMapping(value)) return mappingKeys(value);
  if (value instanceof Uint8Array) return Array.from(value);
  return ctx.fail(
    "MERGE_TYPE",
    `${ctx.label} cannot add ${describe(value)} to a list: only a list, a string or a mapping can be iterated`,
    { incoming: describe(value) },
  );
}

/**
 * cloud-init keeps the old list (as a new list, which matters for aliases when the result is written) but still
 * evaluates `len(new)` and `new[i]` over the shared length, so a value
 * without a length (number, null, boolean) fails, and so does a mapping that has no key `i` for an index it reads.
 */
function keepOld(base: readonly unknown[], incoming: unknown, ctx: MergerContext): readonly unknown[] {
  if (Array.isArray(incoming) || typeof incoming === "string" || incoming instanceof Uint8Array) {
    if (ctx.tracing) ctx.explain("kept", undefined, "no_replace keeps the old list");
    return base.slice();
  }
  if (isMapping(incoming)) {
    const shared = Math.min(base.length, mappingSize(incoming));
    for (let i = 0; i < shared; i++) {
      if (!hasItem(incoming, i)) {
        return ctx.fail(
          "MERGE_TYPE",
          `${ctx.label} cannot compare a list with a mapping: the mapping has no key ${i} (cloud-init raises KeyError)`,
          { incoming: "mapping" },
        );
      }
    }
    return base.slice();
  }
  return ctx.fail(
    "MERGE_TYPE",
    `${ctx.label} cannot compare a list with ${describe(incoming)}: it has no length (cloud-init raises TypeError)`,
    { incoming: describe(incoming) },
  );
}

/** A short, value-free description for messages (values may be secrets). */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "a list";
  if (isMapping(value)) return "a mapping";
  if (typeof value === "string") return "a string";
  if (numberValue(value) !== undefined) return "a number";
  if (typeof value === "boolean") return "a boolean";
  if (value instanceof Date) return "a timestamp";
  return "an object";
}
