import { compareCodePoints, type Dict, hasOwn, isPlainObject, PyFloat, setKey } from "@merge/core";

// Keyword queries are sorted as Salt sorts them (Python `str` order); kept importable from here for the tests.
export { compareCodePoints };
import { mysqlError } from "./errors.js";

/** One query after normalisation: what Salt's `extract_queries` returns as `[root, {...}]`. */
export interface QuerySpec {
  /** The keyword the query was given under (its results go below this key), `undefined` for positional ones. */
  readonly root: string | undefined;
  /** The SQL text as configured (Salt's `%s` placeholders included). */
  readonly query: string;
  /** Requested depth: 0 means "as deep as the columns allow". Checked against the field count when rows arrive. */
  readonly depth: number;
  /**
   * The depth was written as a float (`2.0`, a `PyFloat` of the exact model). Salt takes a float depth only where it
   * replaces it (0, or at least the field count) and fails on any other.
   */
  readonly floatDepth?: boolean;
  /** Collisions become lists instead of overwriting. */
  readonly asList: boolean;
  /** Levels (1-based column numbers) whose keys are dropped and whose values become lists. */
  readonly withLists: readonly number[];
  /** A NULL value does not overwrite an existing one (and creates no key). */
  readonly ignoreNull: boolean;
  /** A one-column query returns JSON objects that are merged into the results (Salt 3005+). */
  readonly asJson: boolean;
}

/** How `- mysql:` entries are read. */
export interface ExtractOptions {
  /**
   * `true` (default): the `mysql_query` keyword runs first and writes at the top level, as Salt's mysql pillar did
   * until its legacy support was removed. `false`: `mysql_query` is an ordinary named query, as in current Salt.
   */
  readonly legacyMysqlQuery?: boolean;
}

/** The positional and keyword arguments Salt passes to `ext_pillar` for one `- mysql:` entry. */
export interface ExtPillarArgs {
  readonly args: readonly unknown[];
  readonly kwargs: Readonly<Dict>;
}

/** The keyword of the pre-2015 configuration, run first and written at the root. */
export const LEGACY_QUERY_KEY = "mysql_query";

/**
 * Keywords Salt cannot pass: `ext_pillar(minion_id, pillar, *args, **kwargs)` already has parameters of these
 * names, so a `- mysql:` mapping with such a key fails in Salt with a `TypeError` before any query runs.
 */
export const RESERVED_QUERY_NAMES: readonly string[] = Object.freeze(["minion_id", "pillar"]);

/** The ext_pillar-level keyword that sets the default `as_json` of every query of the entry. */
const AS_JSON_KEY = "as_json";

/**
 * Splits the value under `- mysql:` the way Salt calls `ext_pillar`: a mapping becomes keyword arguments, a list
 * positional arguments, anything else a single positional argument.
 */
export function splitExtPillarConfig(value: unknown): ExtPillarArgs {
  if (isPlainObject(value)) return { args: [], kwargs: value };
  if (Array.isArray(value)) return { args: value, kwargs: {} };
  return { args: [value], kwargs: {} };
}

/** Python's truth test, which Salt applies to `as_list`, `ignore_null` and `with_lists`. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === "number") return value !== 0; // NaN is true in Python too
  if (typeof value === "bigint") return value !== 0n;
  if (typeof value === "string" || Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/**
 * Parses `with_lists` given as text the way Salt does (`int()` of each comma-separated piece), so `" 1, 2"` works
 * and `"1,"` or `"a"` is an error.
 */
export function parseWithLists(text: string, where = "with_lists"): number[] {
  return text.split(",").map((piece) => {
    if (!PY_INT.test(piece)) {
      throw mysqlError(
        "SQL_CONFIG",
        `${where}: ${JSON.stringify(piece)} in ${JSON.stringify(text)} is not a number`,
      );
    }
    return Number.parseInt(piece.replace(/_/g, "").trim(), 10);
  });
}

/** Keeps the entries of a `with_lists` list that can equal a level number (Python compares with `==`). */
export function levelsOf(list: readonly unknown[]): number[] {
  const out: number[] = [];
  for (const item of list) {
    if (typeof item === "boolean") out.push(item ? 1 : 0);
    else if (typeof item === "number" && Number.isInteger(item)) out.push(item);
    else if (typeof item === "bigint") out.push(Number(item));
    // Strings, floats with a fraction and containers never equal a level in Salt either: ignored.
  }
  return out;
}

