import type { Mapping, MergeError, Merger, ParsedSpec, Registry, TraceSink } from "@merge/core";
import {
  checkTree,
  formatSpec,
  isMapping,
  isMergeError,
  kindOf,
  MergeError as MergeErrorClass,
  mappingSize,
  mergeAll,
  PyDict,
  toExact,
  toPlain,
} from "@merge/core";
import { extractDeclaration, type PartHeaders } from "./declarations.js";
import { applyJsonPatchExact, JSONP_PREFIX } from "./jsonpatch.js";
import { CLOUD_CONFIG_DEFAULT_SPEC, createCloudInitRegistry, STACK_DEFAULT_SPEC } from "./plugins.js";
import { pythonLstrip } from "./python-text.js";
import { loadPartYaml, loadPartYamlWithPositions } from "./yaml.js";
import type { YamlWithPositions } from "@merge/yaml";

/** The two content types cloud-init's cloud-config handler takes. */
export type CloudConfigType = "text/cloud-config" | "text/cloud-config-jsonp";

/** One cloud-config part. */
export interface CloudConfigPart {
  /** The part's text: YAML (with or without `#cloud-config`), or a JSON patch after `#cloud-config-jsonp`. */
  readonly text?: string | Uint8Array;
  /**
   * An already loaded document, merged instead of reading `text`. Plain objects are converted with `toExact` (their
   * keys in JavaScript's order); pass `PyDict`s to give keys of other types or another order.
   */
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
  /**
   * The representation of `result.value`. `"plain"` (default, for JavaScript callers): plain objects and numbers,
   * `toPlain` of the exact result (lossy: `9.0` reads `9`, `1` and `"1"` become one key, integer-like keys come
   * first). `"exact"`: what cloud-init holds, in `@merge/core`'s exact model (`PyDict`, `PyFloat`). Either way the
   * merge itself runs in the exact model and `result.exact` holds its result.
   */
  readonly values?: "plain" | "exact";
  /**
   * Read each YAML part with the line and column of every value and give it as the part's `positionOf` (what an
   * explanation needs), instead of the caller reading every part a second time. Off by default: it costs memory.
   */
  readonly positions?: boolean;
}

/** Something cloud-init does silently that loses data; the merge goes on. */
export interface CloudConfigWarning {
  /** `CLOUD_CONFIG_DROPPED`: a merged part's mergers cannot merge into the configuration, which stays as it was. */
  readonly code: CloudConfigWarningCode;
  readonly message: string;
  /** The part's name, as in `merged`. */
  readonly file: string;
  /** The part's index among all parts. */
  readonly index: number;
}

/** Codes of the warnings a cloud-config merge can return. */
export type CloudConfigWarningCode = "CLOUD_CONFIG_DROPPED";

/** What became of one part. */
export interface PartOutcome {
  readonly index: number;
  /** The name as cloud-init records it (tabs and line breaks made spaces, trimmed); the written output shows `?` for "". */
  readonly name: string;
  readonly type: CloudConfigType;
  readonly status: "merged" | "rejected";
  /** The mergers the part was merged with (canonical spec), for YAML parts that were merged. */
  readonly mergers?: string;
  /**
   * Where `mergers` came from: the index of the part that declared them (the part itself in `current` mode; an
   * earlier part in `stack` mode), or `"default"` when none did and cloud-init's default applied.
   */
  readonly mergersFrom?: number | "default";
  readonly error?: MergeError;
  /** With the `positions` option, for a part read from YAML text: the line and column of a value by its path. */
  readonly positionOf?: YamlWithPositions["positionOf"];
}

export interface CloudConfigResult {
  /**
   * The merged configuration, in the representation `values` asked for: null when there were no parts, an empty
   * mapping when every part was rejected.
   */
  readonly value: unknown;
  /** The same configuration in the exact model, whatever `values` was (what `formatCloudConfig` writes). */
  readonly exact: unknown;
  /** Names of the parts that were merged, in order (what cloud-init lists under `# from N files`). */
  readonly merged: readonly string[];
  readonly parts: readonly PartOutcome[];
  /** One coded error per rejected part. */
  readonly errors: readonly MergeError[];
  /** Parts that cloud-init counts as merged but whose content it drops (see `CloudConfigWarning`). */
  readonly warnings: readonly CloudConfigWarning[];
}

