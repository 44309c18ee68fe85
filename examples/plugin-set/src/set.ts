import {
  compareCodePoints,
  definePlugin,
  getItem,
  isMapping,
  mappingKeys,
  numberValue,
  type MergerContext,
  type MergerOptions,
  type MergerPlugin,
} from "@merge/core";

/** The options of `set(...)`. */
export type SetOption = "last" | "sorted";

const OPTIONS: Readonly<Record<SetOption, string>> = {
  last: "a value given again keeps its newest position instead of its first",
  sorted: "sort the result: null, booleans, numbers, strings (by code point), then other values as they came",
};

/** The options of one `set(...)` spec entry, read once when the merger is created. */
export interface SetSettings {
  /** Keep the last occurrence of a repeated value (its newest position) instead of the first. */
  readonly last: boolean;
  readonly sorted: boolean;
}

export function readSetSettings(options: MergerOptions): SetSettings {
  return { last: options.has("last"), sorted: options.has("sorted") };
}

/**
 * A text equal for equal values and different otherwise: scalars by kind and value (`1` and `1.0` are one number,
 * `1` and `"1"` differ), lists item by item, mappings key by key in any order (as Python compares dicts), dates by
 * time, other objects by identity.
 */
export function valueKey(value: unknown, identities: Map<object, number> = new Map()): string {
  if (value === null || value === undefined) return "~";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return `#${Object.is(value, -0) ? 0 : value}`;
    case "bigint":
      return `#${value}`;
    case "boolean":
      return value ? "T" : "F";
    default:
      break;
  }
  // A whole float (`PyFloat`, as `merge` reads `1.0`) is its number: `1` and `1.0` are one value, as in Python.
  const number = numberValue(value);
  if (number !== undefined) return valueKey(number, identities);
  if (Array.isArray(value)) return `[${value.map((item) => valueKey(item, identities)).join(",")}]`;
  // Plain objects and `PyDict`s alike, through @merge/core's mapping helpers.
  if (isMapping(value)) {
    const keys = mappingKeys(value)
      .map((key) => ({ key, text: `${valueKey(key, identities)}` }))
      .sort((a, b) => compareCodePoints(a.text, b.text));
    return `{${keys.map(({ key, text }) => `${text}:${valueKey(getItem(value, key), identities)}`).join(",")}}`;
  }
  if (value instanceof Date) return `@${value.getTime()}`;
  let id = identities.get(value as object);
  if (id === undefined) {
    id = identities.size;
    identities.set(value as object, id);
  }
  return `&${id}`;
}

// Sort order of `set(sorted)`: scalars by kind, then by value; anything else after them, in the order it came.
function rank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === "boolean") return 1;
  if (numberValue(value) !== undefined) return 2;
  if (typeof value === "string") return 3;
  return 4;
}

function compareItems(a: unknown, b: unknown): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b);
  if (typeof a === "boolean" || numberValue(a) !== undefined) {
    const [x, y] = [numberValue(a) ?? (a as boolean), numberValue(b) ?? (b as boolean)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return 0;
}

interface Item {
  readonly value: unknown;
  /** True for an item of the new list. */
  readonly isNew: boolean;
}

/**
 * Merges `incoming` into `base` as sets: the old items then the new ones, each value once. Neither input is changed;
 * the result is a new list holding the inputs' items. Trace events are recorded at the positions items have in the
 * result (after dropping repeats and sorting), which is what `--explain` reads.
 */
export function mergeSet(
  base: readonly unknown[],
  incoming: unknown,
  settings: SetSettings,
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
  const identities = new Map<object, number>();
  const all: Item[] = [
    ...base.map((value) => ({ value, isNew: false })),
    ...incoming.map((value) => ({ value, isNew: true })),
  ];
  const keys = all.map((item) => valueKey(item.value, identities));
  // The position in `all` of the occurrence each value keeps.
  const keeper = new Map<string, number>();
  keys.forEach((key, index) => {
    if (settings.last || !keeper.has(key)) keeper.set(key, index);
  });
  const kept: number[] = [];
  keys.forEach((key, index) => {
    if (keeper.get(key) === index) kept.push(index);
  });
  if (settings.sorted) kept.sort((a, b) => compareItems(all[a]!.value, all[b]!.value) || a - b);
  const result = kept.map((index) => all[index]!.value);
  if (context.tracing) explainSet(all, keys, kept, settings, context);
  return result;
}

function explainSet(
  all: readonly Item[],
  keys: readonly string[],
  kept: readonly number[],
  settings: SetSettings,
  context: MergerContext,
): void {
  // Where each value ended up in the result.
  const position = new Map<string, number>();
  kept.forEach((index, at) => {
    position.set(keys[index]!, at);
    if (all[index]!.isNew) context.explain(settings.sorted ? "added" : "appended", at);
  });
  const survivors = new Set(kept);
  let dropped = 0;
  all.forEach((item, index) => {
    if (survivors.has(index)) return;
    if (item.isNew) {
      context.explain(
        "kept",
        position.get(keys[index]!),
        "the new list repeats this value; the repeat is dropped",
      );
    } else dropped++;
  });
  if (dropped > 0) {
    const why = settings.last ? "repeated later" : "repeated in the old list";
    context.explain("removed", undefined, `${dropped} old item(s) ${why}`);
  }
}

/**
 * `set()`: merges lists as sets — the old items, then the new items not already there, each value once (the result
 * holds no repeats at all). `last` keeps a repeated value at its newest position, `sorted` sorts the result.
 * Handles lists only (dispatch is on the old value's kind): put a mapping merger after it, `set()+stack()`.
 */
export function setMerger(): MergerPlugin<"set", SetOption> {
  return definePlugin({
    name: "set",
    kinds: ["list"],
    options: OPTIONS,
    description: "merges lists as sets: old items, then new items not already there, each value once",
    create(options, context) {
      const settings = readSetSettings(options);
      return { list: (base, incoming) => mergeSet(base, incoming, settings, context) };
    },
  });
}