function label(root: string | undefined, index: number): string {
  return root === undefined ? `query #${index + 1}` : `query ${JSON.stringify(root)}`;
}

function checkDepth(depth: unknown, where: string): number {
  if (depth instanceof PyFloat) depth = depth.value;
  if (typeof depth === "boolean") return depth ? 1 : 0;
  if (typeof depth === "bigint") depth = Number(depth);
  if (typeof depth !== "number" || Number.isNaN(depth)) {
    throw mysqlError(
      "SQL_CONFIG",
      `${where}: depth must be a number, got ${JSON.stringify(depth) ?? String(depth)}`,
    );
  }
  if (depth < 0) {
    throw mysqlError("SQL_CONFIG", `${where}: depth must not be negative, got ${depth}`);
  }
  return depth;
}

/** Salt's filter: does this entry carry query text? (Some entries it keeps make it crash later; we report those.) */
function hasQuery(entry: unknown, where: string): boolean {
  if (typeof entry === "string") return entry.length > 0;
  if (Array.isArray(entry)) return entry.length > 0 && pyTruthy(entry[0]);
  if (isPlainObject(entry)) {
    if (!hasOwn(entry, "query")) return false;
    const query = entry.query;
    if (typeof query === "string" || Array.isArray(query)) return query.length > 0;
    if (isPlainObject(query)) return Object.keys(query).length > 0;
    // Salt calls len() on it and crashes.
    throw mysqlError(
      "SQL_CONFIG",
      `${where}: query must be text, got ${JSON.stringify(query) ?? String(query)}`,
    );
  }
  return false;
}

function normalise(
  root: string | undefined,
  entry: unknown,
  index: number,
  defaultAsJson: unknown,
): QuerySpec {
  const where = label(root, index);
  let query: unknown;
  let depth: unknown = 0;
  let asList: unknown = false;
  let withLists: unknown = null;
  let ignoreNull: unknown = false;
  let asJson: unknown = defaultAsJson;
  if (typeof entry === "string") {
    query = entry;
  } else if (Array.isArray(entry)) {
    query = entry[0];
    if (entry.length > 1) depth = entry[1];
    // A third item is ignored, as in Salt.
  } else {
    const map = entry as Dict;
    query = map.query;
    if (hasOwn(map, "depth")) depth = map.depth;
    if (hasOwn(map, "as_list")) asList = map.as_list;
    if (hasOwn(map, "with_lists")) withLists = map.with_lists;
    if (hasOwn(map, "ignore_null")) ignoreNull = map.ignore_null;
    if (hasOwn(map, "as_json")) asJson = map.as_json;
  }
  if (typeof query !== "string") {
    throw mysqlError(
      "SQL_CONFIG",
      `${where}: query must be text, got ${JSON.stringify(query) ?? String(query)}`,
    );
  }
  let levels: number[] = [];
  if (pyTruthy(withLists)) {
    if (typeof withLists === "string") levels = parseWithLists(withLists, `${where}: with_lists`);
    else if (Array.isArray(withLists)) levels = levelsOf(withLists);
    else {
      throw mysqlError(
        "SQL_CONFIG",
        `${where}: with_lists must be a list of numbers or text like "1,3", got ${JSON.stringify(withLists)}`,
      );
    }
  }
  return {
    root,
    query,
    depth: checkDepth(depth, where),
    ...(depth instanceof PyFloat ? { floatDepth: true } : {}),
    asList: pyTruthy(asList),
    withLists: levels,
    ignoreNull: pyTruthy(ignoreNull),
    asJson: pyTruthy(asJson),
  };
}

/**
 * The order Salt runs an entry's queries in: the legacy `mysql_query` first (in legacy mode), positional entries in
 * order, then keyword entries sorted by code point. Throws `SQL_RESERVED_NAME` for a keyword Salt cannot pass.
 */
