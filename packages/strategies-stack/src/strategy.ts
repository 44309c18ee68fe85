import { hasItem, isMapping, type Mapping, PyFloat } from "@merge/core";

/** PillarStack's merging strategies, spelled as in a `__:` directive. */
export type StackStrategy = "merge-last" | "merge-first" | "remove" | "overwrite";

/** The strategies in the order Salt lists them. */
export const STACK_STRATEGIES: readonly StackStrategy[] = Object.freeze([
  "overwrite",
  "merge-first",
  "merge-last",
  "remove",
]);

/** The key that carries a directive: `__: remove` in a mapping, `- __: remove` as the first list item. */
export const DIRECTIVE_KEY = "__";

/** True for a strategy name exactly as Salt compares it (a string equal to one of the four). */
export function isStackStrategy(value: unknown): value is StackStrategy {
  return value === "merge-last" || value === "merge-first" || value === "remove" || value === "overwrite";
}

/** A list's first item that is a mapping holding `__` is a directive (the whole item is dropped). */
export function isListDirective(item: unknown): item is Mapping {
  return isMapping(item) && hasItem(item, DIRECTIVE_KEY);
}

/** A short, Python-flavoured rendering of a directive value for messages (`'merge-lst'`, `None`, `3`). */
export function describeDirective(value: unknown): string {
  if (typeof value === "string") return `'${value}'`;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "bigint" || value instanceof PyFloat)
    return String(value);
  return Array.isArray(value) ? "a list" : isMapping(value) ? "a mapping" : typeof value;
}

export function unknownStrategyMessage(value: unknown, where: "mapping" | "list"): string {
  const valid = STACK_STRATEGIES.map((s) => `'${s}'`).join(", ");
  const place = where === "mapping" ? "the `__` key of this mapping" : "the `__` item opening this list";
  return `unknown merging strategy ${describeDirective(value)} in ${place}; should be one of ${valid}`;
}
