import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import {
  type Dict,
  type Mapping,
  MergeError,
  type PathKey,
  type PyDict,
  type Registry,
  type SourcePosition,
} from "@merge/core";
import {
  createStackLoader,
  type SaltFunction,
  type StackHost,
  type StackLoaderOptions,
  type StackResult,
} from "./loader.js";
import { stackError } from "./problems.js";
import { fromWire, toWire, type WireValue } from "./wire.js";

/**
 * Options of a batch. Functions, registries and renderers cannot cross into worker threads, so they come from
 * `setupModule` instead: a module each worker imports, whose named exports `functions` and `registry` (if present)
 * are used as the loader's.
 */
export interface StackBatchOptions
  extends Omit<
    StackLoaderOptions,
    "functions" | "registry" | "renderer" | "onWarning" | "compiledTemplates" | "parsedDocuments"
  > {
  /** Worker threads to use. Default: one per core, at most one per 25 hosts; 0 or 1 renders in this thread. */
  readonly workers?: number;
  /** Path or file URL of a module exporting `functions` and/or `registry` for the loaders. */
  readonly setupModule?: string;
  /** Stops the batch: workers are terminated and the promise rejects with a `STACK_WORKER` error. */
  readonly signal?: AbortSignal;
}

/** The outcome for one host of a batch: its result, or the coded error that stopped it. */
export type StackBatchEntry<D extends Mapping = Dict> =
  | { readonly minionId: string; readonly ok: true; readonly result: StackResult<D> }
  | { readonly minionId: string; readonly ok: false; readonly error: MergeError };

/** What crosses the thread boundary for a failed host. */
export interface SerializedError {
  readonly code: string;
  readonly message: string;
  readonly keys?: readonly PathKey[];
  readonly source?: SourcePosition;
  readonly plugin?: string;
}

/** A result as it crosses the thread boundary: with `values: "exact"`, `data` in the tagged form of `./wire.ts`. */
export type WireEntry =
  | {
      readonly minionId: string;
      readonly ok: true;
      readonly result: StackResult<Mapping>;
      readonly wire?: WireValue;
    }
  | { readonly minionId: string; readonly ok: false; readonly error: SerializedError };

export interface WorkerInput {
  readonly options: Omit<StackBatchOptions, "workers" | "signal">;
  readonly hosts: readonly StackHost[];
}

/**
 * Renders many hosts, spread over worker threads; each worker compiles the templates once and renders its share.
 * Results come back in the order of `hosts`. A host that fails does not stop the others.
 */
export async function loadStackBatch(
  hosts: readonly StackHost[],
  options: StackBatchOptions & { readonly values: "exact" },
): Promise<StackBatchEntry<PyDict>[]>;
export async function loadStackBatch(
  hosts: readonly StackHost[],
  options: StackBatchOptions,
): Promise<StackBatchEntry[]>;
export async function loadStackBatch(
  hosts: readonly StackHost[],
  options: StackBatchOptions,
): Promise<StackBatchEntry<Mapping>[]> {
  const { workers: asked, signal, ...rest } = options;
  if (signal?.aborted) throw cancelled();
  const count = Math.min(
    asked ?? Math.min(availableParallelism(), Math.ceil(hosts.length / 25)),
    hosts.length,
  );
  if (count <= 1) return revive(await renderHosts({ options: rest, hosts }));
  const size = Math.ceil(hosts.length / count);
  const chunks: StackHost[][] = [];
  for (let i = 0; i < hosts.length; i += size) chunks.push(hosts.slice(i, i + size));
  const parts = await Promise.all(chunks.map((chunk) => runWorker({ options: rest, hosts: chunk }, signal)));
  return revive(parts.flat());
}

/** The work of one worker (also used in-thread): one loader for all its hosts. */
export async function renderHosts(input: WorkerInput): Promise<WireEntry[]> {
  const setup = input.options.setupModule === undefined ? {} : await importSetup(input.options.setupModule);
  const loader = createStackLoader({ ...input.options, ...setup });
  const exact = input.options.values === "exact";
  return input.hosts.map((host): WireEntry => {
    try {
      const result = loader.load(host);
      if (!exact) return { minionId: host.minionId, ok: true, result };
      // Structured cloning would turn PyDicts and PyFloats into plain objects: the data crosses tagged.
      return {
        minionId: host.minionId,
        ok: true,
        result: { ...result, data: {} },
        wire: toWire(result.data),
      };
    } catch (error) {
      return { minionId: host.minionId, ok: false, error: serialize(error) };
    }
  });
}

async function importSetup(
  module: string,
): Promise<{ functions?: Record<string, SaltFunction>; registry?: Registry }> {
  const url = /^[a-z]+:/i.test(module) ? module : pathToFileURL(module).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (cause) {
    throw stackError(
      "STACK_WORKER",
      `cannot import the batch setup module ${module}: ${String(cause)}`,
      undefined,
      cause,
    );
  }
  const out: { functions?: Record<string, SaltFunction>; registry?: Registry } = {};
  if (loaded.functions !== undefined) out.functions = loaded.functions as Record<string, SaltFunction>;
  if (loaded.registry !== undefined) out.registry = loaded.registry as Registry;
  return out;
}

function serialize(error: unknown): SerializedError {
  if (error instanceof Error && typeof (error as MergeError).code === "string") {
    const e = error as MergeError;
    return { code: e.code, message: e.message, keys: e.keys, source: e.source, plugin: e.plugin };
  }
  return { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) };
}

function revive(entries: readonly WireEntry[]): StackBatchEntry<Mapping>[] {
  return entries.map(
    (entry): StackBatchEntry<Mapping> =>
      entry.ok
        ? {
            minionId: entry.minionId,
            ok: true,
            result:
              entry.wire === undefined
                ? entry.result
                : { ...entry.result, data: fromWire(entry.wire) as PyDict },
          }
        : {
            minionId: entry.minionId,
            ok: false,
            error: new MergeError(entry.error.code, entry.error.message, {
              path: entry.error.keys,
              source: entry.error.source,
              plugin: entry.error.plugin,
            }),
          },
  );
}

function workerUrl(): URL {
  const beside = new URL("./worker.js", import.meta.url);
  // When this module runs from the TypeScript sources (tests), the compiled worker is in dist/.
  return existsSync(beside) ? beside : new URL("../dist/worker.js", import.meta.url);
}

function cancelled(): MergeError {
  return stackError("STACK_WORKER", "the batch was cancelled");
}

function runWorker(input: WorkerInput, signal: AbortSignal | undefined): Promise<WireEntry[]> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(workerUrl(), { workerData: input });
    let settled = false;
    const abort = () => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(cancelled());
    };
    signal?.addEventListener("abort", abort, { once: true });
    worker.once("exit", () => signal?.removeEventListener("abort", abort));
    worker.once("message", (entries: WireEntry[]) => {
      settled = true;
      resolvePromise(entries);
      void worker.terminate();
    });
    worker.once("error", (cause) => {
      if (settled) return;
      settled = true;
      const code = (cause as { code?: unknown }).code;
      reject(
        typeof code === "string" && code.length > 0 && (cause as Error).name === "MergeError"
          ? cause
          : stackError("STACK_WORKER", `a batch worker failed: ${cause.message}`, undefined, cause),
      );
    });
    worker.once("exit", (code) => {
      if (settled) return;
      settled = true;
      reject(stackError("STACK_WORKER", `a batch worker stopped (exit code ${code}) before it answered`));
    });
  });
}
