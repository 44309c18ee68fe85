// YAML for the serializer tags and filters, through @merge/yaml (Salt's loader; PyYAML's dumper when present).
import * as mergeYaml from "@merge/yaml";
import { dumpFlowYaml } from "./yaml-dump.js";

type DumpFn = (value: unknown, options?: Record<string, unknown>) => string;

export function loadSaltYaml(text: string, filename: string): unknown {
  return mergeYaml.loadYaml(text, { flavor: "salt", filename });
}

/** Salt's `|yaml(flow_style)`: `safe_dump(value, default_flow_style=flow_style)`, stripped, without `...`. */
export function saltYamlFilter(value: unknown, flowStyle: unknown): string {
  const dump = (mergeYaml as unknown as Record<string, unknown>).dumpYaml as DumpFn | undefined;
  const text =
    typeof dump === "function"
      ? dump(value, { preset: "salt-filter", defaultFlowStyle: flowStyle })
      : dumpFlowYaml(value, flowStyle);
  let out = text.trim();
  if (out.endsWith("\n...")) out = out.slice(0, -4);
  return out;
}
