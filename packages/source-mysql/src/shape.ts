import {
  checkTree,
  cloneTree,
  DEFAULT_MAX_DEPTH,
  getItem,
  isMapping,
  isMergeError,
  keyIdentity,
  type Mapping,
  type MappingKey,
  mappingKeys,
  PyDict,
  PyFloat,
  pyFloatRepr,
  toExact,
} from "@merge/core";
import { mysqlError, type QueryLabel } from "./errors.js";
import { parseJsonValue } from "./json-value.js";
import { DecimalKey, keyOf } from "./keys.js";
import { pyListUnion } from "./py-equal.js";
import { PlaceTracker, type ValuePlace } from "./places.js";
import { levelsOf, parseWithLists, pyTruthy } from "./queries.js";

/** One result row: the column values in field order. */
export type Row = readonly unknown[];

/** How one query's rows are shaped: Salt's mapping options, in camelCase or in Salt's own spelling. */
export interface ShapeOptions {
  /**
   * Key columns: 0 (default) or ≥ field count means field count − 1. A `PyFloat` (a depth written `2.0`) is taken
   * only where Salt replaces it (0, or at least the field count); any other float depth fails as it does in Salt.
   */
  readonly depth?: number | PyFloat;
  /** Turn collisions into lists instead of overwriting. */
  readonly asList?: boolean;
  /** 1-based levels whose keys are dropped and whose values become lists (`[1, 3]` or `"1,3"`). */
  readonly withLists?: readonly number[] | string;
  /** A NULL value does not overwrite (and creates no key); it is still appended in list mode. */
  readonly ignoreNull?: boolean;
  /**
   * A query of one column returns JSON objects (text, UTF-8 bytes or already decoded mappings) that are merged
   * into the results recursively, lists included when `asList` is set (Salt 3005+). Ignored for other widths.
   */
  readonly asJson?: boolean;
  /** Salt's spelling of `asJson`. */
  readonly as_json?: boolean;
  /** Salt's spelling of `asList`. */
  readonly as_list?: boolean;
  /** Salt's spelling of `withLists`. */
  readonly with_lists?: readonly number[] | string;
  /** Salt's spelling of `ignoreNull`. */
  readonly ignore_null?: boolean;
  /** Names the query in error messages. */
  readonly query?: QueryLabel;
  /**
   * Which columns (by index) are MySQL DECIMALs given as their text: as keys they are `DecimalKey`s, equal to the
   * int or float of the same value, as Python's `Decimal` keys are. Their values stay text.
   */
  readonly decimalColumns?: readonly boolean[];
  /**
   * Called for every value a row writes: where, what, and which row (for an `as_json` query, every value of the
   * row's JSON object that was written into the result, one per scalar, empty mapping or empty list). For provenance
   * (`--explain`, with `Shaper.places`); shaping is the same with or without it.
   */
  readonly onValue?: (write: ShapedValue) => void;
}

/** One value a row wrote while shaping. */
export interface ShapedValue {
  /**
   * The keys from the query's mapping (its root's, for a named query) down to the value, as the row gave them (for
   * `as_json`, the keys in the JSON object, list indexes included). Where the value ends up after `with_lists`
   * made lists of levels is `Shaper.places`'s answer.
   */
  readonly path: readonly MappingKey[];
  readonly value: unknown;
  /** True when the value was added to a list there (`as_list`, `with_lists` on the last level). */
  readonly appended: boolean;
  /** 1-based row number within the query's result. */
  readonly row: number;
  /** The key columns of the row, in order, with the values that chose the value's place (none for `as_json`). */
  readonly keys: readonly { readonly column: string; readonly value: unknown }[];
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
  enterRoot(root: MappingKey | undefined): void;
  /** The mapping the next query writes into (Salt's `focus`): the result itself, or the root's fresh mapping. */
  focus(): PyDict;
  /** Starts one query's rows. */
  begin(fieldNames: readonly string[], options?: ShapeOptions): RowSink;
  /**
   * The data so far, in the exact model (`PyDict`s, typed keys; `toPlain` gives plain objects), shared with the
   * shaper (later queries keep writing into it).
   */
  result(): PyDict;
  /**
   * Where each value given to an `onValue` callback is in `result()` now, one per value in the order given, from its top, list indexes included (after
   * `with_lists` made lists of levels, `as_list` put it into a list, a later query moved it): the value's own place,
   * or for a value a later row or query overwrote, the place it lost at (and, when it was inside a mapping or list
   * replaced whole, where that was: `within`). Undefined when nothing says where it was.
   */
  places(): (ValuePlace | undefined)[];
}

