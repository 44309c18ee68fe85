import type { Dict } from "@merge/core";
import type { MysqlPillar } from "@merge/source-mysql";
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
