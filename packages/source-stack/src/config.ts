import { hasOwn, isPlainObject, PyDict, PyFloat } from "@merge/core";
import { pyEquals } from "@merge/strategies-stack";
import { stackError } from "./problems.js";
import { NOT_FOUND, traverse } from "./traverse.js";

/** Paths selected by one matcher value: one config path or a list of them. */
export type StackConfigChoice = string | readonly string[];

/**
 * A matcher: the value found at a `:` path of the host's pillar, grains or opts picks config files. Keys of a plain
 * object are strings, so only a string value selects them (a grain `1` does not select `"1"`, as in Salt); use a
 * `PyDict` (what `@merge/yaml` reads with `values: "exact"`) or a `Map` to key by other values (`1`, `true`, `null`).
 */
export type StackMatcher =
  | Readonly<Record<string, StackConfigChoice>>
  | ReadonlyMap<unknown, StackConfigChoice>
  | PyDict<StackConfigChoice>;

/**
 * Where the config files come from, in the three forms of Salt's `ext_pillar: - stack:` setting: one path, a list
 * of paths, or a map of matchers such as `{"pillar:environment": {dev: "dev/stack.cfg"}}`.
 */
export type StackConfig =
  | string
  | readonly string[]
  | Readonly<Record<string, StackMatcher>>
  | ReadonlyMap<string, StackMatcher>
  | PyDict<StackMatcher>;

export interface MatchSources {
  readonly pillar: unknown;
  readonly grains: unknown;
  readonly opts: unknown;
}

const SOURCES = ["pillar", "grains", "opts"] as const;

/** The config file paths for one host, in order (Salt: plain paths first, then each matcher in order). */
export function configPaths(config: StackConfig, sources: MatchSources): string[] {
  if (typeof config === "string") return [config];
  if (Array.isArray(config)) return config.map((path, index) => checkPath(path, `config item ${index + 1}`));
  let entries: [unknown, unknown][];
  if (config instanceof Map || config instanceof PyDict) entries = [...config];
  else if (isPlainObject(config)) entries = Object.entries(config);
  else
    throw stackError("STACK_CONFIG", "the stack config must be a path, a list of paths or a map of matchers");
  const out: string[] = [];
  for (const [matcher, choices] of entries) {
    if (typeof matcher !== "string") {
      throw stackError(
        "STACK_CONFIG",
        `matcher ${JSON.stringify(matcher) ?? String(matcher)} must be a string`,
      );
    }
    const colon = matcher.indexOf(":");
    if (colon < 0) {
      throw stackError(
        "STACK_CONFIG",
        `matcher "${matcher}" needs the form pillar:<path>, grains:<path> or opts:<path>`,
        undefined,
        undefined,
        { matcher },
      );
    }
    const kind = matcher.slice(0, colon);
    if (!(SOURCES as readonly string[]).includes(kind)) {
      throw stackError(
        "STACK_CONFIG",
        `unknown matcher type "${kind}" in "${matcher}"; should be one of pillar, grains, opts`,
        undefined,
        undefined,
        { matcher },
      );
    }
    const found = traverse(sources[kind as (typeof SOURCES)[number]], matcher.slice(colon + 1));
    const choice = select(choices as StackMatcher, found === NOT_FOUND ? null : found, matcher);
    if (choice === undefined) continue;
    const list = Array.isArray(choice) ? choice : [choice];
    list.forEach((path, index) => {
      out.push(checkPath(path, `${matcher} item ${index + 1}`));
    });
  }
  return out;
}

function select(matcher: StackMatcher, value: unknown, name: string): unknown {
  // A whole float of the exact model (`9.0`) is a number, not a container.
  if (typeof value === "object" && value !== null && !(value instanceof PyFloat)) {
    // Salt looks the value up in a dict: a list or mapping is unhashable there and fails the pillar.
    throw stackError(
      "STACK_CONFIG",
      `the value at ${name} is a ${Array.isArray(value) ? "list" : "mapping"} and cannot select a config`,
      undefined,
      undefined,
      { matcher: name },
    );
  }
  // A PyDict looks a value up with Python's key equality (4 == 4.0 == a key read as `4.0`, True == 1).
  if (matcher instanceof PyDict) return matcher.get(value);
  if (matcher instanceof Map) {
    for (const [key, choice] of matcher) {
      if ((typeof key !== "object" || key === null) && pyEquals(key, value)) return choice;
    }
    return undefined;
  }
  if (!isPlainObject(matcher)) {
    throw stackError(
      "STACK_CONFIG",
      `matcher ${name} must map values to config paths`,
      undefined,
      undefined,
      {
        matcher: name,
      },
    );
  }
  return typeof value === "string" && hasOwn(matcher, value) ? matcher[value] : undefined;
}

function checkPath(path: unknown, label: string): string {
  if (typeof path !== "string") {
    throw stackError(
      "STACK_CONFIG",
      `${label} must be a path (a string), got ${JSON.stringify(path) ?? typeof path}`,
    );
  }
  return path;
}