// Mappings are `PyDict`s built in place, as Salt builds dicts: keys are the column values themselves (an int key
// stays an int), every key keeps its insertion order (which `with_lists` relies on), and no name is special.
type Node = PyDict;

class Tree {
  /** Mappings that arrived as row values (a driver that decodes JSON columns): data, never descended into. */
  private foreign: WeakSet<object> | undefined;

  create(): Node {
    return new PyDict();
  }

  isNode(value: unknown): value is Node {
    return value instanceof PyDict && (this.foreign === undefined || !this.foreign.has(value));
  }

  /** The value at a key, or undefined (stored values are never undefined). */
  get(node: Node, key: MappingKey): unknown {
    return node.get(key);
  }

  /** Writes a key that is not there yet. */
  add(node: Node, key: MappingKey, value: unknown): void {
    node.set(key, value);
  }

  /** Writes a key that is already there (its position does not change). */
  replace(node: Node, key: MappingKey, value: unknown): void {
    node.set(key, value);
  }

  /** The values in insertion order. */
  values(node: Node): unknown[] {
    return [...node.values()];
  }

  /** Stores a row value: `undefined` means NULL, arrays are copied (lists get appended to), mappings stay data. */
  own(value: unknown): unknown {
    if (value === undefined) return null;
    if (Array.isArray(value)) return value.slice();
    if (isMapping(value)) {
      const exact = toExact(value) as PyDict;
      this.foreign ??= new WeakSet();
      this.foreign.add(exact);
      return exact;
    }
    return value;
  }
}

function describe(value: unknown): string {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the value ${String(keyOf(value))}`;
}

function prefix(query: QueryLabel | undefined): string {
  if (query === undefined) return "";
  return query.root === undefined ? `query #${query.index + 1}: ` : `query ${JSON.stringify(query.root)}: `;
}

function levelsOption(value: unknown, query: QueryLabel | undefined): number[] {
  if (!pyTruthy(value)) return [];
  if (typeof value === "string") return parseWithLists(value, `${prefix(query)}with_lists`);
  if (Array.isArray(value)) return levelsOf(value);
  throw mysqlError("SQL_CONFIG", `${prefix(query)}with_lists must be a list of numbers or text like "1,3"`, {
    query,
  });
}

/**
 * The effective depth, as Salt's `process_fields` constrains it. `float`: the depth was written as a float, which
 * Salt keeps where it does not replace it and then fails on (Python's `range` takes no float).
 */
