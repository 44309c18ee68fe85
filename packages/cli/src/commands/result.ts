import type { TraceEvent } from "@merge/core";
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

/** The text a merging command prints: the value, or with `--explain` the value annotated with its provenance. */
export function renderResult(
  value: unknown,
  options: OutputOptions & { readonly yamlStyle?: YamlStyle },
  explain: ExplainInput,
  prefix = "",
): string {
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
