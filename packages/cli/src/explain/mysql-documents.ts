import { getItem, hasItem, isMapping, type MappingKey, type PathKey, PyDict, setItem } from "@merge/core";
import type { ExplainDocument } from "@merge/explain";
import type { MysqlProvenance, MysqlQuerySource, MysqlValueSource } from "@merge/source-mysql";
import type { ExtPillarEntry, MasterConfig } from "../commands/master-config.js";
import { pathId } from "./paths.js";
import { shortValue } from "./words.js";

const SQL_SHOWN = 40;

/**
 * The `--explain` inputs of one `- mysql:` entry: one per query, in the order they ran, each holding the values its
 * rows wrote (the last one at each key; the items it added at a list), named after the entry, the query and the
 * start of its SQL, and saying for each value the row it came from (`row 3 (pillar=env)`). So every value of the
 * result names its query and row, and a value a later query replaced is shown, with its own query and row, as the
 * value that lost. A query whose values are not traced one by one (`as_json`, `with_lists`) is an input for what is
 * below its keyword, as a whole; an entry with such a query at the top (no keyword) is one input, as a whole.
 */
export function mysqlDocuments(
  config: MasterConfig,
  entry: ExtPillarEntry,
  part: PyDict,
  provenance: MysqlProvenance,
  entryName: string,
): ExplainDocument[] {
  const queries = provenance.queries;
  // An untraced query at the top (no keyword of its own) cannot be told apart from the others.
  if (queries.length === 0 || queries.some((query) => !query.traced && !query.root)) {
    return [{ name: entryName, value: part }];
  }
  return queries.map((query, index) => {
    const line = queryLine(config, entry, query) ?? entry.line;
    const where = line === undefined ? config.file : `${config.file}:${line}`;
    const name = `${where} (ext_pillar ${entry.index + 1}: ${entry.type}) ${query.name} (${shortSql(query.sql)})`;
    if (!query.traced) return { name, value: wholeRoot(part, query, queries.slice(index + 1)) };
    const writes = provenance.values.filter((value) => value.query === query);
    const { value, rows } = queryTree(part, writes);
    return {
      name,
      value,
      detailOf: (path: readonly PathKey[]) => {
        const write = rows.get(pathId(path));
        return write === undefined ? undefined : rowText(write);
      },
    };
  });
}

/**
 * An untraced query's input: what is below its keyword in the entry's result, the very objects (so the explanation
 * attributes them to the query as a whole), unless a later query of the same keyword replaced them.
 */
function wholeRoot(part: PyDict, query: MysqlQuerySource, later: readonly MysqlQuerySource[]): PyDict {
  const out = new PyDict();
  const root = query.root!;
  if (!later.some((other) => other.root === root) && hasItem(part, root))
    setItem(out, root, getItem(part, root));
  return out;
}

/**
 * What one query left at each place of the entry's result: the last value it wrote there, or at a place that holds
 * a list, every item it added. Places the result no longer has below a mapping (a later query replaced its keyword)
 * are left out.
 */
function queryTree(
  part: PyDict,
  writes: readonly MysqlValueSource[],
): { value: PyDict; rows: Map<string, MysqlValueSource> } {
  const root = new PyDict();
  const rows = new Map<string, MysqlValueSource>();
  for (const write of writes) {
    const parent = write.path.slice(0, -1);
    const key = write.path[write.path.length - 1];
    if (key === undefined || !isMapping(nodeAt(part, parent))) continue;
    const inResult = getItem(nodeAt(part, parent) as PyDict, key);
    let node = root;
    for (const step of parent) {
      let next = hasItem(node, step) ? getItem(node, step) : undefined;
      if (!(next instanceof PyDict)) {
        next = new PyDict();
        setItem(node, step, next);
      }
      node = next as PyDict;
    }
    if (Array.isArray(inResult)) {
      let items = hasItem(node, key) ? getItem(node, key) : undefined;
      if (!Array.isArray(items)) {
        items = [];
        setItem(node, key, items);
      }
      rows.set(pathId([...write.path, (items as unknown[]).length]), write);
      (items as unknown[]).push(write.value);
    } else {
      setItem(node, key, write.value);
      rows.set(pathId(write.path), write);
    }
  }
  return { value: root, rows };
}

function nodeAt(root: unknown, path: readonly MappingKey[]): unknown {
  let node = root;
  for (const step of path) {
    if (!isMapping(node) || !hasItem(node, step)) return undefined;
    node = getItem(node, step);
  }
  return node;
}

/** `row 3 (pillar=env)`: the row's number in the query's result and the key columns that placed the value. */
function rowText(write: MysqlValueSource): string {
  const keys = write.keys.map((key) => `${key.column}=${shortValue(key.value)}`).join(", ");
  return keys === "" ? `row ${write.row}` : `row ${write.row} (${keys})`;
}

function shortSql(sql: string): string {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > SQL_SHOWN ? `${flat.slice(0, SQL_SHOWN)}…` : flat;
}

/** The line the query is written on in the master file, when the file says (`main: SELECT ...`, `- SELECT ...`). */
function queryLine(config: MasterConfig, entry: ExtPillarEntry, query: MysqlQuerySource): number | undefined {
  const base: PathKey[] = ["ext_pillar", entry.index, entry.type];
  let at: PathKey[] | undefined;
  if (Array.isArray(entry.value)) at = [...base, query.index];
  else if (isMapping(entry.value)) at = [...base, query.root ?? "mysql_query"];
  return at === undefined ? undefined : config.document.positionOf(at)?.line;
}
