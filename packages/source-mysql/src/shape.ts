import { type Dict, setKey } from "@merge/core";
import { mysqlError, type QueryLabel } from "./errors.js";
import { keyOf } from "./keys.js";
import { levelsOf, parseWithLists, pyTruthy } from "./queries.js";

/** One result row: the column values in field order. */
export type Row = readonly unknown[];

/** How one query's rows are shaped: Salt's mapping options, in camelCase or in Salt's own spelling. */
export interface ShapeOptions {
  /** Key columns: 0 (default) or ≥ field count means field count − 1. */
  readonly depth?: number;
  /** Turn collisions into lists instead of overwriting. */
  readonly asList?: boolean;
  /** 1-based levels whose keys are dropped and whose values become lists (`[1, 3]` or `"1,3"`). */
  readonly withLists?: readonly number[] | string;
  /** A NULL value does not overwrite (and creates no key); it is still appended in list mode. */
  readonly ignoreNull?: boolean;
  /** Salt's spelling of `asList`. */
  readonly as_list?: boolean;
  /** Salt's spelling of `withLists`. */
  readonly with_lists?: readonly number[] | string;
  /** Salt's spelling of `ignoreNull`. */
  readonly ignore_null?: boolean;
  /** Names the query in error messages. */
  readonly query?: QueryLabel;
}

/** Receives the rows of one query, one at a time (so a streamed result is never held whole). */
export interface RowSink {
  push(row: Row): void;
  /** Applies `with_lists` (it needs all rows of the query) and finishes the query. */
  end(): void;
}

/**
 * Accumulates the results of several queries into one nested mapping, the way Salt's merger object does across
 * the queries of one `ext_pillar` call.
 */
export interface Shaper {
  /** Where the next query writes: a non-empty name replaces that top-level key with a fresh mapping. */
  enterRoot(root: string | undefined): void;
  /** Starts one query's rows. */
  begin(fieldNames: readonly string[], options?: ShapeOptions): RowSink;
  /** The data so far, as fresh plain objects and arrays. */
  result(): Dict;
}

// Internally a mapping is a Map: it keeps insertion order for every key (plain objects put integer-like keys
// first, which would reorder the lists `with_lists` builds from a mapping's values) and is immune to the
// object-shape slowdowns measured in PERFORMANCE.md. Arrays in the tree are always lists this shaper made.
type Node = Map<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the value ${keyOf(value)}`;
}

function prefix(query: QueryLabel | undefined): string {
  if (query === undefined) return "";
  return query.root === undefined ? `query #${query.index + 1}: ` : `query ${JSON.stringify(query.root)}: `;
}

/** Row values are stored as given, except that `undefined` means NULL and an array is copied (we append to lists). */
function own(value: unknown): unknown {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.slice() : value;
}

function levelsOption(value: unknown, query: QueryLabel | undefined): number[] {
  if (!pyTruthy(value)) return [];
  if (typeof value === "string") return parseWithLists(value, `${prefix(query)}with_lists`);
  if (Array.isArray(value)) return levelsOf(value);
  throw mysqlError("SQL_CONFIG", `${prefix(query)}with_lists must be a list of numbers or text like "1,3"`, {
    query,
  });
}

/** The effective depth, as Salt's `process_fields` constrains it. */
export function effectiveDepth(requested: number, fieldCount: number, query?: QueryLabel): number {
  if (requested === 0 || requested >= fieldCount) return fieldCount - 1;
  if (!Number.isInteger(requested) || requested < 0) {
    throw mysqlError(
      "SQL_CONFIG",
      `${prefix(query)}depth ${requested} is not a whole number between 0 and ${fieldCount - 1}`,
      { query },
    );
  }
  return requested;
}

export function createShaper(): Shaper {
  const result: Node = new Map();
  let focus: Node = result;

  return {
    enterRoot(root) {
      if (root === undefined || root === "") {
        focus = result;
      } else {
        focus = new Map();
        result.set(root, focus);
      }
    },
    begin(fieldNames, options = {}) {
      return beginQuery(focus, fieldNames, options);
    },
    result() {
      return toPlain(result);
    },
  };
}

