import type { Dict, PyDict } from "@merge/core";
import type { ExplainDocument } from "@merge/explain";
import type { MysqlPillar } from "@merge/source-mysql";
import { type ExtPillarEntry, entryName, type MasterConfig } from "./master-config.js";
import type { ParsedValues } from "./table.js";

/**
 * The MySQL pillar for some `- mysql:` entries of a master configuration, made the one way every command makes it
 * (`merge mysql`, `merge pillar` for one host or a `--minions` batch), so that a host prints the same values
 * whichever command runs it: Salt's exact values (a whole DOUBLE is `9.0`, an INT key stays an int, in row order),
 * and `mysql_query` read as `--no-legacy-mysql-query`, else the master's `merge: {legacy_mysql_query}`, else the
 * library's default (the legacy rule) says.
 */
export async function createMysqlSource(
  values: ParsedValues,
  master: Dict,
  entries: readonly unknown[],
): Promise<MysqlPillar<"exact">> {
  const { createMysqlPillar, mysqlOptionsFromMaster } = await import("@merge/source-mysql");
  const legacyMysqlQuery =
    values["no-legacy-mysql-query"] === true ? false : mysqlOptionsFromMaster(master).legacyMysqlQuery;
  return createMysqlPillar({ connection: master, entries, legacyMysqlQuery, values: "exact" });
}

/**
 * One `- mysql:` entry of the master file run for one minion (a pool opened and closed for it). With `explain`, also
 * its `--explain` inputs: one per query, each value naming its query and row (see `mysqlDocuments`).
 */
export async function fetchMysqlEntry(
  values: ParsedValues,
  config: MasterConfig,
  entry: ExtPillarEntry,
  minionId: string,
  explain: boolean,
): Promise<{ part: PyDict; documents: ExplainDocument[] }> {
  const source = await createMysqlSource(values, config.value, [entry.value]);
  try {
    if (!explain) return { part: await source.fetch(minionId), documents: [] };
    const { data, provenance } = await source.fetchWithProvenance(minionId);
    const { mysqlDocuments } = await import("../explain/mysql-documents.js");
    return {
      part: data,
      documents: mysqlDocuments(config, entry, data, provenance, entryName(config, entry)),
    };
  } finally {
    await source.close();
  }
}
