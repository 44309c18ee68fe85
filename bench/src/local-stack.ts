import { type Dict, hasOwn, isPlainObject, type MergerPlugin, setKey } from "@merge/core";

/**
 * PillarStack's default strategy (merge-last) as a plugin, used only until `@merge/strategies-stack` is built:
 * mappings merge key by key, lists concatenate (old first), anything else is replaced by the newer value, and a
 * change of type replaces too. The `__` directives are the real package's business; meeting one here is an error
 * rather than a silent difference, so a benchmark can never report numbers for the wrong semantics.
 */
export function localStackPlugin(): MergerPlugin {
  return {
    name: "stack",
    kinds: ["dict", "list", "string", "number", "boolean", "null", "other"],
    options: {},
    description: "merge-last (bench stand-in for @merge/strategies-stack)",
    create(_options, ctx) {
      const replace = (_base: unknown, incoming: unknown) => incoming;
      const directive = (incoming: Dict) => {
        if (hasOwn(incoming, "__")) ctx.fail("UNKNOWN_STRATEGY", "the bench stand-in knows merge-last only");
      };
      return {
        // The bench merges plain objects only, so this stand-in reads them directly (no mapping helpers).
        dict(mapping, incoming) {
          const base = mapping as Dict;
          if (!isPlainObject(incoming)) return incoming;
          directive(incoming);
          // Spread defines properties (never a `__proto__` setter call) and copies fast-mode objects in one step.
          const out: Dict = { ...base };
          for (const key of Object.keys(incoming)) {
            const value = incoming[key];
            setKey(out, key, hasOwn(base, key) ? ctx.merge(base[key], value, key) : value);
          }
          return out;
        },
        list(base, incoming) {
          if (!Array.isArray(incoming)) return incoming;
          const head = incoming[0];
          if (isPlainObject(head)) directive(head);
          return base.concat(incoming);
        },
        string: replace,
        number: replace,
        boolean: replace,
        null: replace,
        other: replace,
        // The fold's fast path: the engine hands over containers it owns, so they grow in place.
        inPlace: {
          dict(mapping, incoming) {
            const target = mapping as Dict;
            if (!isPlainObject(incoming)) return incoming;
            directive(incoming);
            for (const key of Object.keys(incoming)) {
              const value = incoming[key];
              setKey(target, key, hasOwn(target, key) ? ctx.merge(target[key], value, key) : value);
            }
            return target;
          },
          list(target, incoming) {
            if (!Array.isArray(incoming)) return incoming;
            const head = incoming[0];
            if (isPlainObject(head)) directive(head);
            for (let i = 0; i < incoming.length; i++) target.push(incoming[i]);
            return target;
          },
        },
      };
    },
  };
}
