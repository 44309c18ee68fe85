// What can be checked about a plugin without merging anything: its registration, option names and descriptions, and
// the handlers `create` returns against the kinds it declares.
import {
  createRegistry,
  isMergeError,
  type MergeHandlers,
  type MergerPlugin,
  VALUE_KINDS,
  type ValueKind,
} from "@merge/core";

function oneLine(text: unknown): boolean {
  return typeof text === "string" && text.trim() !== "" && !/[\r\n]/.test(text);
}

/** How a spec string would spell an option (`parseSpec` lowercases, trims and reads `-` as `_`). */
function spelled(option: string): string {
  return option.toLowerCase().trim().replaceAll("-", "_");
}

/** Problems with the plugin object itself; empty when it is well formed. */
export function shapeProblems(plugin: MergerPlugin): string[] {
  try {
    createRegistry([plugin]);
  } catch (error) {
    return [isMergeError(error) ? error.message : `it cannot be registered: ${String(error)}`];
  }
  const problems: string[] = [];
  for (const [option, description] of Object.entries(plugin.options)) {
    if (!oneLine(description)) {
      problems.push(
        `option "${option}" needs a one-line description (shown by \`merge mergers\` and in errors)`,
      );
    }
    if (option === "" || spelled(option) !== option || /[,()+]/.test(option)) {
      problems.push(
        `option "${option}" cannot be written in a spec string (specs are lowercased, trimmed, read - as _ and ` +
          "split at , ( ) +)",
      );
    }
  }
  if (plugin.freeOptions !== undefined && !oneLine(plugin.freeOptions)) {
    problems.push("freeOptions must be a one-line description of what a free option means");
  }
  if (plugin.description !== undefined && !oneLine(plugin.description)) {
    problems.push("description must be one line");
  }
  const seen = new Set<ValueKind>();
  for (const kind of plugin.kinds) {
    if (seen.has(kind)) problems.push(`kind "${kind}" is listed twice`);
    seen.add(kind);
  }
  return problems;
}

/** Problems with the handlers `create` returned; empty when they match the declared kinds. */
export function handlerProblems(plugin: MergerPlugin, handlers: MergeHandlers): string[] {
  const problems: string[] = [];
  if (typeof handlers !== "object" || handlers === null)
    return ["create() must return an object of handlers"];
  const declared = new Set<string>(plugin.kinds);
  for (const kind of plugin.kinds) {
    if (typeof handlers[kind] !== "function")
      problems.push(`kind "${kind}" is declared but create() returned no handler for it`);
  }
  for (const key of Object.keys(handlers)) {
    if (key === "inPlace") continue;
    if (!(VALUE_KINDS as readonly string[]).includes(key)) {
      problems.push(`create() returned "${key}", which is not a kind (kinds: ${VALUE_KINDS.join(", ")})`);
    } else if (!declared.has(key) && handlers[key as ValueKind] !== undefined) {
      problems.push(
        `create() returned a "${key}" handler, but "${key}" is not in kinds, so it is never called`,
      );
    }
  }
  const inPlace = handlers.inPlace;
  if (inPlace !== undefined) {
    if (typeof inPlace !== "object" || inPlace === null) return [...problems, "inPlace must be an object"];
    for (const [key, handler] of Object.entries(inPlace)) {
      if (key !== "dict" && key !== "list") {
        problems.push(`inPlace.${key} is never called: only dict and list have in-place handlers`);
      } else if (typeof handler !== "function") {
        problems.push(`inPlace.${key} must be a function`);
      } else if (!declared.has(key)) {
        problems.push(`inPlace.${key} is never called: "${key}" is not in kinds`);
      }
    }
  }
  return problems;
}
