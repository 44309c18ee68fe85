// Small plugins for the core's own tests; the real list/dict/str semantics live in @merge/mergers-cloudinit.
import { copyMapping, getItem, hasItem, isMapping, mappingKeys, setItem } from "./mapping.js";
import type { MergerPlugin } from "./plugin.js";

/** Recursive dict merge; `keep` keeps old scalars, otherwise the new value wins. */
export function deepDict(): MergerPlugin {
  return {
    name: "deep",
    kinds: ["dict"],
    options: { keep: "keep existing keys" },
    create(options, ctx) {
      const keep = options.has("keep");
      return {
        dict(base, incoming) {
          if (!isMapping(incoming)) return base;
          const out = copyMapping(base);
          for (const key of mappingKeys(incoming)) {
            const value = getItem(incoming, key);
            if (!hasItem(out, key)) {
              setItem(out, key, value);
              if (ctx.tracing) ctx.explain("added", key);
            } else {
              const old = getItem(out, key);
              const merged = ctx.merge(old, value, key);
              setItem(out, key, keep || merged !== old ? merged : value);
              if (ctx.tracing) ctx.explain(keep ? "kept" : "merged", key);
            }
          }
          return out;
        },
      };
    },
  };
}

/** Concatenates lists; `front` puts new items first. */
export function concatList(): MergerPlugin {
  return {
    name: "concat",
    kinds: ["list"],
    options: { front: "put new items first" },
    create(options) {
      const front = options.has("front");
      return {
        list(base, incoming) {
          if (!Array.isArray(incoming)) return incoming;
          return front ? [...incoming, ...base] : [...base, ...incoming];
        },
      };
    },
  };
}

/** Replaces any scalar by the new value. */
export function replaceScalar(): MergerPlugin {
  return {
    name: "scalar",
    kinds: ["string", "number", "boolean", "null"],
    options: {},
    create() {
      const replace = (_base: unknown, incoming: unknown) => incoming;
      return { string: replace, number: replace, boolean: replace, null: replace };
    },
  };
}

/** Throws a plain Error for a marker value, to test wrapping. */
export function explosive(): MergerPlugin {
  return {
    name: "boom",
    kinds: ["string"],
    options: {},
    create() {
      return {
        string(_base, incoming) {
          if (incoming === "boom") throw new TypeError("cannot merge boom");
          return incoming;
        },
      };
    },
  };
}