export function effectiveDepth(
  requested: number,
  fieldCount: number,
  query?: QueryLabel,
  float = false,
): number {
  if (requested === 0 || requested >= fieldCount) return fieldCount - 1;
  if (float && requested > 0) {
    throw mysqlError(
      "SQL_CONFIG",
      `${prefix(query)}depth ${pyFloatRepr(requested)} is a float, which Salt's MySQL pillar cannot use below the field count (${fieldCount}): it fails with "'float' object cannot be interpreted as an integer"; write ${requested}`,
      { query },
    );
  }
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
  const tree = new Tree();
  const result: Node = tree.create();
  let focus: Node = result;
  let root: MappingKey | undefined;
  // Only when some query reports its values: shaping without provenance tracks nothing.
  let tracker: PlaceTracker | undefined;

  return {
    enterRoot(name) {
      if (name === undefined || name === "" || name === null) {
        focus = result;
      } else {
        focus = tree.create();
        root = name;
        if (tree.get(result, name) === undefined) tree.add(result, name, focus);
        else tree.replace(result, name, focus);
      }
    },
    focus() {
      return focus;
    },
    begin(fieldNames, options = {}) {
      if (options.onValue !== undefined) tracker ??= new PlaceTracker();
      if (tracker !== undefined && focus !== result) tracker.placed(focus, { container: result, key: root! });
      return beginQuery(tree, focus, focus === result ? 1 : 2, fieldNames, options, tracker);
    },
    result() {
      return result;
    },
    places() {
      return tracker === undefined ? [] : tracker.paths(result);
    },
  };
}

/**
 * @param level how deep `focus` is in the result (1 at the top, 2 under a named root), for the depth limit.
 */