function orderEntries<Root>(
  args: readonly unknown[],
  kwargs: Readonly<Dict>,
  options: ExtractOptions,
  positional: Root,
): [string | Root, unknown][] {
  const keys = Object.keys(kwargs);
  for (const key of keys) {
    if (RESERVED_QUERY_NAMES.includes(key)) {
      throw mysqlError(
        "SQL_RESERVED_NAME",
        `a query may not be named ${JSON.stringify(key)}: Salt's ext_pillar(minion_id, pillar, ...) takes that ` +
          "argument itself and fails with a TypeError; rename the query",
        { details: { root: key } },
      );
    }
  }
  const legacy = options.legacyMysqlQuery ?? true;
  const buffer: [string | Root, unknown][] = [];
  if (legacy && hasOwn(kwargs, LEGACY_QUERY_KEY)) buffer.push([positional, kwargs[LEGACY_QUERY_KEY]]);
  for (const entry of args) buffer.push([positional, entry]);
  const named = (legacy ? keys.filter((key) => key !== LEGACY_QUERY_KEY) : keys).sort(compareCodePoints);
  for (const key of named) buffer.push([key, kwargs[key]]);
  return buffer;
}

/**
 * Normalises one `- mysql:` entry into the queries to run, in Salt's order: the legacy `mysql_query` keyword first
 * (at the root; with `legacyMysqlQuery: false` it is an ordinary keyword), then positional entries in order, then
 * keyword entries sorted by code point. An entry is a string, a list `[query, depth]` or a mapping
 * `{query, depth, as_list, as_json, with_lists, ignore_null}`; an `as_json` keyword of the entry itself is the
 * default of its queries. Entries without query text are dropped. Throws `SQL_CONFIG` where Salt would crash (a
 * negative depth, unparsable `with_lists`, ...) and `SQL_RESERVED_NAME` for a query named `pillar` or `minion_id`.
 */
export function extractQueries(
  args: readonly unknown[] = [],
  kwargs: Readonly<Dict> = {},
  options: ExtractOptions = {},
): QuerySpec[] {
  const buffer = orderEntries(args, kwargs, options, undefined);
  const defaultAsJson = hasOwn(kwargs, AS_JSON_KEY) ? kwargs[AS_JSON_KEY] : false;
  const out: QuerySpec[] = [];
  for (const [root, entry] of buffer) {
    if (!hasQuery(entry, label(root, out.length))) continue;
    out.push(normalise(root, entry, out.length, defaultAsJson));
  }
  return out;
}

/** One query exactly as Salt's `extract_queries` lays it out (`[root, {query, depth, ...}]`, root `null` if positional). */
export type SaltQuery = [root: string | null, details: Dict];

/**
 * Salt's own output of `extract_queries`, value for value: unknown mapping keys are kept, `as_list` and friends are
 * not converted, only a `with_lists` string is split into numbers. For comparing with Salt; `extractQueries` is the
 * validated form the pillar runs.
 */
export function extractSaltQueries(
  args: readonly unknown[] = [],
  kwargs: Readonly<Dict> = {},
  options: ExtractOptions = {},
): SaltQuery[] {
  const buffer = orderEntries(args, kwargs, options, null);
  const defaultAsJson = hasOwn(kwargs, AS_JSON_KEY) ? kwargs[AS_JSON_KEY] : false;
  const out: SaltQuery[] = [];
  for (const [root, entry] of buffer) {
    if (!hasQuery(entry, label(root ?? undefined, out.length))) continue;
    const details: Dict = {
      query: "",
      depth: 0,
      as_list: false,
      as_json: defaultAsJson,
      with_lists: null,
      ignore_null: false,
    };
    if (typeof entry === "string") {
      details.query = entry;
    } else if (Array.isArray(entry)) {
      details.query = entry[0];
      if (entry.length > 1) details.depth = entry[1];
    } else {
      for (const key of Object.keys(entry as Dict)) setKey(details, key, (entry as Dict)[key]);
      if (pyTruthy(details.with_lists) && typeof details.with_lists === "string") {
        details.with_lists = parseWithLists(
          details.with_lists,
          `${label(root ?? undefined, out.length)}: with_lists`,
        );
      }
    }
    out.push([root, details]);
  }
  return out;
}

/** `extractQueries` for the value under `- mysql:` as it appears in the master configuration. */
export function extractQueriesFromConfig(value: unknown, options: ExtractOptions = {}): QuerySpec[] {
  const { args, kwargs } = splitExtPillarConfig(value);
  return extractQueries(args, kwargs, options);
}
