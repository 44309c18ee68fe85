import { type Dict, PyDict } from "@merge/core";
import { mergeExtPillar } from "@merge/source-mysql";
import { createOutputOptions, finish, requiredString, warn } from "./common.js";
import { entryName, loadMasterConfig } from "./master-config.js";
import { createMysqlSource } from "./mysql-source.js";
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
    // can be traced to the entry (and its line in the master file) that produced it.
    data = new PyDict();
    for (const entry of entries) {
      const part = await fetchOnce(values, config.value, [entry.value], minionId);
      documents.push({ name: entryName(config, entry), value: part });
      data = mergeExtPillar(data, part);
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
