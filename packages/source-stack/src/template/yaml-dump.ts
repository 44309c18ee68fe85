// Stand-in for @merge/yaml's PyYAML dumper (used only until that dumper is exported): `yaml.safe_dump` of
// template data with sorted keys, as Salt's `|yaml` filter calls it.
import { pyJsonDumps } from "./serialize-python.js";

export function dumpFlowYaml(value: unknown, _flowStyle: unknown): string {
  return pyJsonDumps(value);
}
