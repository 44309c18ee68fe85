import type { Mapping, ParsedSpec, SpecList } from "@merge/core";
import {
  copyMapping,
  deleteItem,
  getItem,
  hasItem,
  hasOwn,
  isMapping,
  isMergeError,
  MergeError,
  mappingKeys,
  parseSpec,
  parseSpecList,
  toPlain,
} from "@merge/core";

/** Part headers: a plain record or a `Map` (exact-case names), or `[name, value]` pairs in message order. */
export type PartHeaders =
  | Readonly<Record<string, string>>
  | ReadonlyMap<string, string>
  | readonly (readonly [string, string])[];

/** The merger declarations a part makes, and the part with the declaration keys removed. */
export interface PartDeclaration {
  readonly doc: Mapping;
  /** Mergers named in the body (`merge_how`, or `merge_type`); empty when none. */
  readonly body: ParsedSpec;
  /** Mergers named in the `Merge-Type` (or `X-Merge-Type`) header; empty when none. */
  readonly header: ParsedSpec;
  /** Body then header mergers, or undefined when the part declares none (the caller's default applies). */
  readonly spec: ParsedSpec | undefined;
}

/**
 * The header value cloud-init reads: `Merge-Type`, or `X-Merge-Type` when the first is missing or empty. Names are
 * matched exactly as written, because cloud-init looks them up in `dict(part)`. For pairs, that dict maps each name
 * as written to the value of the *first* header of that name in any case, which is what Python's message lookup
 * returns.
 */
export function mergeTypeHeader(headers: PartHeaders | undefined): string {
  if (headers === undefined) return "";
  for (const name of ["Merge-Type", "X-Merge-Type"]) {
    const value = headerValue(headers, name);
    if (value !== undefined && value !== "") return value;
  }
  return "";
}

function headerValue(headers: PartHeaders, name: string): string | undefined {
  if (headers instanceof Map) return headers.get(name);
  if (!Array.isArray(headers)) {
    const record = headers as Readonly<Record<string, string>>;
    return hasOwn(record, name) ? record[name] : undefined;
  }
  const pairs = headers as readonly (readonly [string, string])[];
  if (!pairs.some(([key]) => key === name)) return undefined;
  const lower = name.toLowerCase();
  return pairs.find(([key]) => key.toLowerCase() === lower)?.[1];
}

/**
 * Takes the declaration out of a part as cloud-init's `dict_extract_mergers` does: `merge_how` is removed; only when
 * it is missing or null is `merge_type` removed and used. A string is the `name(opts)+...` form; a list holds
 * `{name, settings}` mappings or `[name, option...]` lists; a mapping is iterated by its keys, as Python does.
 * The part itself is not changed: the result holds a shallow copy without the keys.
 */
export function extractDeclaration(part: Mapping, headers?: PartHeaders): PartDeclaration {
  let raw: unknown = null;
  let doc = part;
  if (hasItem(part, "merge_how")) {
    doc = without(doc, "merge_how");
    raw = getItem(part, "merge_how");
  }
  if ((raw === null || raw === undefined) && hasItem(part, "merge_type")) {
    doc = without(doc, "merge_type");
    raw = getItem(part, "merge_type");
  }
  const body = parseDeclared(raw);
  const header = parseHeaderSpec(mergeTypeHeader(headers));
  const all = body.length === 0 ? header : header.length === 0 ? body : [...body, ...header];
  return { doc, body, header, spec: all.length === 0 ? undefined : all };
}

function without(doc: Mapping, key: string): Mapping {
  const copy = copyMapping(doc);
  deleteItem(copy, key);
  return copy;
}

function parseDeclared(raw: unknown): ParsedSpec {
  if (raw === null || raw === undefined) return [];
  if (typeof raw === "string") return parseSpec(raw);
  // The list form's `{name, settings}` items are read by name, which a plain object gives as well as a `PyDict`.
  if (Array.isArray(raw)) return parseSpecList(toPlain(raw) as SpecList, "merge_how");
  // Python iterates a mapping by its keys; each key is then read like a string item.
  if (isMapping(raw)) return parseSpecList(mappingKeys(raw) as SpecList, "merge_how");
  throw new MergeError(
    "SPEC_SYNTAX",
    `merge_how must be a string, a list or a mapping, got ${typeof raw === "boolean" ? "a boolean" : typeof raw}`,
    { path: ["merge_how"] },
  );
}

function parseHeaderSpec(value: string): ParsedSpec {
  if (value === "") return [];
  try {
    return parseSpec(value);
  } catch (error) {
    if (isMergeError(error)) {
      throw new MergeError(error.code, `Merge-Type header: ${error.message}`, {
        source: error.source,
        details: error.details,
        cause: error,
      });
    }
    throw error;
  }
}
