import { MergeError } from "./errors.js";
import { isPlainObject } from "./kinds.js";

/**
 * One merger of a spec: a name and its options. `optionText` is set when the options were given as one string in
 * the list form (`{name: list, settings: "append"}`): cloud-init then tests options by substring, and so do we.
 */
export interface SpecEntry {
  readonly name: string;
  readonly options: readonly string[];
  readonly optionText?: string;
}

/** A parsed spec: mergers in priority order (the first that handles a kind wins). */
export type ParsedSpec = readonly SpecEntry[];

/** `{name, settings}` as written in YAML bodies. */
export interface SpecListMapping {
  readonly name: unknown;
  readonly settings?: unknown;
}

/** The list forms: `[{name, settings: [...]}, ...]` and `[["list", "append"], ...]`. */
export type SpecList = readonly (SpecListMapping | readonly unknown[] | string)[];

/** Anything that names mergers: a spec string, a list form, or an already parsed spec. */
export type SpecInput = string | SpecList | ParsedSpec;

// A segment after lowercasing: identifier, then options in parentheses that run to the end of the segment.
const SEGMENT = /^([a-zA-Z_][A-Za-z0-9_]*)\((.*?)\)$/;

/**
 * Parses `name(opt,opt)+name2()`: each segment is lowercased, trimmed and has `-` read as `_`; empty segments are
 * skipped; options are trimmed and empty ones dropped. A segment that is not `name(...)` is a `SPEC_SYNTAX` error
 * quoting it with its offset.
 */
export function parseSpec(text: string): ParsedSpec {
  const entries: SpecEntry[] = [];
  let offset = 0;
  for (const raw of text.split("+")) {
    const start = offset;
    offset += raw.length + 1;
    const segment = raw.toLowerCase().trim().replaceAll("-", "_");
    if (segment === "") continue;
    const match = SEGMENT.exec(segment);
    if (match === null) {
      const column = start + (raw.length - raw.trimStart().length);
      throw new MergeError(
        "SPEC_SYNTAX",
        `merger spec segment ${JSON.stringify(raw.trim())} at offset ${column} is not of the form name(option,...)`,
        { source: { offset: column, text }, details: { segment: raw.trim() } },
      );
    }
    const options: string[] = [];
    for (const option of match[2]!.split(",")) {
      const trimmed = option.trim();
      if (trimmed !== "") options.push(trimmed);
    }
    entries.push({ name: match[1]!, options });
  }
  return entries;
}

/**
 * Normalises the list forms found in YAML bodies, as cloud-init reads them:
 * - `{name, settings}`: the name has `-` read as `_` and is trimmed but keeps its case; `settings` is a list of
 *   options, a string (options then match by substring) or a mapping (its keys are the options);
 * - `[name, option, ...]`: taken as written;
 * - entries whose name is empty are skipped.
 */
export function parseSpecList(list: SpecList, label = "merger list"): ParsedSpec {
  if (!Array.isArray(list)) {
    throw new MergeError("SPEC_SYNTAX", `${label} must be a string or a list, got ${describe(list)}`);
  }
  const entries: SpecEntry[] = [];
  list.forEach((item: unknown, index: number) => {
    if (isPlainObject(item)) {
      if (typeof item.name !== "string") {
        throw new MergeError("SPEC_SYNTAX", `${label} item ${index + 1} needs a string "name"`, {
          path: [index, "name"],
        });
      }
      if (!("settings" in item)) {
        throw new MergeError("SPEC_SYNTAX", `${label} item ${index + 1} needs "settings"`, { path: [index] });
      }
      const name = item.name.replaceAll("-", "_").trim();
      if (name === "") return;
      entries.push(entryWithSettings(name, item.settings, label, index));
    } else if (Array.isArray(item)) {
      if (item.length === 0) {
        throw new MergeError("SPEC_SYNTAX", `${label} item ${index + 1} is an empty list`, { path: [index] });
      }
      const name = item[0];
      if (name === null || name === undefined || name === "" || name === false || name === 0) return;
      if (typeof name !== "string") {
        throw new MergeError("SPEC_SYNTAX", `${label} item ${index + 1} must start with a merger name`, {
          path: [index, 0],
        });
      }
      entries.push({ name, options: item.slice(1).map(String) });
    } else if (typeof item === "string") {
      // cloud-init indexes a string item like a tuple: first character as name, the rest as option text.
      if (item === "") {
        throw new MergeError("SPEC_SYNTAX", `${label} item ${index + 1} is an empty string`, {
          path: [index],
        });
      }
      entries.push({ name: item[0]!, options: [], optionText: item.slice(1) });
    } else {
      throw new MergeError(
        "SPEC_SYNTAX",
        `${label} item ${index + 1} must be {name, settings} or [name, option...], got ${describe(item)}`,
        { path: [index] },
      );
    }
  });
  return entries;
}

function entryWithSettings(name: string, settings: unknown, label: string, index: number): SpecEntry {
  if (Array.isArray(settings)) return { name, options: settings.map(String) };
  if (typeof settings === "string") return { name, options: [], optionText: settings };
  if (isPlainObject(settings)) return { name, options: Object.keys(settings) };
  throw new MergeError(
    "SPEC_SYNTAX",
    `${label} item ${index + 1} ("${name}") has settings ${describe(settings)}; expected a list or a string`,
    { path: [index, "settings"] },
  );
}

function isParsedSpec(input: readonly unknown[]): input is ParsedSpec {
  return input.every(
    (item) =>
      isPlainObject(item) &&
      typeof item.name === "string" &&
      Array.isArray(item.options) &&
      !("settings" in item),
  );
}

/** Accepts any spec form and returns the parsed spec. */
export function normalizeSpec(input: SpecInput): ParsedSpec {
  if (typeof input === "string") return parseSpec(input);
  if (Array.isArray(input) && isParsedSpec(input)) return input;
  return parseSpecList(input as SpecList);
}

/** The canonical string of a spec entry: `list(append,recurse_list)`. */
export function formatSpecEntry(entry: SpecEntry): string {
  return `${entry.name}(${entry.optionText ?? entry.options.join(",")})`;
}

/** The canonical string of a parsed spec; `parseSpec(formatSpec(s))` gives `s` back for string-form specs. */
export function formatSpec(spec: ParsedSpec): string {
  return spec.map(formatSpecEntry).join("+");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (isPlainObject(value)) return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}
