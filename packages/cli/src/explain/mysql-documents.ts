import { getItem, hasItem, isMapping, keyIdentity, type PathKey, PyDict, setItem } from "@merge/core";
import type { ExplainDocument, ExplainEarlier } from "@merge/explain";
import type { MysqlProvenance, MysqlQuerySource, MysqlValueSource } from "@merge/source-mysql";
import type { ExtPillarEntry, MasterConfig } from "../commands/master-config.js";
import { pathId } from "./paths.js";
import { shortValue } from "./words.js";

const SQL_SHOWN = 40;

/**
 * The `--explain` inputs of one `- mysql:` entry: one per query, in the order they ran, each holding the values its
 * rows left at their places in the entry's result (`at`: after `with_lists` made lists of levels, `as_list` put them
 * into lists; for `as_json`, each value of each row's JSON object), named after the entry, the query and the start of
 * its SQL, and saying for each value the row it came from (`row 3 (pillar=env)`). So every value of the result names
 * its query and row; a value a later query replaced is shown, with its own query and row, as the value that lost,
 * and so is one a later row of the same query replaced (`lostOf`).
 */
export function mysqlDocuments(
  config: MasterConfig,
  entry: ExtPillarEntry,
  part: PyDict,
  provenance: MysqlProvenance,
  entryName: string,
): ExplainDocument[] {
  const queries = provenance.queries;
  if (queries.length === 0) return [{ name: entryName, value: part }];
  const writes = new Map<MysqlQuerySource, MysqlValueSource[]>();
  for (const value of provenance.values) {
    const list = writes.get(value.query);
    if (list === undefined) writes.set(value.query, [value]);
    else list.push(value);
  }
  return queries.map((query) => {
    const line = queryLine(config, entry, query) ?? entry.line;
    const where = line === undefined ? config.file : `${config.file}:${line}`;
    const name = `${where} (ext_pillar ${entry.index + 1}: ${entry.type}) ${query.name} (${shortSql(query.sql)})`;
    const { value, rows, earlier } = queryTree(part, writes.get(query) ?? []);
    return {
      name,
      value,
      detailOf: (path: readonly PathKey[]) => {
        const write = rows.get(pathId(path));
        return write === undefined ? undefined : rowText(write);
      },
      lostOf: (path: readonly PathKey[]) => earlier.get(pathId(path)),
    };
  });
}

/** One place of a query's input while it is built: a value and the row that wrote it, or a mapping or list. */
type Slot = Leaf | Branch;

interface Leaf {
  readonly kind: "value";
  readonly write: MysqlValueSource;
  /** What the query had here before, in the order its rows wrote it. */
  readonly earlier: readonly ExplainEarlier[];
}

interface Branch {
  readonly kind: "dict" | "list";
  /** Mapping keys by identity (the key itself kept), or the indexes of the result's list. */
  readonly children: Map<unknown, { readonly key: PathKey; slot: Slot }>;
  readonly earlier: readonly ExplainEarlier[];
}

/**
 * What one query left at each place of the entry's result (`at`): the last value its rows wrote there, with what its
 * earlier rows had there (`earlier`) and the row of each value (`rows`), by path in the input built. A list holds
 * the query's items of the result's list there, in the result's order.
 */
function queryTree(
  part: PyDict,
  writes: readonly MysqlValueSource[],
): { value: PyDict; rows: Map<string, MysqlValueSource>; earlier: Map<string, readonly ExplainEarlier[]> } {
  const top: Branch = { kind: "dict", children: new Map(), earlier: [] };
  // A mapping or list a later row or query replaced whole is one value that lost where it was, with the row of its
  // first value.
  const replaced = new Set<number>();
  for (const value of writes) {
    let write = value;
    if (value.within !== undefined) {
      if (replaced.has(value.within.id)) continue;
      replaced.add(value.within.id);
      write = { ...value, value: value.within.value, at: value.within.at };
    }
    const at = write.at;
    if (at === undefined || at.length === 0) continue;
    let branch = top;
    // The result's node at the same place, while the result has it: it says which steps are list indexes.
    let mirror: unknown = part;
    for (let i = 0; i < at.length; i++) {
      const step = at[i]!;
      const id = keyIdentity(step);
      mirror = childOf(mirror, step);
      const child = branch.children.get(id);
      const lost = child === undefined ? [] : [...child.slot.earlier, lostValue(child.slot)];
      if (i === at.length - 1) {
        const leaf: Leaf = { kind: "value", write, earlier: lost };
        if (child === undefined) branch.children.set(id, { key: step, slot: leaf });
        else child.slot = leaf;
        break;
      }
      const kind = Array.isArray(mirror) && typeof at[i + 1] === "number" ? "list" : "dict";
      if (child !== undefined && child.slot.kind === kind) {
        branch = child.slot as Branch;
        continue;
      }
      // The query had a value of another kind here: that value lost here.
      const next: Branch = { kind, children: new Map(), earlier: lost };
      if (child === undefined) branch.children.set(id, { key: step, slot: next });
      else child.slot = next;
      branch = next;
    }
  }
  const rows = new Map<string, MysqlValueSource>();
  const earlier = new Map<string, readonly ExplainEarlier[]>();
  const value = build(top, [], rows, earlier) as PyDict;
  return { value, rows, earlier };
}

/**
 * The input's value for a slot, noting the row and the earlier values of every place by its path there. A mapping or
 * list whose every value one row wrote (an `as_json` row's list) names that row too.
 */
function build(
  slot: Slot,
  path: PathKey[],
  rows: Map<string, MysqlValueSource>,
  earlier: Map<string, readonly ExplainEarlier[]>,
): unknown {
  if (slot.earlier.length > 0) earlier.set(pathId(path), slot.earlier);
  if (slot.kind === "value") {
    rows.set(pathId(path), slot.write);
    return slot.write.value;
  }
  const sole = soleWrite(slot);
  if (sole !== undefined) rows.set(pathId(path), sole);
  if (slot.kind === "list") {
    const items = [...slot.children.values()].sort((a, b) => (a.key as number) - (b.key as number));
    return items.map((item, index) => {
      path.push(index);
      const value = build(item.slot, path, rows, earlier);
      path.pop();
      return value;
    });
  }
  const out = new PyDict();
  for (const { key, slot: child } of slot.children.values()) {
    path.push(key);
    setItem(out, key, build(child, path, rows, earlier));
    path.pop();
  }
  return out;
}

/** A slot as a value that lost, with the row that wrote it (for a mapping or list, the first row inside). */
function lostValue(slot: Slot): ExplainEarlier {
  const value = build(slot, [], new Map(), new Map());
  const write = firstWrite(slot);
  return write === undefined ? { value } : { value, detail: rowText(write) };
}

/** The first value of a mapping or list when one row wrote all of its values, else undefined. */
function soleWrite(slot: Branch): MysqlValueSource | undefined {
  const first = firstWrite(slot);
  if (first === undefined) return undefined;
  const same = (child: Slot): boolean =>
    child.kind === "value"
      ? child.write.row === first.row
      : [...child.children.values()].every((item) => same(item.slot));
  return same(slot) ? first : undefined;
}

function firstWrite(slot: Slot): MysqlValueSource | undefined {
  if (slot.kind === "value") return slot.write;
  for (const { slot: child } of slot.children.values()) {
    const write = firstWrite(child);
    if (write !== undefined) return write;
  }
  return undefined;
}

function childOf(node: unknown, step: PathKey): unknown {
  if (Array.isArray(node)) return typeof step === "number" ? node[step] : undefined;
  return isMapping(node) && hasItem(node, step) ? getItem(node, step) : undefined;
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