interface Prepared {
  readonly index: number;
  readonly part: CloudConfigPart;
  readonly name: string;
  readonly type: CloudConfigType;
  /** Where each value of the part's YAML was written, when `positions` asked for it. */
  positionOf?: YamlWithPositions["positionOf"];
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
  const values = options.values ?? "plain";
  if (values !== "plain" && values !== "exact") {
    throw new MergeErrorClass(
      "CLOUD_CONFIG_MODE",
      `unknown values ${JSON.stringify(values)}; use plain or exact`,
    );
  }
  // cloud-init itself does not know `list(extend)`; the seed's design (stack mode) reads it as append.
  const registry = options.registry ?? createCloudInitRegistry({ seedExtend: mode === "stack" });
  const prepared: Prepared[] = [];
  let index = 0;
  for (const given of parts) {
    const part: CloudConfigPart = typeof given === "string" ? { text: given } : given;
    prepared.push({ index, part, name: partName(part.name, index), type: part.type ?? sniffType(part) });
    index++;
  }

  const outcomes: PartOutcome[] = [];
  const errors: MergeError[] = [];
  const warnings: CloudConfigWarning[] = [];
  const merged: string[] = [];
  // cloud-init's `cloud_buf`, always in the exact model.
  let value: unknown = null;
  let stackTop: ParsedSpec | undefined;
  let stackTopFrom: number | undefined;

  const located = (item: Prepared) => (item.positionOf === undefined ? {} : { positionOf: item.positionOf });
  const reject = (item: Prepared, error: MergeError) => {
    outcomes[item.index] = {
      index: item.index,
      name: item.name,
      type: item.type,
      status: "rejected",
      error,
      ...located(item),
    };
    errors.push(error);
  };
  const accept = (item: Prepared, mergers?: string, mergersFrom?: number | "default") => {
    outcomes[item.index] =
      mergers === undefined
        ? { index: item.index, name: item.name, type: item.type, status: "merged", ...located(item) }
        : {
            index: item.index,
            name: item.name,
            type: item.type,
            status: "merged",
            mergers,
            mergersFrom,
            ...located(item),
          };
    merged.push(item.name);
  };
  const fold = (items: readonly Prepared[]) => {
    const baseKind = kindOf(value);
    const result = foldRun(items, value, registry, mode, stackTop, stackTopFrom, options);
    value = result.value;
    stackTop = result.stackTop;
    stackTopFrom = result.stackTopFrom;
    for (const item of items) {
      const failure = result.failures.get(item.index);
      if (failure !== undefined) {
        reject(item, failure);
        continue;
      }
      const used = result.used.get(item.index)!;
      accept(item, used.label, used.from);
      if ((result.sizes.get(item.index) ?? 0) > 0 && used.merger.handlerFor(baseKind) === undefined) {
        warnings.push(droppedWarning(item, used.label, baseKind));
      }
    }
  };

  // YAML parts between two JSON patch parts are folded by one `mergeAll` call.
  let run: Prepared[] = [];
  const flush = () => {
    if (run.length === 0) return;
    // cloud-init starts again from {} while nothing has been merged (or a patch left null).
    if (value === null || merged.length === 0) value = new PyDict();
    // Merging keeps a mapping a mapping, so a run that starts from one is folded at once; after a patch made the
    // configuration something else (rare), part by part, to know what each part was merged into.
    if (isMapping(value)) fold(run);
    else for (const item of run) fold([item]);
    run = [];
  };

  for (const item of prepared) {
    if (item.type !== "text/cloud-config-jsonp") {
      run.push(item);
      continue;
    }
    flush();
    if (value === null || merged.length === 0) value = new PyDict();
    try {
      value = applyJsonPatchExact(value, textOf(item.part), item.name, options.maxDepth);
      accept(item);
    } catch (error) {
      reject(item, asMergeError(error, item));
    }
  }
  flush();
  return {
    value: values === "exact" ? value : toPlain(value),
    exact: value,
    merged,
    parts: outcomes,
    errors,
    warnings,
  };
}

function droppedWarning(item: Prepared, label: string, baseKind: string): CloudConfigWarning {
  const into = baseKind === "dict" ? "a mapping" : baseKind === "list" ? "a list" : `a ${baseKind}`;
  return {
    code: "CLOUD_CONFIG_DROPPED",
    message:
      `part ${item.name} is merged with ${label}, which has no merger for ${into} (the configuration so far), ` +
      "so cloud-init keeps the configuration as it was and drops everything the part holds",
    file: item.name,
    index: item.index,
  };
}

