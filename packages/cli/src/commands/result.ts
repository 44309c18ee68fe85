import { checkTree, isMergeError, MergeError, type TraceEvent } from "@merge/core";
import { type ExplainDocument, explainResult } from "@merge/explain";
import { renderExplainedJson, renderExplainedYaml } from "../explain/render.js";
import { renderValue, type YamlStyle } from "../render.js";
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
 * The text a merging command prints: the value, or with `--explain` the value annotated with its provenance.
 * Throws `DEPTH_LIMIT` (or `CYCLIC_INPUT`) for a result, or with `--explain` an input, nested too deep to print.
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
  const style = options.yamlStyle ?? "default";
  if (!options.explain) {
    return options.format === "json"
      ? renderValue(value, "json")
      : `${prefix}${renderValue(value, "yaml", style)}`;
  }
  const explanation = explainResult(value, explain.documents, explain.events);
  if (options.format === "json") return renderExplainedJson(value, explanation);
  return `${prefix}${renderExplainedYaml(value, explanation, explain.title, style)}`;
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