function beginQuery(
  tree: Tree,
  focus: Node,
  level: number,
  fieldNames: readonly string[],
  options: ShapeOptions,
  tracker: PlaceTracker | undefined,
): RowSink {
  const query = options.query;
  const n = fieldNames.length;
  if (n === 0) throw mysqlError("SQL_SHAPE", `${prefix(query)}the query returned no columns`, { query });
  const asList = pyTruthy(options.asList ?? options.as_list);
  const onValue = options.onValue;
  const track = onValue === undefined ? undefined : tracker;
  if (n === 1 && pyTruthy(options.asJson ?? options.as_json)) {
    return jsonSink(tree, focus, asList, query, onValue, track);
  }
  const floatDepth = options.depth instanceof PyFloat;
  const given = options.depth instanceof PyFloat ? options.depth.value : options.depth;
  const requested = typeof given === "boolean" ? Number(given) : (given ?? 0);
  if (typeof requested !== "number" || Number.isNaN(requested)) {
    throw mysqlError("SQL_CONFIG", `${prefix(query)}depth must be a number`, { query });
  }
  const depth = effectiveDepth(requested, n, query, floatDepth);
  const ignoreNull = pyTruthy(options.ignoreNull ?? options.ignore_null);
  const names = fieldNames.slice();
  const decimals = options.decimalColumns;
  const keyAt = (row: Row, index: number): MappingKey => {
    const value = row[index];
    return decimals?.[index] === true && typeof value === "string" ? new DecimalKey(value) : keyOf(value);
  };
  // marks[level] for levels 0..n: a Set lookup per level and row would do, an array index is cheaper.
  const marks = new Uint8Array(n + 1);
  for (const level of levelsOption(options.withLists ?? options.with_lists, query)) {
    if (Number.isInteger(level) && level >= 0 && level <= n) marks[level] = 1;
  }
  // Mappings whose listed keys become lists at the end, in first-seen order. Salt scans a Python list per row
  // here (quadratic on many distinct keys); a Set per mapping keeps it linear. A mapping created by this query at a
  // marked key level gets every one of its keys listed, so it is registered as `null` ("all keys") when created,
  // at the point Salt would register it, and needs no Set at all.
  // Each mapping's listed keys are kept by their Python identity (`keyIdentity`), as Salt's `not in` compares with
  // `==`: every row brings a new Buffer for the same bytes, and 1 and 1.0 are one key.
  const listify = new Map<Node, Map<unknown, MappingKey> | null>();
  // Consecutive rows usually pass through the same mapping at a level (always at the first): remember the last one
  // per level and skip the lookup.
  const lastNode: (Node | undefined)[] = new Array(n + 1);
  const lastKeys: (Map<unknown, MappingKey> | null | undefined)[] = new Array(n + 1);
  const record = (level: number, node: Node, key: MappingKey) => {
    let keys = lastNode[level] === node ? lastKeys[level] : listify.get(node);
    if (keys === undefined) {
      keys = new Map();
      listify.set(node, keys);
    }
    lastNode[level] = node;
    lastKeys[level] = keys;
    if (keys === null) return;
    const identity = keyIdentity(key);
    if (!keys.has(identity)) keys.set(identity, key);
  };
  const fullDepth = depth === n - 1;
  // freshMarked[i]: a mapping the walk creates at step i will be registered at the next key level.
  const freshMarked = new Uint8Array(Math.max(depth, 1));
  for (let i = 0; i + 2 <= depth; i++) {
    if (i + 2 <= depth - 1 ? marks[i + 2] === 1 : !fullDepth && marks[depth] === 1) freshMarked[i] = 1;
  }
  // With one column Salt's "penultimate" index is -1, which Python reads as the last (only) column.
  const keyColumn = fullDepth ? (n >= 2 ? n - 2 : n - 1) : depth - 1;
  let rowNumber = 0;
  // The key columns: every column but the value at full depth (the one column of a one-column query), else the
  // first `depth`.
  const keyCount = fullDepth ? Math.max(n - 1, 1) : depth;
  const written = (row: Row, field: string | undefined, value: unknown, appended: boolean): ShapedValue => {
    const path: MappingKey[] = [];
    const keys: { column: string; value: unknown }[] = [];
    for (let i = 0; i < keyCount; i++) {
      path.push(keyAt(row, i));
      keys.push({ column: names[i]!, value: row[i] ?? null });
    }
    if (field !== undefined) path.push(field);
    return { path, value, appended, row: rowNumber, keys };
  };
  const report = (write: ShapedValue, container: object, key: MappingKey) => {
    track?.wrote(container, key);
    onValue!(write);
  };
  // Each row nests one mapping per key level (one more for the mapping of the remaining fields): past the engine's
  // limit nothing could print or merge the result, so the first row is refused, as a coded error.
  const nesting = level + (fullDepth ? depth : depth + 1);

  const crash = (row: Row, why: string): never => {
    const keys = row
      .slice(0, depth)
      .map((value) => String(keyOf(value)))
      .join(" → ");
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
      if (rowNumber === 1 && nesting > DEFAULT_MAX_DEPTH) {
        throw mysqlError(
          "DEPTH_LIMIT",
          `${prefix(query)}${n} columns at depth ${depth} nest ${nesting} levels deep, past the limit of ${DEFAULT_MAX_DEPTH}`,
          { query, details: { maxDepth: DEFAULT_MAX_DEPTH } },
        );
      }
      if (row.length < n) crash(row, `has ${row.length} values for ${n} fields`);
      let crd = focus;
      // Walk (and create) the mappings above the last key level.
      for (let i = 0; i < depth - 1; i++) {
        const key = keyAt(row, i);
        if (marks[i + 1] === 1) record(i + 1, crd, key);
        const existing = tree.get(crd, key);
        if (tree.isNode(existing)) {
          crd = existing;
        } else {
          const next = tree.create();
          if (existing === undefined) {
            tree.add(crd, key, next);
            track?.placed(next, { container: crd, key });
          } else if (Array.isArray(existing)) {
            existing.push(next);
            track?.placed(next, { container: existing, key: existing.length - 1 });
          } else if (asList) {
            const list = [existing, next];
            tree.replace(crd, key, list);
            if (track !== undefined) alone(track, crd, key, list, next);
          } else {
            tree.replace(crd, key, next);
            track?.placed(next, { container: crd, key });
          }
          if (freshMarked[i] === 1) listify.set(next, null);
          crd = next;
        }
      }

      if (fullDepth) {
        // The penultimate column is the key of the last one.
        const key = keyAt(row, keyColumn);
        const value = tree.own(row[n - 1]);
        const current = tree.get(crd, key);
        const present = current !== undefined;
        if ((asList && present) || marks[n - 1] === 1) {
          const list = appendAt(tree, crd, key, current, value, track);
          if (onValue !== undefined) report(written(row, undefined, value, true), list, list.length - 1);
        } else if (!ignoreNull || value !== null) {
          if (present) tree.replace(crd, key, value);
          else tree.add(crd, key, value);
          if (onValue !== undefined) report(written(row, undefined, value, false), crd, key);
        }
        return;
      }

      // Otherwise the key column holds a mapping of the remaining columns by field name.
      const key = keyAt(row, keyColumn);
      let target = tree.get(crd, key);
      if (target === undefined) {
        target = tree.create();
        tree.add(crd, key, target);
        track?.placed(target as object, { container: crd, key });
      }
      if (marks[depth] === 1) record(depth, crd, key);
      if (!tree.isNode(target)) {
        writeIntoNonMapping(target, row);
        return;
      }
      const node = target;
      for (let i = depth; i < n; i++) {
        const name = names[i]!;
        const value = tree.own(row[i]);
        if (marks[i + 1] === 1) record(i + 1, node, name);
        const current = tree.get(node, name);
        if (asList && current !== undefined) {
          const list = appendAt(tree, node, name, current, value, track);
          if (onValue !== undefined) report(written(row, name, value, true), list, list.length - 1);
        } else if (!ignoreNull || value !== null) {
          if (current === undefined) tree.add(node, name, value);
          else tree.replace(node, name, value);
          if (onValue !== undefined) report(written(row, name, value, false), node, name);
        }
      }
    },
    end() {
      // Inner mappings were registered after their parents: go backwards, as Salt does.
      const nodes = [...listify.keys()].reverse();
      for (const node of nodes) {
        const marked = listify.get(node);
        for (const key of marked === null || marked === undefined ? node.keyList() : marked.values()) {
          const value = tree.get(node, key as MappingKey);
          if (value === undefined) {
            throw mysqlError(
              "SQL_SHAPE",
              `${prefix(query)}with_lists marks field ${JSON.stringify(String(key))}, but ignore_null left it unset`,
              { query },
            );
          }
          if (tree.isNode(value)) {
            const list = tree.values(value);
            tree.replace(node, key as MappingKey, list);
            if (track !== undefined) {
              track.listedAs(value, list, value.keyList());
              track.placed(list, { container: node, key: key as MappingKey });
            }
          } else if (Array.isArray(value)) {
            const list = [value];
            tree.replace(node, key as MappingKey, list);
            if (track !== undefined) {
              track.moved({ container: node, key: key as MappingKey }, { container: list, key: 0 });
              track.placed(list, { container: node, key: key as MappingKey });
            }
          }
        }
      }
      listify.clear();
      lastNode.fill(undefined);
      lastKeys.fill(undefined);
    },
  };
}