interface UsedMergers {
  /** The spec, as listed in `PartOutcome.mergers`. */
  readonly label: string;
  readonly merger: Merger;
  /** As `PartOutcome.mergersFrom`. */
  readonly from: number | "default";
}

interface RunResult {
  readonly value: unknown;
  readonly stackTop: ParsedSpec | undefined;
  /** The index of the part that declared `stackTop`. */
  readonly stackTopFrom: number | undefined;
  readonly failures: Map<number, MergeError>;
  readonly used: Map<number, UsedMergers>;
  /** Top-level keys of each part, declaration keys removed. */
  readonly sizes: Map<number, number>;
}

function foldRun(
  run: readonly Prepared[],
  initial: unknown,
  registry: Registry,
  mode: CloudConfigMode,
  stackTop: ParsedSpec | undefined,
  stackTopFrom: number | undefined,
  options: MergeCloudConfigOptions,
): RunResult {
  const declared = new Map<number, ParsedSpec | undefined>();
  const failures = new Map<number, MergeError>();
  const sizes = new Map<number, number>();
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
      const doc = loadDocument(item, options.maxDepth, options.positions === true);
      const declaration = extractDeclaration(doc, item.part.headers);
      declared.set(item.index, declaration.spec);
      sizes.set(item.index, mappingSize(declaration.doc));
      return { doc: declaration.doc, spec: declaration.spec };
    },
    onError: ({ index, error }) => {
      const item = run[index]!;
      failures.set(item.index, withFile(error, item.name, item.index));
    },
  });

  // Which mergers each merged part used, and what the stack holds afterwards.
  const used = new Map<number, UsedMergers>();
  const resolved = new Map<string, Merger>();
  const usedOf = (spec: ParsedSpec | string, from: number | "default"): UsedMergers => {
    const label = typeof spec === "string" ? spec : formatSpec(spec);
    const key = typeof spec === "string" ? spec : JSON.stringify(spec);
    let merger = resolved.get(key);
    if (merger === undefined) {
      merger = registry.resolve(spec, { lenient: options.strict !== true });
      resolved.set(key, merger);
    }
    return { label, merger, from };
  };
  let top: ParsedSpec | undefined = stackTop;
  let topFrom: number | undefined = stackTopFrom;
  for (const item of run) {
    if (failures.has(item.index)) continue;
    const own = declared.get(item.index);
    if (mode === "stack") {
      used.set(item.index, top === undefined ? usedOf(bottom, "default") : usedOf(top, topFrom ?? "default"));
      if (own !== undefined) {
        top = own;
        topFrom = item.index;
      }
    } else {
      used.set(
        item.index,
        own === undefined ? usedOf(CLOUD_CONFIG_DEFAULT_SPEC, "default") : usedOf(own, item.index),
      );
    }
  }
  return { value, stackTop: top, stackTopFrom: topFrom, failures, used, sizes };
}

function loadDocument(item: Prepared, maxDepth: number | undefined, positions: boolean): Mapping {
  const { part } = item;
  let doc: unknown;
  if (part.data !== undefined) {
    // Loaded data did not pass the YAML reader's budgets: check it for cycles, depth and size before merging, even
    // where the merge itself would not descend.
    checkTree(part.data, { maxDepth });
    doc = toExact(part.data);
  } else if (positions) {
    const loaded = loadPartYamlWithPositions(part.text ?? "", item.name);
    doc = loaded.value;
    item.positionOf = loaded.positionOf;
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
  if (typeof doc === "string") return "a string";
  if (typeof doc === "object") return kindOf(doc) === "number" ? "a number" : "a non-mapping object";
  return `a ${typeof doc}`;
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

/** cloud-init's `type_from_starts_with`: lowercased, leading whitespace (as Python's `lstrip` sees it) ignored. */
function sniffType(part: CloudConfigPart): CloudConfigType {
  if (part.data !== undefined || part.text === undefined) return "text/cloud-config";
  const head = pythonLstrip(textOf(part)).slice(0, JSONP_PREFIX.length).toLowerCase();
  return head === JSONP_PREFIX ? "text/cloud-config-jsonp" : "text/cloud-config";
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
