// Plugins for the kit's own tests: one that keeps every rule, and variants that each break one.
import {
  copyMapping,
  definePlugin,
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  type MergerContext,
  type MergerPlugin,
  mappingKeys,
  setItem,
} from "@merge/core";

function mergeDicts(ctx: MergerContext, target: Mapping, base: Mapping, incoming: unknown): unknown {
  if (!isMapping(incoming)) {
    if (ctx.tracing) ctx.explain("replaced");
    return incoming;
  }
  for (const key of mappingKeys(incoming)) {
    const value = getItem(incoming, key);
    if (hasItem(base, key)) setItem(target, key, ctx.merge(getItem(base, key), value, key));
    else {
      setItem(target, key, value);
      if (ctx.tracing) ctx.explain("added", key);
    }
  }
  return target;
}

/** Newer wins; mappings merge key by key, lists append. Pure and in-place handlers, traced. */
export function lastMerger(): MergerPlugin {
  return definePlugin({
    name: "last",
    kinds: ["dict", "list", "string", "number", "boolean", "null", "other"],
    options: { quiet: "records no trace events (for testing that option sets are tried)" },
    description: "newer values win; mappings merge, lists append",
    create(options, ctx) {
      const replace = (_base: unknown, incoming: unknown) => {
        if (ctx.tracing && !options.has("quiet")) ctx.explain("replaced");
        return incoming;
      };
      const append = (target: unknown[], base: readonly unknown[], incoming: unknown) => {
        if (!Array.isArray(incoming)) return replace(base, incoming);
        for (const item of incoming) {
          target.push(item);
          if (ctx.tracing) ctx.explain("appended", target.length - 1);
        }
        return target;
      };
      return {
        dict: (base, incoming) => mergeDicts(ctx, copyMapping(base), base, incoming),
        list: (base, incoming) => append(base.slice(), base, incoming),
        string: replace,
        number: replace,
        boolean: replace,
        null: replace,
        other: replace,
        inPlace: {
          dict: (target, incoming) => mergeDicts(ctx, target, target, incoming),
          list: (target, incoming) => append(target, target, incoming),
        },
      };
    },
  });
}

/** `last` with its create() replaced by `create(handlers of last)`. */
export function variant(
  name: string,
  change: (
    handlers: ReturnType<MergerPlugin["create"]>,
    ctx: MergerContext,
  ) => ReturnType<MergerPlugin["create"]>,
  extra: Partial<MergerPlugin> = {},
): MergerPlugin {
  const good = lastMerger();
  return { ...good, name, ...extra, create: (options, ctx) => change(good.create(options, ctx), ctx) };
}