/**
 * Adds `value` to the list at `key` of `node` (`as_list` on a repeated key, `with_lists` on the last level): a new
 * list for the first value, the list there, or a new list of the value that was alone there and this one. Returns
 * the list.
 */
function appendAt(
  tree: Tree,
  node: Node,
  key: MappingKey,
  current: unknown,
  value: unknown,
  track: PlaceTracker | undefined,
): unknown[] {
  if (current === undefined) {
    const list = [value];
    tree.add(node, key, list);
    track?.placed(list, { container: node, key });
    return list;
  }
  if (Array.isArray(current)) {
    current.push(value);
    return current;
  }
  const list = [current, value];
  tree.replace(node, key, list);
  if (track !== undefined) alone(track, node, key, list, undefined);
  return list;
}

/** The value alone at `key` of `node` became the first item of `list` (and `next`, if any, the second). */
function alone(
  track: PlaceTracker,
  node: Node,
  key: MappingKey,
  list: unknown[],
  next: object | undefined,
): void {
  track.moved({ container: node, key }, { container: list, key: 0 });
  track.placed(list, { container: node, key });
  if (next !== undefined) track.placed(next, { container: list, key: 1 });
}

/**
 * `as_json` with one column: each row holds a JSON object, merged into `focus` the way Salt's
 * `salt.utils.dictupdate.update(focus, row, merge_lists=as_list)` does. Text and UTF-8 bytes are decoded as Salt
 * decodes them since its fix for issue #63684; a value that is not an object is `SQL_SHAPE` (Salt raises `TypeError`).
 */
