import { PyDict } from "@merge/core";
import { type LoadYamlOptions, loadYaml, loadYamlWithPositions, type YamlWithPositions } from "./load.js";

export interface YamlLoaderOptions extends Omit<LoadYamlOptions, "filename"> {
  /** How many distinct texts to remember (least recently used are dropped first); default 500, 0 disables. */
  readonly cacheSize?: number;
  /**
   * Freeze cached plain objects and arrays (default true), so a caller that mutates a value shared with other
   * callers fails loudly instead of changing what the next caller reads.
   */
  readonly freeze?: boolean;
}

/** A loader with fixed options and a cache of parsed texts (see `createYamlLoader`). */
export interface YamlLoader {
  /** `loadYaml` with the loader's options; the same text gives the same (shared, frozen) value. */
  load(input: string | Uint8Array, options?: { readonly filename?: string }): unknown;
  /** `loadYamlWithPositions` with the loader's options, cached the same way. */
  loadWithPositions(input: string | Uint8Array, options?: { readonly filename?: string }): YamlWithPositions;
  /** Forgets every cached text. */
  clear(): void;
  /** Number of cached texts. */
  readonly size: number;
}

function deepFreeze(root: unknown): void {
  const stack = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      Object.freeze(value);
      for (const item of value) stack.push(item);
    } else if (value instanceof PyDict) {
      value.freeze();
      for (const v of value.values()) stack.push(v);
    } else if (value instanceof Map) {
      for (const [k, v] of value) stack.push(k, v);
    } else if (value instanceof Set) {
      for (const v of value) stack.push(v);
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      Object.freeze(value);
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
}

/**
 * A loader for callers that read the same texts again and again (PillarStack reads the same files for every host):
 * parsed results are kept by text, so a repeated text costs a map lookup. Errors are not cached, so each failing
 * call reports its own file name.
 */
export function createYamlLoader(options: YamlLoaderOptions = {}): YamlLoader {
  const { cacheSize = 500, freeze = true, ...loadOptions } = options;
  const values = new Map<string, unknown>();
  const withPositions = new Map<string, YamlWithPositions>();

  function remember<T>(cache: Map<string, T>, key: string, entry: T): T {
    if (cacheSize <= 0) return entry;
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
    return entry;
  }

  function lookup<T>(cache: Map<string, T>, key: string): T | undefined {
    const hit = cache.get(key);
    if (hit !== undefined) {
      // Move to the back: the Map's insertion order is the recency order.
      cache.delete(key);
      cache.set(key, hit);
    }
    return hit;
  }

  const keyOf = (input: string | Uint8Array): string | undefined =>
    typeof input === "string" ? input : undefined;

  return {
    load(input, callOptions = {}) {
      const key = keyOf(input);
      if (key !== undefined && values.has(key)) return lookup(values, key);
      const value = loadYaml(input, { ...loadOptions, filename: callOptions.filename });
      if (key === undefined) return value;
      if (freeze) deepFreeze(value);
      return remember(values, key, value);
    },
    loadWithPositions(input, callOptions = {}) {
      const key = keyOf(input);
      const hit = key === undefined ? undefined : lookup(withPositions, key);
      if (hit !== undefined) return hit;
      const result = loadYamlWithPositions(input, { ...loadOptions, filename: callOptions.filename });
      if (key === undefined) return result;
      if (freeze) deepFreeze(result.value);
      return remember(withPositions, key, result);
    },
    clear() {
      values.clear();
      withPositions.clear();
    },
    get size() {
      return values.size + withPositions.size;
    },
  };
}
