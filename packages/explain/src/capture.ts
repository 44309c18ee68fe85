import type { Merger, Registry, ResolveOptions, SpecInput } from "@merge/core";
import type { TraceRecorder } from "./recorder.js";

/**
 * A view of `registry` for a source that folds documents itself (a PillarStack loader): every merger it resolves
 * records trace events, numbers the documents it merges in call order, and keeps each document as it was merged.
 * The source needs no provenance support of its own; it only has to accept a registry.
 */
export function captureRegistry(
  registry: Registry,
  recorder: TraceRecorder,
  documents: unknown[],
  /** Receives, by call number, the error of each merge call that threw. */
  failures?: Map<number, unknown>,
): Registry {
  const view: Registry = {
    register: (plugin, options) => {
      registry.register(plugin, options);
      return view;
    },
    use: (...plugins) => {
      registry.use(...plugins);
      return view;
    },
    has: (name) => registry.has(name),
    get: (name) => registry.get(name),
    plugins: () => registry.plugins(),
    clone: () => registry.clone(),
    freeze: () => {
      registry.freeze();
      return view;
    },
    get frozen() {
      return registry.frozen;
    },
    resolve(spec: SpecInput, options: ResolveOptions = {}): Merger {
      const merger = registry.resolve(spec, { ...options, trace: recorder });
      const note = (incoming: unknown): number => {
        const call = documents.length;
        merger.setDocument(call);
        documents.push(incoming);
        return call;
      };
      // Every entry point that merges one more document is wrapped; the rest of the merger is passed through.
      const wrapped: Record<string, unknown> = { ...merger };
      for (const name of ["merge", "mergeInto"]) {
        const method = (merger as unknown as Record<string, unknown>)[name];
        if (typeof method !== "function") continue;
        wrapped[name] = (target: unknown, incoming: unknown, ...rest: unknown[]) => {
          const call = note(incoming);
          try {
            return (method as (...args: unknown[]) => unknown).call(merger, target, incoming, ...rest);
          } catch (error) {
            failures?.set(call, error);
            throw error;
          }
        };
      }
      return wrapped as unknown as Merger;
    },
  };
  return view;
}
