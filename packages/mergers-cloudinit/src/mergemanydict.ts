import {
  formatSpec,
  isMapping,
  MergeError,
  mappingSize,
  mergeAll,
  PyDict,
  type ParsedSpec,
  type Registry,
  type SourcePosition,
  type TraceSink,
  toExact,
} from "@merge/core";
import { extractDeclaration } from "./declarations.js";
import { createCloudInitRegistry, MERGERS_DEFAULT_SPEC } from "./plugins.js";

export interface MergeManyDictsOptions {
  /** Merge the last configuration first, so the last one wins (`reverse=True`). Default false: the first wins. */
  readonly reverse?: boolean;
  readonly registry?: Registry;
  /** Report unknown merger options as `UNKNOWN_OPTION` instead of ignoring them as cloud-init does. */
  readonly strict?: boolean;
  readonly maxDepth?: number;
  /** Receives trace events; their `document` is the index of the configuration in `configs`. */
  readonly trace?: TraceSink;
  /** Names the configurations in errors (`sources[i]` describes `configs[i]`). */
  readonly sources?: readonly (SourcePosition | undefined)[];
}

/** `mergeManyDicts`' result. */
export interface MergeManyDictsResult {
  /** The merged configuration, in the exact model. */
  readonly value: PyDict;
  /**
   * For each configuration (by its index in `configs`): the mergers it was merged with, or undefined when it was
   * skipped for being empty (`if cfg:`).
   */
  readonly mergers: readonly (string | undefined)[];
}

/**
 * cloud-init's `util.mergemanydict`: starting from `{}`, each non-empty configuration is merged into the result with
 * the mergers it declares (`merge_how`, else `merge_type`, taken out of it) or `list()+dict()+str()`. With those
 * defaults the *first* configuration wins (`dict()` keeps the values it has and only adds missing keys, merging
 * mappings recursively); a configuration's own `merge_how` decides how it goes into what the ones before it made.
 * Unlike cloud-init's part handler, nothing is skipped on error: a declaration that does not parse or names an
 * unknown merger, or a merge that fails, throws (cloud-init stops with an exception there).
 */
export function mergeManyDicts(
  configs: readonly unknown[],
  options: MergeManyDictsOptions = {},
): MergeManyDictsResult {
  const order = configs.map((_, i) => i);
  if (options.reverse === true) order.reverse();
  const mergers: (string | undefined)[] = configs.map(() => undefined);
  // `if cfg:` — empty configurations (and None) are passed over before anything is read from them.
  const taken = order.filter((i) => truthy(configs[i]));
  for (const i of taken) {
    if (!isMapping(configs[i])) {
      throw new MergeError(
        "MERGE_TYPE",
        `configuration ${i + 1} is not a mapping; cloud-init's mergemanydict merges mappings only`,
        { source: options.sources?.[i] },
      );
    }
  }
  const trace = options.trace;
  const value = mergeAll(
    taken.map((i) => configs[i]),
    {
      // As cloud-init's own mergers read specs: there `list(extend)` is not append.
      registry: options.registry ?? createCloudInitRegistry({ seedExtend: false }),
      spec: MERGERS_DEFAULT_SPEC,
      initial: new PyDict(),
      lenient: options.strict !== true,
      maxDepth: options.maxDepth,
      trace:
        trace === undefined
          ? undefined
          : {
              record: (event) =>
                trace.record({
                  ...event,
                  document: event.document === undefined ? undefined : taken[event.document],
                }),
            },
      sources: taken.map((i) => options.sources?.[i]),
      extract: (config, n) => {
        const declaration = extractDeclaration(toExact(config) as PyDict);
        mergers[taken[n]!] = label(declaration.spec);
        return { doc: declaration.doc, spec: declaration.spec };
      },
    },
  ) as PyDict;
  return { value, mergers };
}

function label(spec: ParsedSpec | undefined): string {
  return spec === undefined ? MERGERS_DEFAULT_SPEC : formatSpec(spec);
}

/** Python's truthiness for what a configuration can be. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return mappingSize(value) > 0;
  return true;
}
