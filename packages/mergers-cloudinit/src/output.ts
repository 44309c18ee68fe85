import { toExact } from "@merge/core";
import { dumpYaml } from "@merge/yaml";
import type { CloudConfigResult } from "./parts.js";

/**
 * Writes a merge result the way cloud-init writes `cloud-config.txt`: `#cloud-config`, a blank line, `# from N
 * files` with one `# name` line per merged part (`?` for an empty name) and a blank line, then the value dumped by
 * `safeyaml.dumps` (PyYAML, block style, indent 4, sorted keys — insertion order where Python cannot sort mixed key
 * types —, `---` ... `...`). A null value (no parts) is written as an empty text, as cloud-init does.
 *
 * The text is written from the exact value (`result.exact`), so it is the same whichever `values` the result was made
 * with; a `{ value, merged }` made by hand is converted with `toExact` (plain numbers are then ints).
 */
export function formatCloudConfig(
  result: Pick<CloudConfigResult, "value" | "merged"> & { readonly exact?: unknown },
): string {
  const value = "exact" in result ? result.exact : toExact(result.value);
  if (value === null || value === undefined) return "";
  const lines = ["#cloud-config", ""];
  if (result.merged.length > 0) {
    lines.push(`# from ${result.merged.length} files`);
    for (const name of result.merged) lines.push(`# ${name === "" ? "?" : name}`);
    lines.push("");
  }
  lines.push(dumpYaml(value, { preset: "cloud-init" }));
  return lines.join("\n");
}
