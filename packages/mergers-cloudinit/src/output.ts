import { dumpYaml } from "@merge/yaml";
import type { CloudConfigResult } from "./parts.js";

/**
 * Writes a merge result the way cloud-init writes `cloud-config.txt`: `#cloud-config`, a blank line, `# from N
 * files` with one `# name` line per merged part (`?` for an empty name) and a blank line, then the value dumped by
 * `safeyaml.dumps` (PyYAML, block style, indent 4, sorted keys, `---` ... `...`). A null value (no parts) is written
 * as an empty text, as cloud-init does.
 */
export function formatCloudConfig(result: Pick<CloudConfigResult, "value" | "merged">): string {
  if (result.value === null || result.value === undefined) return "";
  const lines = ["#cloud-config", ""];
  if (result.merged.length > 0) {
    lines.push(`# from ${result.merged.length} files`);
    for (const name of result.merged) lines.push(`# ${name === "" ? "?" : name}`);
    lines.push("");
  }
  lines.push(dumpYaml(result.value, { preset: "cloud-init" }));
  return lines.join("\n");
}
