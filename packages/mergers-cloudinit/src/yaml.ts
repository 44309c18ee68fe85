import { loadYaml } from "@merge/yaml";

/** Reads a part as cloud-init does (`yaml.safe_load`: PyYAML, YAML 1.1). */
export function loadPartYaml(text: string | Uint8Array, filename: string): unknown {
  return loadYaml(text, { flavor: "pyyaml", filename });
}
