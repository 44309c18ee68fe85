import type { MergerPlugin } from "@merge/core";
import { localStackPlugin } from "./local-stack.js";
import { firstLine } from "./optional.js";

export interface StackPluginChoice {
  readonly plugin: MergerPlugin;
  /** Where the plugin came from, printed in the report. */
  readonly origin: string;
  /** True when it is the bench's stand-in. */
  readonly local: boolean;
}

function isStackPlugin(value: unknown): value is MergerPlugin {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as MergerPlugin).name === "stack" &&
    typeof (value as MergerPlugin).create === "function"
  );
}

/**
 * The `stack()` merger of `@merge/strategies-stack` when that package is built, else the bench's stand-in with
 * the same merge-last semantics. The package's export may be the plugin itself or a factory returning it.
 */
export async function loadStackPlugin(): Promise<StackPluginChoice> {
  let reason = "not built";
  try {
    const module = (await import("@merge/strategies-stack")) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (isStackPlugin(value))
        return { plugin: value, origin: `@merge/strategies-stack (${name})`, local: false };
    }
    for (const [name, value] of Object.entries(module)) {
      if (
        typeof value !== "function" ||
        value.length > 1 ||
        !/stack/i.test(name) ||
        !/plugin|merger/i.test(name)
      ) {
        continue;
      }
      try {
        const made = (value as (options?: unknown) => unknown)();
        if (isStackPlugin(made))
          return { plugin: made, origin: `@merge/strategies-stack (${name}())`, local: false };
      } catch {
        // not a plugin factory
      }
    }
    reason = "no stack plugin exported yet";
  } catch (error) {
    reason = firstLine(error);
  }
  return {
    plugin: localStackPlugin(),
    origin: `bench stand-in (@merge/strategies-stack: ${reason})`,
    local: true,
  };
}
