import { loadYaml, loadYamlWithPositions, type YamlWithPositions } from "@merge/yaml";

/**
 * Reads a part as cloud-init does (`yaml.safe_load`: PyYAML, YAML 1.1), into the exact model by default: `PyDict`
 * mappings with typed keys in document order, `PyFloat` whole floats. The archive reader asks for plain values.
 */
export function loadPartYaml(
  text: string | Uint8Array,
  filename: string,
  values: "plain" | "exact" = "exact",
): unknown {
  return loadYaml(text, { flavor: "pyyaml", filename, values });
}

/** `loadPartYaml` in the exact model, with the line and column of every value (for explanations). */
export function loadPartYamlWithPositions(text: string | Uint8Array, filename: string): YamlWithPositions {
  return loadYamlWithPositions(text, { flavor: "pyyaml", filename, values: "exact" });
}
