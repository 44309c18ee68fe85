import { createMerger, type EngineOptions, type Merger, type PluginUse } from "./engine.js";
import { MergeError } from "./errors.js";
import { VALUE_KINDS } from "./kinds.js";
import type { MergerOptions, MergerPlugin } from "./plugin.js";
import { formatSpecEntry, normalizeSpec, type SpecEntry, type SpecInput } from "./spec.js";
import type { CheckedSpec, PluginTable, UnknownMergers } from "./spec-types.js";

export interface ResolveOptions extends EngineOptions {
  /**
   * Ignore options a plugin does not know instead of raising `UNKNOWN_OPTION`. cloud-init behaves this way; the
   * cloud-config entry points use it so they accept whatever cloud-init accepts.
   */
  readonly lenient?: boolean;
}

export interface RegisterOptions {
  /** Replace a plugin of the same name instead of raising `DUPLICATE_PLUGIN`. */
  readonly replace?: boolean;
}

/**
 * A set of merger plugins that resolves specs. `Known` is what the type system knows of its plugins (built by
 * `createRegistry([...])`, `use` and `register` from the plugins' types): literal spec strings given to `resolve` are
 * checked against it at compile time. `Registry` alone knows nothing and accepts every spec.
 */
export interface Registry<Known = UnknownMergers> {
  /** Adds a plugin. A second plugin with the same name is an error unless `replace` is set. */
  register<const P extends MergerPlugin>(
    plugin: P,
    options?: RegisterOptions,
  ): Registry<Known & PluginTable<readonly [P]>>;
  /** Registers several plugins in order. */
  use<const P extends readonly MergerPlugin[]>(...plugins: P): Registry<Known & PluginTable<P>>;
  has(name: string): boolean;
  get(name: string): MergerPlugin | undefined;
  /** The registered plugins in registration order. */
  plugins(): readonly MergerPlugin[];
  /**
   * Resolves a spec (string, list form or parsed) to a merger. A literal spec string naming a merger or an option
   * the registry's known plugins do not have is a compile-time error; a `string` read at run time is checked when
   * it is resolved (`UNKNOWN_MERGER`, `UNKNOWN_OPTION`).
   */
  resolve<const S extends SpecInput>(spec: CheckedSpec<S, Known>, options?: ResolveOptions): Merger;
  /** A copy that can be extended without touching this registry. */
  clone(): Registry<Known>;
  /** Makes the registry read-only; `register` then throws `REGISTRY_FROZEN`. */
  freeze(): Registry<Known>;
  readonly frozen: boolean;
}

const PLUGIN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Returns a fresh registry holding `plugins`. There is no global one: each caller owns what it registers. The
 * registry's type knows the plugins' names and options (see `Registry`).
 */
export function createRegistry(): Registry;
export function createRegistry<const P extends readonly MergerPlugin[]>(plugins: P): Registry<PluginTable<P>>;
export function createRegistry(plugins: readonly MergerPlugin[] = []): Registry {
  const byName = new Map<string, MergerPlugin>();
  let frozen = false;

  const registry: Registry = {
    register(plugin, options = {}) {
      if (frozen) {
        throw new MergeError(
          "REGISTRY_FROZEN",
          `this registry is frozen; call clone() (or createRegistry()) and register "${plugin?.name}" on the copy`,
        );
      }
      validatePlugin(plugin);
      if (byName.has(plugin.name) && options.replace !== true) {
        throw new MergeError(
          "DUPLICATE_PLUGIN",
          `a merger named "${plugin.name}" is already registered; pass { replace: true } to replace it`,
          { plugin: plugin.name },
        );
      }
      byName.set(plugin.name, plugin);
      return registry;
    },
    use(...list) {
      for (const plugin of list) registry.register(plugin);
      return registry;
    },
    has: (name) => byName.has(name),
    get: (name) => byName.get(name),
    plugins: () => [...byName.values()],
    resolve(input: SpecInput, options: ResolveOptions = {}) {
      const spec = normalizeSpec(input);
      const uses = spec.map((entry) => bindPlugin(entry, lookup(entry), options.lenient === true));
      return createMerger(spec, uses, options);
    },
    clone: () => createRegistry([...byName.values()]),
    freeze() {
      frozen = true;
      return registry;
    },
    get frozen() {
      return frozen;
    },
  };

  // cloud-init prefixes merger modules with `m_`, so `m_list` names the `list` merger.
  function lookup(entry: SpecEntry): MergerPlugin {
    const plugin =
      byName.get(entry.name) ?? (entry.name.startsWith("m_") ? byName.get(entry.name.slice(2)) : undefined);
    if (plugin === undefined) {
      const known = [...byName.keys()].sort();
      throw new MergeError(
        "UNKNOWN_MERGER",
        `unknown merger "${entry.name}"; registered mergers: ${known.length === 0 ? "(none)" : known.join(", ")}`,
        { details: { name: entry.name, known } },
      );
    }
    return plugin;
  }

  for (const plugin of plugins) registry.register(plugin);
  return registry;
}

function bindPlugin(entry: SpecEntry, plugin: MergerPlugin, lenient: boolean): PluginUse {
  if (!lenient && plugin.freeOptions === undefined) {
    const written = entry.optionText === undefined ? entry.options : splitOptionText(entry.optionText);
    for (const option of written) {
      if (!Object.hasOwn(plugin.options, option)) {
        const valid = Object.keys(plugin.options);
        throw new MergeError(
          "UNKNOWN_OPTION",
          `merger ${formatSpecEntry(entry)}: unknown option "${option}"; valid options of "${plugin.name}": ${
            valid.length === 0 ? "(none)" : valid.join(", ")
          }`,
          { plugin: plugin.name, details: { option, valid } },
        );
      }
    }
  }
  return { plugin, entry, options: createOptions(entry) };
}

function splitOptionText(text: string): string[] {
  return text
    .split(",")
    .map((option) => option.trim())
    .filter((option) => option !== "");
}

function createOptions(entry: SpecEntry): MergerOptions {
  const text = entry.optionText;
  const list = Object.freeze(text === undefined ? [...entry.options] : splitOptionText(text));
  return Object.freeze({
    list,
    text,
    has:
      text === undefined
        ? (option: string) => list.includes(option)
        : (option: string) => text.includes(option),
  });
}

function validatePlugin(plugin: MergerPlugin): void {
  const problem = (() => {
    if (typeof plugin !== "object" || plugin === null) return "a plugin must be an object";
    if (typeof plugin.name !== "string" || !PLUGIN_NAME.test(plugin.name)) {
      return `plugin name ${JSON.stringify(plugin.name)} must be lowercase letters, digits and _`;
    }
    if (!Array.isArray(plugin.kinds) || plugin.kinds.length === 0)
      return `plugin "${plugin.name}" handles no kinds`;
    const badKind = plugin.kinds.find((kind) => !VALUE_KINDS.includes(kind));
    if (badKind !== undefined) {
      return `plugin "${plugin.name}" names unknown kind "${badKind}" (kinds: ${VALUE_KINDS.join(", ")})`;
    }
    if (typeof plugin.options !== "object" || plugin.options === null) {
      return `plugin "${plugin.name}" needs an options object (option name → one-line description)`;
    }
    if (typeof plugin.create !== "function")
      return `plugin "${plugin.name}" needs a create(options, context) function`;
    return undefined;
  })();
  if (problem !== undefined) throw new MergeError("INVALID_PLUGIN", problem);
}
