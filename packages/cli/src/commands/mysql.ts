import { PyDict } from "@merge/core";
import { createOutputOptions, finish, requiredString, warn } from "./common.js";
import { loadMasterConfig } from "./master-config.js";
import { fetchMysqlEntry } from "./mysql-source.js";
import { pillarMerging } from "./pillar-merging.js";
import type { CommandInput } from "./table.js";
import { createTraceRecorder, type ExplainDocument } from "@merge/explain";
import { entryTrace } from "../explain/pillar-trace.js";
import { saltYaml } from "./checks.js";

/**
 * `merge mysql`: every `- mysql:` entry of the master configuration, run for one minion and merged as Salt merges
 * external pillars, under the file's `pillar_source_merging_strategy`, `pillar_merge_lists` and `exclude_ext_pillar`.
 */
export async function execute({ values, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "mysql");
  saltYaml(values, "mysql");
  const file = requiredString(values, "config", "mysql");
  const minionId = requiredString(values, "minion-id", "mysql");
  const config = await loadMasterConfig(file, io);
  const merging = pillarMerging(config, (message) => warn(io, message));
  const entries = config.entries.filter((entry) => entry.type === "mysql" && !merging.excluded(entry));
  if (entries.length === 0) warn(io, `${file}: ext_pillar has no mysql entries; the pillar is empty`);

  // Each entry is fetched on its own and the results folded as Salt folds them (with --explain, so that every value
  // can be traced to the entry, its line in the master file, the query and the row that produced it).
  let data = new PyDict();
  const documents: ExplainDocument[] = [];
  // The fold's decisions (an entry replacing or joining what an earlier one wrote), credited to the query.
  const recorder = options.explain ? createTraceRecorder() : undefined;
  for (const entry of entries) {
    const fetched = await fetchMysqlEntry(values, config, entry, minionId, options.explain);
    const before = documents.length;
    documents.push(...fetched.documents);
    const trace =
      recorder === undefined ? undefined : entryTrace(recorder, documents, before, documents.length);
    data = merging.merge(data, fetched.part, trace);
  }
  return await finish(io, options, data, {
    title: `merge mysql --config ${file} --minion-id ${minionId}`,
    documents,
    events: recorder?.events ?? [],
  });
}
