import { type Dict, PyDict } from "@merge/core";
import { mergeExtPillar } from "@merge/source-mysql";
import { createOutputOptions, finish, requiredString, warn } from "./common.js";
import { loadMasterConfig } from "./master-config.js";
import { createMysqlSource, fetchMysqlEntry } from "./mysql-source.js";
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

  let data: PyDict;
  const documents: ExplainDocument[] = [];
  if (!options.explain) {
    data = await fetchOnce(
      values,
      config.value,
      entries.map((entry) => entry.value),
      minionId,
    );
  } else {
    // Provenance: each entry is fetched on its own and the results folded as Salt folds them, so every value
    // can be traced to the entry (and its line in the master file), the query and the row that produced it.
    data = new PyDict();
    for (const entry of entries) {
      const fetched = await fetchMysqlEntry(values, config, entry, minionId, true);
      documents.push(...fetched.documents);
      data = mergeExtPillar(data, fetched.part);
    }
  }
  return await finish(io, options, data, {
    title: `merge mysql --config ${file} --minion-id ${minionId}`,
    documents,
    events: [],
  });
}

async function fetchOnce(
  values: CommandInput["values"],
  master: Dict,
  entries: readonly unknown[],
  minionId: string,
): Promise<PyDict> {
  const pillar = await createMysqlSource(values, master, entries);
  try {
    return await pillar.fetch(minionId);
  } finally {
    await pillar.close();
  }
}
