import type { Dict } from "@merge/core";
import { createMysqlPillar, mergeExtPillar, mysqlOptionsFromMaster } from "@merge/source-mysql";
import { createOutputOptions, emit, requiredString, warn } from "./common.js";
import { entryName, loadMasterConfig } from "./master-config.js";
import { renderResult } from "./result.js";
import type { CommandInput } from "./table.js";
import type { ExplainDocument } from "@merge/explain";
import { saltYaml } from "./checks.js";

/** `merge mysql`: every `- mysql:` entry of the master configuration, run for one minion and merged as Salt does. */
export async function execute({ values, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "mysql");
  saltYaml(values, "mysql");
  const file = requiredString(values, "config", "mysql");
  const minionId = requiredString(values, "minion-id", "mysql");
  const config = await loadMasterConfig(file, io);
  const entries = config.entries.filter((entry) => entry.type === "mysql");
  if (entries.length === 0) warn(io, `${file}: ext_pillar has no mysql entries; the pillar is empty`);

  const legacyMysqlQuery = legacyMysqlQueryOf(values, config.value);

  let data: Dict;
  const documents: ExplainDocument[] = [];
  if (!options.explain) {
    data = await fetchOnce(
      config.value,
      entries.map((entry) => entry.value),
      minionId,
      legacyMysqlQuery,
    );
  } else {
    // Provenance: each entry is fetched on its own and the results folded as Salt folds them, so every value
    // can be traced to the entry (and its line in the master file) that produced it.
    data = {};
    for (const entry of entries) {
      const part = await fetchOnce(config.value, [entry.value], minionId, legacyMysqlQuery);
      documents.push({ name: entryName(config, entry), value: part });
      data = mergeExtPillar(data, part);
    }
  }
  const text = renderResult(data, options, {
    title: `merge mysql --config ${file} --minion-id ${minionId}`,
    documents,
    events: [],
  });
  await emit(io, text, options.output);
  return 0;
}

/**
 * How `mysql_query` is read: `--no-legacy-mysql-query` wins, then the master file's `merge: {legacy_mysql_query}`,
 * then the library's default (the legacy rule).
 */
function legacyMysqlQueryOf(values: CommandInput["values"], master: Dict): boolean | undefined {
  if (values["no-legacy-mysql-query"] === true) return false;
  return mysqlOptionsFromMaster(master).legacyMysqlQuery;
}

async function fetchOnce(
  connection: Dict,
  entries: readonly unknown[],
  minionId: string,
  legacyMysqlQuery: boolean | undefined,
): Promise<Dict> {
  const pillar = createMysqlPillar({ connection, entries, legacyMysqlQuery });
  try {
    return await pillar.fetch(minionId);
  } finally {
    await pillar.close();
  }
}
