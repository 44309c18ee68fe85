import { checkTree, isMergeError, MergeError, type TraceEvent } from "@merge/core";
import { type ExplainDocument, explainResult } from "@merge/explain";
import { renderExplainedJson, renderExplainedYamlInOrder } from "../explain/render.js";
import { renderAbsentStory, renderStory } from "../explain/story.js";
import { keyNotFound, lookupKey } from "../key-path.js";
import { jsonText, type YamlStyle, yamlText } from "../render.js";
import type { OutputOptions } from "./common.js";

export interface ExplainInput {
  /** First line of the `--explain` header (the command that produced the result). */
  readonly title: string;
  readonly documents: readonly ExplainDocument[];
  readonly events: readonly TraceEvent[];
}

/**
 * The deepest result merge prints: what its own YAML reader reads back (PyYAML's pure-Python loader, measured with
 * Debian's python3-yaml 6.0, stops at 493 levels of flow lists; its C loader reads deeper). The renderers recurse,
 * so a deeper value is refused here as `DEPTH_LIMIT` instead of exhausting JavaScript's stack (at about 850 levels).
 */
export const OUTPUT_MAX_DEPTH = 500;

/**
 * The text a merging command prints, from a result in the exact model: the value (or, with `--get`, the value at one
 * key), and with `--explain` the value annotated with its provenance (or the story of that one key). `prefix` goes
 * before a whole YAML result (cloud-config's `#cloud-config` header). Throws `DEPTH_LIMIT` (or `CYCLIC_INPUT`) for a
 * result, or with `--explain` an input, nested too deep to print, and `KEY_NOT_FOUND` for a `--get` key that names
 * nothing.
 */
export function renderResult(
  value: unknown,
  options: OutputOptions & { readonly yamlStyle?: YamlStyle },
  explain: ExplainInput,
  prefix = "",
): string {
  checkPrintable(value, "the result");
  if (options.explain) {
    for (const doc of explain.documents) checkPrintable(doc.value, doc.name);
  }
  const style = options.yamlStyle ?? "readable";
  if (options.get !== undefined) {
    const found = lookupKey(value, options.get);
    if (!found.found) {
      const error = keyNotFound(options.get, found);
      if (!options.explain) throw error;
      // Why the result lacks a key some input had: the story goes with the error, for standard output.
      const story = renderAbsentStory({
        key: options.get,
        lookup: found,
        title: explain.title,
        documents: explain.documents,
        explanation: explainResult(value, explain.documents, explain.events),
        format: options.format,
      });
      if (story === undefined) throw error;
      throw new MergeError(error.code, error.message, {
        path: error.keys,
        details: { ...error.details, story },
      });
    }
    if (!options.explain) {
      return options.format === "json" ? jsonText(found.value) : valueText(found.value);
    }
    const explanation = explainResult(value, explain.documents, explain.events);
    return renderStory({
      key: options.get,
      path: found.path,
      value: found.value,
      title: explain.title,
      documents: explain.documents,
      explanation,
      format: options.format,
    });
  }
  if (!options.explain) {
    return options.format === "json" ? jsonText(value) : `${prefix}${yamlText(value, style)}`;
  }
  if (options.format === "yaml") {
    // The explanation is made as the YAML is written, never held whole.
    const { documents, events, title } = explain;
    return `${prefix}${renderExplainedYamlInOrder(value, documents, events, title, style)}`;
  }
  return renderExplainedJson(value, explainResult(value, explain.documents, explain.events));
}

/**
 * One value as YAML for `--get`: a scalar without the `...` PyYAML writes after a plain scalar document, so that
 * `$(merge ... --get key)` is the value (quoted where YAML needs it: `'yes'`, `'0755'`).
 */
export function valueText(value: unknown): string {
  const text = yamlText(value);
  return text.endsWith("\n...\n") ? text.slice(0, -4) : text;
}

function checkPrintable(value: unknown, what: string): void {
  try {
    // Only the shape matters here: sizes were bounded when the inputs were read.
    checkTree(value, { maxDepth: OUTPUT_MAX_DEPTH, maxNodes: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (!isMergeError(error)) throw error;
    const message =
      error.code === "DEPTH_LIMIT"
        ? `${what} nests deeper than ${OUTPUT_MAX_DEPTH} levels, the most merge writes (its YAML reader reads no deeper)`
        : `${what} refers to itself (a cycle) and cannot be written`;
    throw new MergeError(error.code, message, {
      path: error.keys,
      cause: error,
      details: { maxDepth: OUTPUT_MAX_DEPTH },
    });
  }
}