function beginQuery(focus: Node, fieldNames: readonly string[], options: ShapeOptions): RowSink {
  const query = options.query;
  const n = fieldNames.length;
  if (n === 0) throw mysqlError("SQL_SHAPE", `${prefix(query)}the query returned no columns`, { query });
  const requested = typeof options.depth === "boolean" ? Number(options.depth) : (options.depth ?? 0);
  if (typeof requested !== "number" || Number.isNaN(requested)) {
    throw mysqlError("SQL_CONFIG", `${prefix(query)}depth must be a number`, { query });
  }
  const depth = effectiveDepth(requested, n, query);
  const asList = pyTruthy(options.asList ?? options.as_list);
  const ignoreNull = pyTruthy(options.ignoreNull ?? options.ignore_null);
  const names = fieldNames.slice();
  // marks[level] for levels 0..n: a Set lookup per level and row would do, an array index is cheaper.
  const marks = new Uint8Array(n + 1);
  for (const level of levelsOption(options.withLists ?? options.with_lists, query)) {
    if (Number.isInteger(level) && level >= 0 && level <= n) marks[level] = 1;
  }
  // Mappings whose listed keys become lists at the end, in first-seen order. Salt scans a Python list per row
  // here (quadratic on many distinct keys); a Set per mapping keeps it linear.
  const listify = new Map<Node, Set<string>>();
  const record = (node: Node, key: string) => {
    let keys = listify.get(node);
    if (keys === undefined) {
      keys = new Set();
      listify.set(node, keys);
    }
    keys.add(key);
  };
  const fullDepth = depth === n - 1;
  // With one column Salt's "penultimate" index is -1, which Python reads as the last (only) column.
  const keyColumn = fullDepth ? (n >= 2 ? n - 2 : n - 1) : depth - 1;
  let rowNumber = 0;

  const crash = (row: Row, why: string): never => {
    const keys = row.slice(0, depth).map(keyOf).join(" → ");
    throw mysqlError("SQL_SHAPE", `${prefix(query)}row ${rowNumber} (${keys}): ${why}`, { query });
  };

  // Salt descends into a value that is not a mapping and fails there, unless nothing gets written to it.
  const writeIntoNonMapping = (target: unknown, row: Row) => {
    for (let i = depth; i < n; i++) {
      const name = names[i]!;
      if (marks[i + 1] === 1) crash(row, `cannot make a list of field ${name} inside ${describe(target)}`);
      if (asList) {
        let contains: boolean;
        if (typeof target === "string") contains = target.includes(name);
        else if (Array.isArray(target)) contains = target.some((item) => item === name);
        else
          contains = crash(row, `an earlier query left ${describe(target)} where these rows need a mapping`);
        if (contains) crash(row, `an earlier query left ${describe(target)} where these rows need a mapping`);
      }
      const value = row[i];
      if (!ignoreNull || (value !== null && value !== undefined)) {
        crash(row, `an earlier query left ${describe(target)} where these rows need a mapping`);
      }
    }
  };

  return {
    push(row) {
      rowNumber++;
      if (row.length < n) crash(row, `has ${row.length} values for ${n} fields`);
      let crd = focus;
      // Walk (and create) the mappings above the last key level.
      for (let i = 0; i < depth - 1; i++) {
        const key = keyOf(row[i]);
        if (marks[i + 1] === 1) record(crd, key);
        const existing = crd.get(key);
        if (existing instanceof Map) {
          crd = existing as Node;
        } else {
          const next: Node = new Map();
          if (existing === undefined) crd.set(key, next);
          else if (Array.isArray(existing)) existing.push(next);
          else if (asList) crd.set(key, [existing, next]);
          else crd.set(key, next);
          crd = next;
        }
      }

      if (fullDepth) {
        // The penultimate column is the key of the last one.
        const key = keyOf(row[keyColumn]);
        const value = own(row[n - 1]);
        const present = crd.has(key);
        if ((asList && present) || marks[n - 1] === 1) {
          if (present) {
            const current = crd.get(key);
            if (Array.isArray(current)) current.push(value);
            else crd.set(key, [current, value]);
          } else {
            crd.set(key, [value]);
          }
        } else if (!ignoreNull || value !== null) {
          crd.set(key, value);
        }
        return;
      }

      // Otherwise the key column holds a mapping of the remaining columns by field name.
      const key = keyOf(row[keyColumn]);
      let target = crd.get(key);
      if (target === undefined) {
        target = new Map();
        crd.set(key, target);
      }
      if (marks[depth] === 1) record(crd, key);
      if (!(target instanceof Map)) {
        writeIntoNonMapping(target, row);
        return;
      }
      const node = target as Node;
      for (let i = depth; i < n; i++) {
        const name = names[i]!;
        const value = own(row[i]);
        if (marks[i + 1] === 1) record(node, name);
        if (asList && node.has(name)) {
          const current = node.get(name);
          if (Array.isArray(current)) current.push(value);
          else node.set(name, [current, value]);
        } else if (!ignoreNull || value !== null) {
          node.set(name, value);
        }
      }
    },
    end() {
      // Inner mappings were registered after their parents: go backwards, as Salt does.
      const nodes = [...listify.keys()].reverse();
      for (const node of nodes) {
        for (const key of listify.get(node)!) {
          if (!node.has(key)) {
            throw mysqlError(
              "SQL_SHAPE",
              `${prefix(query)}with_lists marks field ${JSON.stringify(key)}, but ignore_null left it unset`,
              { query },
            );
          }
          const value = node.get(key);
          if (value instanceof Map) node.set(key, [...(value as Node).values()]);
          else if (Array.isArray(value)) node.set(key, [value]);
        }
      }
      listify.clear();
    },
  };
}

/** Converts the internal tree into plain objects (written with `setKey`, so a `__proto__` key stays data). */
function toPlain(node: Node): Dict {
  const out: Dict = {};
  for (const [key, value] of node) setKey(out, key, plainValue(value));
  return out;
}

function plainValue(value: unknown): unknown {
  if (value instanceof Map) return toPlain(value as Node);
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

/**
 * Shapes the rows of one query into nested data, exactly as Salt's SQL ext_pillar does: the first `depth` columns
 * are nested keys, the rest a mapping by field name (or, at full depth, the penultimate column is the key of the
 * last). Pure: no database involved, inputs untouched.
 */
export function shapeRows(
  fieldNames: readonly string[],
  rows: Iterable<Row>,
  options: ShapeOptions = {},
): Dict {
  const shaper = createShaper();
  const sink = shaper.begin(fieldNames, options);
  for (const row of rows) sink.push(row);
  sink.end();
  return shaper.result();
}
