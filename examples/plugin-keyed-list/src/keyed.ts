import {
  definePlugin,
  getItem,
  hasItem,
  hasOwn,
  isMapping,
  MergeError,
  numberValue,
  type MergerContext,
  type MergerOptions,
  type MergerPlugin,
} from "@merge/core";

/** The key field used when `keyed()` names none. */
export const DEFAULT_KEY_FIELD = "name";

const FLAGS = {
  replace: "an item whose key matches replaces the old item instead of being merged into it",
  prepend: "items whose key matches nothing go before the old items instead of after them",
} as const;

/** The options of one `keyed(...)` spec entry, read once when the merger is created. */
export interface KeyedSettings {
  readonly field: string;
  readonly replace: boolean;
  readonly prepend: boolean;
}

/**
 * Reads `keyed(id)`, `keyed(name,replace)`: the flags are the known options, the one other option is the key
 * field. More than one field is a mistake the user should hear about (`KEYED_FIELDS`).
 */
export function readSettings(options: MergerOptions, label: string): KeyedSettings {
  const fields = options.list.filter((option) => !hasOwn(FLAGS, option));
  if (fields.length > 1) {
    throw new MergeError(
      "KEYED_FIELDS",
      `merger ${label} names several key fields (${fields.join(", ")}); give exactly one, e.g. keyed(name)`,
      { plugin: label, details: { fields } },
    );
  }
  return {
    field: fields[0] ?? DEFAULT_KEY_FIELD,
    replace: options.list.includes("replace"),
    prepend: options.list.includes("prepend"),
  };
}

/**
 * The key of a list item, or undefined when the item is not a mapping with a scalar key field. Mappings are read
 * with `@merge/core`'s helpers, so plain objects and the exact model's `PyDict`s (what `merge` reads YAML into) work
 * alike; a whole float (`PyFloat`) is its number.
 */
function keyOf(item: unknown, field: string): unknown {
  if (!isMapping(item) || !hasItem(item, field)) return undefined;
  const key = getItem(item, field);
  const number = numberValue(key);
  if (number !== undefined) return number;
  return typeof key === "string" || typeof key === "boolean" ? key : undefined;
}

/**
 * Merges `incoming` into `base`, both lists of mappings identified by `settings.field`. Neither input is changed:
 * the result is a new list that shares the untouched items.
 */
export function mergeKeyed(
  base: readonly unknown[],
  incoming: unknown,
  settings: KeyedSettings,
  context: MergerContext,
): unknown {
  if (incoming === null || incoming === undefined) {
    if (context.tracing) context.explain("kept", undefined, "the new value is empty");
    return base;
  }
  if (!Array.isArray(incoming)) {
    if (context.tracing) context.explain("replaced", undefined, "the new value is not a list");
    return incoming;
  }
  const result = base.slice();
  // Map keeps `1` and `"1"` apart, as YAML does.
  const positions = new Map<unknown, number>();
  result.forEach((item, index) => {
    const key = keyOf(item, settings.field);
    if (key !== undefined && !positions.has(key)) positions.set(key, index);
  });
  const added: unknown[] = [];
  for (const item of incoming) {
    const key = keyOf(item, settings.field);
    const at = key === undefined ? undefined : positions.get(key);
    if (at === undefined) {
      added.push(item);
      continue;
    }
    if (settings.replace) {
      result[at] = item;
      if (context.tracing) context.explain("replaced", at, `${settings.field}=${String(key)}`);
    } else {
      result[at] = context.merge(result[at], item, at);
    }
  }
  if (added.length === 0) return result;
  if (settings.prepend) {
    // Prepending moves every old item; record where the new ones landed.
    if (context.tracing)
      for (let index = 0; index < added.length; index++) context.explain("prepended", index);
    return [...added, ...result];
  }
  if (context.tracing) {
    for (let index = 0; index < added.length; index++) context.explain("appended", result.length + index);
  }
  return [...result, ...added];
}

/**
 * `keyed(field)`: merges lists of mappings by a key field instead of appending duplicates. Items of the new list
 * whose field matches an old item are merged into it through the root merger (so `dict()` or any other mapping
 * merger of the spec decides how); the others are appended. Old lists only: dispatch is on the old value's kind.
 */
export function keyedList(): MergerPlugin<"keyed", string> {
  return definePlugin({
    name: "keyed",
    kinds: ["list"],
    options: FLAGS,
    freeOptions: `the field that identifies an item (default "${DEFAULT_KEY_FIELD}"); spec options are lowercased`,
    description: "merges lists of mappings by a key field: matching items are merged, the others appended",
    create(options, context) {
      const settings = readSettings(options, context.label);
      return { list: (base, incoming) => mergeKeyed(base, incoming, settings, context) };
    },
  });
}
