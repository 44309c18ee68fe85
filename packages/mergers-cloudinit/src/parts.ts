import type { Mapping, MergeError, ParsedSpec, Registry, TraceSink } from "@merge/core";
import {
  checkTree,
  formatSpec,
  isMergeError,
  isMapping,
  mergeAll,
  MergeError as MergeErrorClass,
} from "@merge/core";
import { type PartHeaders, extractDeclaration } from "./declarations.js";
import { applyJsonPatchPart, JSONP_PREFIX } from "./jsonpatch.js";
import { CLOUD_CONFIG_DEFAULT_SPEC, createCloudInitRegistry, STACK_DEFAULT_SPEC } from "./plugins.js";
import { loadPartYaml } from "./yaml.js";

/** The two content types cloud-init's cloud-config handler takes. */
export type CloudConfigType = "text/cloud-config" | "text/cloud-config-jsonp";

/** One cloud-config part. */
export interface CloudConfigPart {
  /** The part's text: YAML (with or without `#cloud-config`), or a JSON patch after `#cloud-config-jsonp`. */
  readonly text?: string | Uint8Array;
  /** An already loaded document, merged as is instead of reading `text`. */
  readonly data?: unknown;
  /** The part's file name, listed in the written result (`part-001` style names are given when missing). */
  readonly name?: string;
  /** MIME headers of the part; `Merge-Type` / `X-Merge-Type` may declare mergers. */
  readonly headers?: PartHeaders;
  /** Content type; by default a text starting with `#cloud-config-jsonp` is a patch, anything else cloud-config. */
  readonly type?: CloudConfigType;
}

/**
 * - `current` (default): each part's own mergers decide how it is merged in; a part declaring none uses
 *   `dict(replace)+list()+str()` (what cloud-init does).
 * - `stack`: each part is merged with the mergers declared by the part before it, starting from
 *   `list(extend)+dict()+str(append)` (the design in cloud-init's original merging document).
 */
export type CloudConfigMode = "current" | "stack";

export interface MergeCloudConfigOptions {
  readonly mode?: CloudConfigMode;
  /** Registry to resolve merger names with; default: a registry of `list`, `dict` and `str`. */
  readonly registry?: Registry;
  /** Report unknown merger options as `UNKNOWN_OPTION` instead of ignoring them as cloud-init does. */
  readonly strict?: boolean;
  readonly maxDepth?: number;
  readonly trace?: TraceSink;
}

/** What became of one part. */
export interface PartOutcome {
  readonly index: number;
  /** The name as cloud-init records it (tabs and line breaks made spaces, trimmed); the written output shows `?` for "". */
  readonly name: string;
  readonly type: CloudConfigType;
  readonly status: "merged" | "rejected";
  /** The mergers the part was merged with (canonical spec), for YAML parts that were merged. */
  readonly mergers?: string;
  readonly error?: MergeError;
}

export interface CloudConfigResult {
  /** The merged configuration: null when there were no parts, `{}` when every part was rejected. */
  readonly value: unknown;
  /** Names of the parts that were merged, in order (what cloud-init lists under `# from N files`). */
  readonly merged: readonly string[];
  readonly parts: readonly PartOutcome[];
  /** One coded error per rejected part. */
  readonly errors: readonly MergeError[];
}

interface Prepared {
  readonly index: number;
  readonly part: CloudConfigPart;
  readonly name: string;
  readonly type: CloudConfigType;
}

/**
 * Merges cloud-config parts the way cloud-init's cloud-config handler does. A plain string is a part's text. A part that is not a mapping (a list,
 * a scalar, empty, invalid YAML, several documents), whose mergers cannot be resolved, or whose merge fails is
 * rejected whole and reported; later parts still merge.
 */
export function mergeCloudConfig(
  parts: Iterable<CloudConfigPart | string>,
  options: MergeCloudConfigOptions = {},
): CloudConfigResult {
  const mode = options.mode ?? "current";
  if (mode !== "current" && mode !== "stack") {
    throw new MergeErrorClass(
      "CLOUD_CONFIG_MODE",
      `unknown cloud-config mode ${JSON.stringify(mode)}; use current or stack`,
    );
  }
  const registry = options.registry ?? createCloudInitRegistry();
  const prepared: Prepared[] = [];
  let index = 0;
  for (const given of parts) {
    const part: CloudConfigPart = typeof given === "string" ? { text: given } : given;
    prepared.push({ index, part, name: partName(part.name, index), type: part.type ?? sniffType(part) });
    index++;
  }

  const outcomes: PartOutcome[] = [];
  const errors: MergeError[] = [];
  const merged: string[] = [];
  let value: unknown = null;
  let stackTop: ParsedSpec | undefined;

  const reject = (item: Prepared, error: MergeError) => {
    outcomes[item.index] = { index: item.index, name: item.name, type: item.type, status: "rejected", error };
    errors.push(error);
  };
  const accept = (item: Prepared, mergers?: string) => {
    outcomes[item.index] = { index: item.index, name: item.name, type: item.type, status: "merged", mergers };
    merged.push(item.name);
  };

  // YAML parts between two JSON patch parts are folded by one `mergeAll` call.
  let run: Prepared[] = [];
  const flush = () => {
    if (run.length === 0) return;
    // cloud-init starts again from {} while nothing has been merged (or a patch left null).
    if (value === null || merged.length === 0) value = {};
    const result = foldRun(run, value, registry, mode, stackTop, options);
    value = result.value;
    stackTop = result.stackTop;
    for (const item of run) {
      const failure = result.failures.get(item.index);
      if (failure !== undefined) reject(item, failure);
      else accept(item, result.used.get(item.index));
    }
    run = [];
  };

  for (const item of prepared) {
    if (item.type !== "text/cloud-config-jsonp") {
      run.push(item);
      continue;
    }
    flush();
    if (value === null || merged.length === 0) value = {};
    try {
      value = applyJsonPatchPart(value, textOf(item.part), item.name);
      accept(item);
    } catch (error) {
      reject(item, asMergeError(error, item));
    }
  }
  flush();
  return { value, merged, parts: outcomes, errors };
}

