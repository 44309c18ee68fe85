import type { Mapping, MergerOptions, MergerPlugin } from "@merge/core";
import { copyMapping, deleteItem, getItem, hasItem, isMapping, mappingKeys, setItem } from "@merge/core";
import { substringNote } from "./substring.js";

/** The options of `dict(...)`. */
export type DictOption =
  | "no_replace"
  | "replace"
  | "overwrite"
  | "allow_delete"
  | "recurse_list"
  | "recurse_array"
  | "recurse_str"
  | "recurse_dict";

/** How the dict merger treats a key both mappings have. */
export type DictMethod = "replace" | "no_replace";

/**
 * `replace` wins when both are given (cloud-init tests `replace` first, and with a settings *string* the substring
 * test finds `replace` inside `no_replace` too). `overwrite` is the seed's name for `replace`.
 */
export function dictMethodOf(options: MergerOptions): DictMethod {
  return options.has("replace") || options.has("overwrite") ? "replace" : "no_replace";
}

/**
 * cloud-init's `dict` merger (`m_dict`). Handles mapping base values; a new value that is not a mapping leaves the
 * old mapping unchanged. New keys are always added.
 * - `no_replace` (default): for a key both have, a new mapping is merged through the root merger (always on), a
 *   new list or string only with `recurse_list` / `recurse_str`; anything else keeps the old value.
 * - `replace`: the new value wins per key; nothing is merged recursively.
 * - `allow_delete`: a null for an existing key deletes it.
 */
export function dictMerger(): MergerPlugin<"dict", DictOption> {
  return {
    name: "dict",
    kinds: ["dict"],
    description: "cloud-init's dict merger: add new keys; keep, replace or recursively merge existing ones",
    options: {
      no_replace: "keep the old value of a key both mappings have, merging mappings recursively (default)",
      replace: "let the new value of a key both mappings have win",
      overwrite: "the seed's name for replace",
      allow_delete: "a null for an existing key deletes the key",
      recurse_list: "in no_replace mode, merge a key's lists through the root merger",
      recurse_array: "alias of recurse_list",
      recurse_str: "in no_replace mode, merge a key's strings through the root merger",
      recurse_dict: "accepted for compatibility: mappings are always merged recursively",
    },
    create(options, ctx) {
      const replace = dictMethodOf(options) === "replace";
      const replaceNote = replace ? substringNote(options, ["replace", "overwrite"]) : undefined;
      const allowDelete = options.has("allow_delete");
      const recurseList = options.has("recurse_array") || options.has("recurse_list");
      const recurseStr = options.has("recurse_str");
      const merge = ctx.merge;
      const tracing = ctx.tracing;

      const dict = (base: Mapping, incoming: unknown): unknown => {
        if (!isMapping(incoming)) {
          if (tracing) ctx.explain("kept", undefined, "the new value is not a mapping");
          return base;
        }
        const out = copyMapping(base);
        const keys = mappingKeys(incoming);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const value = getItem(incoming, key);
          if (!hasItem(out, key)) {
            setItem(out, key, value);
            if (tracing) ctx.explain("added", key);
          } else if (allowDelete && (value === null || value === undefined)) {
            deleteItem(out, key);
            if (tracing) ctx.explain("removed", key, "allow_delete and a null value");
          } else if (replace) {
            setItem(out, key, value);
            if (tracing) ctx.explain("replaced", key, replaceNote);
          } else if (
            Array.isArray(value) ? recurseList : typeof value === "string" ? recurseStr : isMapping(value)
          ) {
            setItem(out, key, merge(getItem(out, key), value, key));
          } else if (tracing) {
            ctx.explain("kept", key, "no_replace keeps the old value");
          }
        }
        return out;
      };
      return { dict };
    },
  };
}