function jsonSink(
  tree: Tree,
  focus: Node,
  mergeLists: boolean,
  query: QueryLabel | undefined,
  onValue: ((write: ShapedValue) => void) | undefined,
  track: PlaceTracker | undefined,
): RowSink {
  let rowNumber = 0;
  // Every scalar (and empty mapping or list) of what the row put into the result is one value of that row.
  const wrote: JsonWrites | undefined =
    onValue === undefined
      ? undefined
      : {
          value(path, value, container, key) {
            const write: ShapedValue = { path, value, appended: false, row: rowNumber, keys: [] };
            track?.wrote(container, key);
            onValue(write);
          },
          placed(container, parent, key) {
            track?.placed(container, { container: parent, key });
          },
          copied(old, copy) {
            track?.copiedAs(old, copy);
          },
        };
  return {
    push(row) {
      rowNumber++;
      const where = `${prefix(query)}row ${rowNumber}`;
      if (row.length < 1) {
        throw mysqlError("SQL_SHAPE", `${where} has no value for its one field`, { query });
      }
      const value = decodeJsonColumn(row[0], where, query);
      if (!(value instanceof PyDict)) {
        throw mysqlError(
          "SQL_SHAPE",
          `${where}: as_json needs a JSON object in the column, got ${describeJson(value)}`,
          { query },
        );
      }
      mergeJson(tree, focus, value, mergeLists, wrote);
    },
    end() {},
  };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function decodeJsonColumn(value: unknown, where: string, query: QueryLabel | undefined): unknown {
  let text: string;
  if (typeof value === "string") {
    text = value;
  } else if (value instanceof Uint8Array) {
    try {
      text = strictUtf8.decode(value);
    } catch (error) {
      throw mysqlError("SQL_JSON", `${where}: the JSON column is not valid UTF-8`, { query, cause: error });
    }
  } else if (isMapping(value)) {
    // Already decoded (a driver that parses JSON columns): copied, so the caller's object is never changed.
    try {
      checkTree(value, { maxNodes: Number.POSITIVE_INFINITY });
    } catch (error) {
      throw relabel(error, where, query);
    }
    return toExact(cloneTree(value));
  } else {
    return value;
  }
  try {
    return parseJsonValue(text);
  } catch (error) {
    throw relabel(error, where, query);
  }
}

/** Puts the query and row in front of an error from the JSON reader or the tree check, keeping its code. */
function relabel(error: unknown, where: string, query: QueryLabel | undefined): unknown {
  if (!isMergeError(error)) return error;
  const prefixText = error.code === "SQL_JSON" ? "the column is not valid JSON: " : "";
  return mysqlError(error.code as "SQL_JSON", `${where}: ${prefixText}${error.message}`, {
    query,
    cause: error,
    details: { ...error.details },
  });
}

function describeJson(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (Array.isArray(value)) return "a list";
  return `${typeof value === "string" ? "the string" : "the value"} ${JSON.stringify(String(value)).slice(0, 60)}`;
}

/**
 * `salt.utils.dictupdate.update(dest, upd, merge_lists)`, without recursion: where the two mappings share no key
 * every key of `upd` is written as it is; otherwise mappings merge key by key, two lists are joined without
 * repeating items (`merge_lists`) or replaced, anything else is replaced. `upd` is fresh data owned by the tree.
 */
function mergeJson(tree: Tree, dest: Node, upd: Mapping, mergeLists: boolean, wrote?: JsonWrites): void {
  const work: [Node, Mapping, readonly MappingKey[]][] = [[dest, upd, []]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [target, source, path] = item;
    const keys = mappingKeys(source);
    const recursive = keys.some((key) => tree.get(target, key) !== undefined);
    for (const key of keys) {
      const value = getItem(source, key);
      const current = tree.get(target, key);
      if (current === undefined) {
        tree.add(target, key, value);
        if (wrote !== undefined) reportJson(wrote, value, target, key, [...path, key]);
      } else if (recursive && isMapping(current) && isMapping(value)) {
        let node = current as Node;
        if (!tree.isNode(node)) {
          // A mapping a non-JSON query stored as a value: merge into a copy, never into the caller's object.
          node = toExact(cloneTree(node)) as Node;
          tree.replace(target, key, node);
        }
        work.push([node, value, wrote === undefined ? path : [...path, key]]);
      } else if (recursive && mergeLists && Array.isArray(current) && Array.isArray(value)) {
        const merged = pyListUnion(current, value);
        tree.replace(target, key, merged);
        if (wrote !== undefined) {
          // The old items keep their indexes (and rows); the row wrote the items it added after them.
          wrote.copied(current, merged);
          wrote.placed(merged, target, key);
          for (let at = current.length; at < merged.length; at++) {
            reportJson(wrote, merged[at], merged, at, [...path, key, at]);
          }
        }
      } else {
        tree.replace(target, key, value);
        if (wrote !== undefined) reportJson(wrote, value, target, key, [...path, key]);
      }
    }
  }
}

/** How `mergeJson` tells provenance what a row wrote. */
interface JsonWrites {
  /** A scalar, empty mapping or empty list at `key` of `container`, `path` below the query's mapping. */
  value(path: readonly MappingKey[], value: unknown, container: object, key: MappingKey): void;
  /** A mapping or list the row put at `key` of `parent`. */
  placed(container: object, parent: object, key: MappingKey): void;
  /** A list merge replaced `old` by `copy`, which holds its items at the same indexes. */
  copied(old: object, copy: object): void;
}

/** Reports every scalar (or empty mapping or list) of what a row wrote at `key` of `container`, depth first. */
function reportJson(
  wrote: JsonWrites,
  value: unknown,
  container: object,
  key: MappingKey,
  path: readonly MappingKey[],
): void {
  const work: [unknown, object, MappingKey, readonly MappingKey[]][] = [[value, container, key, path]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [node, parent, at, where] = item;
    const children: [unknown, MappingKey][] = [];
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) children.push([node[index], index]);
    } else if (isMapping(node)) {
      for (const name of mappingKeys(node)) children.push([getItem(node, name), name]);
    }
    if (children.length === 0) {
      wrote.value(where, node, parent, at);
      continue;
    }
    wrote.placed(node as object, parent, at);
    // Pushed in reverse, so values are reported in document order.
    for (let i = children.length - 1; i >= 0; i--) {
      const [child, name] = children[i]!;
      work.push([child, node as object, name, [...where, name]]);
    }
  }
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
): PyDict {
  const shaper = createShaper();
  const sink = shaper.begin(fieldNames, options);
  for (const row of rows) sink.push(row);
  sink.end();
  const result = shaper.result();
  checkDepth(result, options.query);
  return result;
}

/**
 * Refuses a result nothing could print or merge: deeper than the engine's limit (1000 levels) is `DEPTH_LIMIT`,
 * as a coded error naming the query rather than a stack overflow later.
 */
export function checkDepth(result: Mapping, query?: QueryLabel): void {
  try {
    checkTree(result, { maxNodes: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (isMergeError(error) && query !== undefined) {
      throw mysqlError(error.code as "DEPTH_LIMIT", `${prefix(query)}${error.message}`, {
        query,
        cause: error,
        details: { ...error.details },
      });
    }
    throw error;
  }
}
