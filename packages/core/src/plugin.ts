import type { MergeErrorCode } from "./errors.js";
import type { ValueKind } from "./kinds.js";
import type { Mapping } from "./mapping.js";
import type { PyFloat } from "./values/pyfloat.js";
import type { PathKey } from "./path.js";
import type { SpecEntry } from "./spec.js";

/** Merges `incoming` into `base` (a value of the kind the handler is registered for) and returns the result. */
export type MergeHandler = (base: never, incoming: unknown) => unknown;

/** The handlers a plugin instance provides, by the kind of the *base* value. */
export type MergeHandlers = {
  readonly [K in ValueKind]?: (base: KindValue<K>, incoming: unknown) => unknown;
} & {
  /** Optional in-place variants of the `dict` and `list` handlers, used by folds that own their accumulator. */
  readonly inPlace?: InPlaceHandlers;
};

/**
 * In-place handlers: the fast path of `mergeAll`, which folds into an accumulator it owns. The engine calls one only
 * with a `target` it created itself during that fold (a copy it made, never an input and never a value a caller holds),
 * so the handler may change `target` and return it. Recurse with `ctx.merge` as usual: children are copied by the
 * engine before their first in-place change. The result must equal what the pure handler returns for a copy of
 * `target`; `incoming` must never be changed; values taken from `incoming` may be stored as they are (shared), and a
 * value must not be stored at two places. Without these handlers folds use the pure ones (slower, same result).
 */
export interface InPlaceHandlers {
  readonly dict?: (target: Mapping, incoming: unknown) => unknown;
  readonly list?: (target: unknown[], incoming: unknown) => unknown;
}

/**
 * The TypeScript type of a value of each kind. A mapping is a plain object or a `PyDict` (read it with core's mapping
 * helpers: `mappingKeys`, `getItem`, `setItem`, `emptyLike` ...); a number may be a `PyFloat` (a float whose value is
 * whole, `9.0`) or a bigint (an int beyond 2^53).
 */
export interface KindValues {
  dict: Mapping;
  list: readonly unknown[];
  string: string;
  number: number | bigint | PyFloat;
  boolean: boolean;
  null: null | undefined;
  other: unknown;
}
export type KindValue<K extends ValueKind> = KindValues[K];

/** The options a spec entry gave a plugin, already validated against `plugin.options`. */
export interface MergerOptions {
  /** Options as written (lowercased in the string form). */
  readonly list: readonly string[];
  /** Set when the options came as one string (list form); `has` then matches by substring, as cloud-init does. */
  readonly text: string | undefined;
  has(option: string): boolean;
}

/** What a provenance trace records: which merger decided what at which path. */
export type TraceAction =
  | "added"
  | "kept"
  | "replaced"
  | "merged"
  | "appended"
  | "prepended"
  | "concatenated"
  | "removed"
  | "unchanged";

export interface TraceEvent {
  readonly path: readonly PathKey[];
  readonly action: TraceAction;
  /** Formatted spec entry of the merger that decided (`list(append)`), or `engine` for unhandled kinds. */
  readonly merger: string;
  /** The document being merged in, when the merge runs inside `mergeAll`. */
  readonly document: number | undefined;
  readonly detail: string | undefined;
}

/** Receives trace events. Only created when provenance is asked for, so merges without it pay nothing. */
export interface TraceSink {
  record(event: TraceEvent): void;
}

/** Given to a plugin's `create`: the root merge for recursion and helpers that keep errors and traces uniform. */
export interface MergerContext {
  /** The root merger: dispatches on the kind of `base`. Pass `key` so errors and traces know the path. */
  merge(base: unknown, incoming: unknown, key?: PathKey): unknown;
  /** This plugin's spec entry and its canonical string (`list(append)`). */
  readonly entry: SpecEntry;
  readonly label: string;
  /** True when a trace sink is attached; check it before building trace details. */
  readonly tracing: boolean;
  /** Records a provenance event for the current path (plus `key`); a no-op unless `tracing`. */
  explain(action: TraceAction, key?: PathKey, detail?: string): void;
  /** The current key path (a copy). */
  path(): PathKey[];
  /** Throws a `MergeError` with this code, the current path and this plugin's label. */
  fail(code: MergeErrorCode, message: string, details?: Readonly<Record<string, unknown>>): never;
}

/**
 * A merger plugin: a plain object, usually made by a factory function (`listMerger()`). Built-in mergers are
 * plugins registered exactly like third-party ones. `Name` and `Option` carry the spec name and option names to the
 * type system (`MergerPlugin<"list", "append" | "prepend">`), so a registry of known plugins checks spec strings at
 * compile time; they default to `string` (anything).
 */
export interface MergerPlugin<Name extends string = string, Option extends string = string> {
  /** The spec name (`list` in `list(append)`): lowercase letters, digits and `_`. */
  readonly name: Name;
  /** The kinds of *base* value the plugin handles; `create` must return a handler for each. */
  readonly kinds: readonly ValueKind[];
  /** Accepted options, each with a one-line description (shown by the CLI and in errors). */
  readonly options: Readonly<Record<Option, string>>;
  /**
   * When set, options not listed in `options` are accepted as free values (for example a key field name in
   * `keyed(name)`); the string describes what such a value means.
   */
  readonly freeOptions?: string;
  /** One line on what the plugin does. */
  readonly description?: string;
  create(options: MergerOptions, context: MergerContext): MergeHandlers;
}

/**
 * Identity function that gives a plugin literal its type, keeping its name and option names as literal types (so a
 * registry built from it checks spec strings at compile time); handy for third-party authors.
 */
export function definePlugin<const P extends MergerPlugin>(plugin: P): P {
  return plugin;
}

/**
 * Merger names and the option names each accepts, for editors and for spec strings resolved by a registry whose
 * plugins the type system does not know (`createRegistry()` filled by `register` calls). Plugin packages add theirs:
 * `declare module "@merge/core" { interface MergerMap { list: "append" | "prepend" } }`; `string` means any option
 * (free options, as `keyed(name)` takes).
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging in plugin packages
export interface MergerMap {}

/** A registered merger name: the known ones from `MergerMap`, or any string. */
export type MergerName = keyof MergerMap | (string & {});
