// Compile-time checking of spec strings: `registry.resolve("list(apend)")` is a type error when the registry's
// plugins are known. The checker reads a literal spec the way `parseSpec` does (lowercased, trimmed, `-` read as
// `_`, segments split at `+`, options at `,`), once, left to right: its cost grows with the length of the string and
// never with the number of possible specs. A spec whose type is plain `string` (read from a file) is not checked.
import type { MergerMap, MergerPlugin } from "./plugin.js";

/**
 * The table of a registry whose plugins the type system does not know (`createRegistry()` filled by `register`
 * calls): any merger name is accepted, and the names declared in `MergerMap` have their options checked.
 */
export type UnknownMergers = Record<never, never>;

/** The option names a plugin's type accepts in a spec: its listed options, or any string with `freeOptions`. */
export type PluginOptionNames<P> = P extends { readonly freeOptions: string }
  ? string
  : P extends { readonly options: infer O }
    ? keyof O & string
    : string;

/**
 * What a registry's type knows about a list of plugins: each name and the option names it accepts. A plugin whose
 * name is plain `string` (typed `MergerPlugin`) makes the table accept any name and option.
 */
export type PluginTable<P extends readonly MergerPlugin[]> = {
  [K in P[number] as K["name"]]: string extends K["name"] ? string : PluginOptionNames<K>;
};

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type Underscores<S extends string> = S extends `${infer A}-${infer B}` ? `${A}_${Underscores<B>}` : S;

// The options a name accepts, wrapped (`[never]` is a merger without options; `false` an unknown name): from the
// table, or from MergerMap when the table knows nothing. cloud-init's `m_` prefix names the same merger.
type OptionsFor<T, N extends string> = [keyof T] extends [never]
  ? N extends keyof MergerMap
    ? [MergerMap[N]]
    : [string]
  : N extends keyof T
    ? [T[N]]
    : N extends `m_${infer R}`
      ? R extends keyof T
        ? [T[R]]
        : false
      : false;

type CheckOption<O extends string, Allowed, N extends string> = O extends ""
  ? true
  : [Allowed] extends [string]
    ? string extends Allowed
      ? true
      : O extends Allowed
        ? true
        : `unknown option "${O}" for merger "${N}"`
    : true;

type CheckOptions<O extends string, Allowed, N extends string> = O extends `${infer Head},${infer Rest}`
  ? CheckOption<Trim<Head>, Allowed, N> extends infer E
    ? E extends true
      ? CheckOptions<Rest, Allowed, N>
      : E
    : never
  : CheckOption<Trim<O>, Allowed, N>;

type CheckSegment<S extends string, T> = S extends ""
  ? true
  : S extends `${infer N}(${infer O})`
    ? OptionsFor<T, Trim<N>> extends [infer Allowed]
      ? CheckOptions<O, Allowed, Trim<N>>
      : `unknown merger "${Trim<N>}"`
    : `"${S}" is not of the form name(option,...)`;

type CheckSegments<S extends string, T> = S extends `${infer Head}+${infer Rest}`
  ? CheckSegment<Trim<Head>, T> extends infer E
    ? E extends true
      ? CheckSegments<Rest, T>
      : E
    : never
  : CheckSegment<Trim<S>, T>;

/**
 * `S` itself when it is a valid spec for the mergers of `T` (or not a literal string), otherwise a string type that
 * says what is wrong, so the compiler's message reads `... is not assignable to parameter of type '"✗ unknown option
 * \"apend\" for merger \"list\""'`.
 */
export type CheckedSpec<S, T> = S extends string
  ? string extends S
    ? S
    : CheckSegments<Underscores<Lowercase<S>>, T> extends infer E
      ? E extends true
        ? S
        : E extends string
          ? `✗ ${E}`
          : never
      : never
  : S;