interface RunResult {
  readonly value: unknown;
  readonly stackTop: ParsedSpec | undefined;
  readonly failures: Map<number, MergeError>;
  readonly used: Map<number, string>;
}

function foldRun(
  run: readonly Prepared[],
  initial: unknown,
  registry: Registry,
  mode: CloudConfigMode,
  stackTop: ParsedSpec | undefined,
  options: MergeCloudConfigOptions,
): RunResult {
  const declared = new Map<number, ParsedSpec | undefined>();
  const failures = new Map<number, MergeError>();
  const bottom = mode === "stack" ? (stackTop ?? STACK_DEFAULT_SPEC) : CLOUD_CONFIG_DEFAULT_SPEC;
  const value = mergeAll(run, {
    registry,
    spec: bottom,
    scope: mode === "stack" ? "following" : "self",
    initial,
    lenient: options.strict !== true,
    maxDepth: options.maxDepth,
    trace: options.trace,
    sources: run.map((item) => ({ file: item.name })),
    extract: (item) => {
      const doc = loadDocument(item, options.maxDepth);
      const declaration = extractDeclaration(doc, item.part.headers);
      declared.set(item.index, declaration.spec);
      return { doc: declaration.doc, spec: declaration.spec };
    },
    onError: ({ index, error }) => {
      const item = run[index]!;
      failures.set(item.index, withFile(error, item.name, item.index));
    },
  });

  // Which mergers each merged part used, and what the stack holds afterwards.
  const used = new Map<number, string>();
  const bottomLabel = typeof bottom === "string" ? bottom : formatSpec(bottom);
  let top: ParsedSpec | undefined = stackTop;
  for (const item of run) {
    if (failures.has(item.index)) continue;
    const own = declared.get(item.index);
    if (mode === "stack") {
      used.set(item.index, top === undefined ? bottomLabel : formatSpec(top));
      if (own !== undefined) top = own;
    } else {
      used.set(item.index, own === undefined ? CLOUD_CONFIG_DEFAULT_SPEC : formatSpec(own));
    }
  }
  return { value, stackTop: top, failures, used };
}

function loadDocument(item: Prepared, maxDepth: number | undefined): Mapping {
  const { part } = item;
  let doc: unknown;
  if (part.data !== undefined) {
    // Loaded data did not pass the YAML reader's budgets: check it for cycles, depth and size before merging, even
    // where the merge itself would not descend.
    checkTree(part.data, { maxDepth });
    doc = part.data;
  } else {
    doc = loadPartYaml(part.text ?? "", item.name);
  }
  if (!isMapping(doc)) {
    throw new MergeErrorClass(
      "CLOUD_CONFIG_PART",
      `cloud-config part ${item.name} is ${describeRoot(doc)}, not a mapping; cloud-init ignores the whole part`,
      { source: { file: item.name } },
    );
  }
  return doc;
}

function describeRoot(doc: unknown): string {
  if (doc === null || doc === undefined) return "empty";
  if (Array.isArray(doc)) return "a list";
  return `a ${typeof doc === "string" ? "string" : typeof doc === "object" ? "non-mapping object" : typeof doc}`;
}

/** The name cloud-init records for a part: line breaks and tabs become spaces, then trimmed (may be empty). */
function partName(name: string | undefined, index: number): string {
  if (name === undefined) return `part-${String(index + 1).padStart(3, "0")}`;
  return name.replace(/[\n\r\t]/g, " ").trim();
}

function textOf(part: CloudConfigPart): string {
  const text = part.text ?? "";
  return typeof text === "string" ? text : new TextDecoder("utf-8").decode(text);
}

/** cloud-init's `type_from_starts_with`: lowercased, leading whitespace ignored. */
function sniffType(part: CloudConfigPart): CloudConfigType {
  if (part.data !== undefined || part.text === undefined) return "text/cloud-config";
  const head = (
    typeof part.text === "string" ? part.text.slice(0, 256) : textOf({ text: part.text.subarray(0, 256) })
  )
    .trimStart()
    .toLowerCase();
  return head.startsWith(JSONP_PREFIX) ? "text/cloud-config-jsonp" : "text/cloud-config";
}

/** Names the part in the error: its file name, and its index among all parts (not within one `mergeAll` run). */
function withFile(error: MergeError, file: string, index: number): MergeError {
  error.source = { ...error.source, file: error.source?.file ?? file, document: index };
  return error;
}

function asMergeError(error: unknown, item: Prepared): MergeError {
  if (isMergeError(error)) return withFile(error, item.name, item.index);
  return new MergeErrorClass("CLOUD_CONFIG_PART", `cloud-config part ${item.name} failed: ${String(error)}`, {
    source: { file: item.name },
    cause: error,
  });
}
