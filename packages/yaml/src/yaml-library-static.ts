import * as yaml from "yaml";

/**
 * The `yaml` package's parser for runtimes other than Node (browsers, through a bundler): there is no synchronous
 * loading on demand there, so it is imported with the rest. Node gets the lazy yaml-library.ts.
 */
export function yamlLibrary(): typeof yaml {
  return yaml;
}
