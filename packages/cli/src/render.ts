import { formatJson } from "@merge/core";
import { dumpYaml } from "@merge/yaml";

export type OutputFormat = "yaml" | "json";

/**
 * `readable` (every command but one): block style, keys in their order, Unicode as it is, no anchors, long strings
 * on one line. `cloud-init`: what cloud-init writes to `cloud-config.txt` (PyYAML's `safe_dump` with indent 4, keys
 * sorted, `---` and `...`).
 */
export type YamlStyle = "readable" | "cloud-init";

/** Comments for `--explain`: lines before the document and one per value (see `@merge/yaml`'s `dumpYaml`). */
export interface YamlAnnotations {
  readonly header?: readonly string[] | (() => readonly string[]);
  readonly comment?: (path: readonly unknown[]) => string | undefined;
}

/**
 * Wider than any line: a long string stays on one line (PyYAML would fold it at 80 columns, which reads back the same
 * but is harder to grep and to diff).
 */
const NO_WRAP = Number.MAX_SAFE_INTEGER;

/**
 * YAML that PyYAML (cloud-init, Salt) reads back as exactly the value written: `@merge/yaml`'s emitter, a port of
 * PyYAML's, so `yes`, `0755`, `1:30` and `1e3`-like strings are quoted as PyYAML quotes them, `9.0` stays a float,
 * int keys stay ints, and characters PyYAML's reader refuses are escaped. Values of the exact model (`PyDict`,
 * `PyFloat`) and plain ones alike.
 */
export function yamlText(
  value: unknown,
  style: YamlStyle = "readable",
  annotations: YamlAnnotations = {},
): string {
  if (style === "cloud-init") return dumpYaml(value, { preset: "cloud-init", ...annotations });
  return dumpYaml(value, { preset: "readable", width: NO_WRAP, ...annotations });
}

/** JSON as Python's `json.dumps(indent=2)` writes the exact model: keys in order, `9.0`, `NaN`, big ints exact. */
export function jsonText(value: unknown): string {
  return `${formatJson(value)}\n`;
}

export function renderValue(value: unknown, format: OutputFormat, style: YamlStyle = "readable"): string {
  return format === "json" ? jsonText(value) : yamlText(value, style);
}
