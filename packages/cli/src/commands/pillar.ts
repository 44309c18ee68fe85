import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { type Dict, type Mapping, PyDict } from "@merge/core";
import { loadYamlWithPositions } from "@merge/yaml";
import { captureRegistry, createTraceRecorder, type ExplainDocument } from "@merge/explain";
import {
  createCliRegistry,
  createOutputOptions,
  finish,
  noteFailure,
  requiredString,
  stackLoaderHooks,
  warn,
} from "./common.js";
import { entryName, loadMasterConfig, stackEntryConfig } from "./master-config.js";
import { pillarMerging } from "./pillar-merging.js";
import { fetchMysqlEntry } from "./mysql-source.js";
import { exactMappingFile, exactMappingInput } from "./stack.js";
import { entryTrace } from "../explain/pillar-trace.js";
import type { CommandInput } from "./table.js";
import { saltYaml } from "./checks.js";

/**
 * `merge pillar`: the `ext_pillar:` list of a master configuration, run in order the way Salt compiles a minion's
 * pillar: each entry sees the pillar compiled so far and its result is merged in as the file's merging options say
 * (`pillar_source_merging_strategy`, `pillar_merge_lists`, `ext_pillar_first`, `exclude_ext_pillar`; by default
 * mappings recursively, everything else replaced). `stack` and `mysql` entries are supported.
 */
export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  if (values.minions !== undefined) {
    return (await import("./minions.js")).executePillarBatch({ values, positionals, io });
  }
  const options = createOutputOptions(values, "pillar");
  saltYaml(values, "pillar");
  const file = requiredString(values, "config", "pillar");
  const minionId = requiredString(values, "minion-id", "pillar");
  const grains = ((await exactMappingFile(values, "grains", io)) as Dict | undefined) ?? {};
  const config = await loadMasterConfig(file, io);
  const merging = pillarMerging(config, (message) => warn(io, message));
  // Relative stack paths in the master file are read from the master file's directory.
  const baseDir = dirname(resolve(io.cwd, file));

  const recorder = options.explain ? createTraceRecorder() : undefined;
  const merged: unknown[] = [];
  const documents: ExplainDocument[] = [];
  let stackRegistry: Awaited<ReturnType<typeof createCliRegistry>> | undefined;
  let mergeExtPillar: ((base: PyDict, incoming: Mapping) => PyDict) | undefined;
  // Salt's pillar, in the exact model: the stack loader is given it (and the grains) as read, computes in it and
  // returns it. It starts from --pillar, the pillar Salt compiles from pillar_roots before the external pillars.
  const compiledInput = await exactMappingInput(values, "pillar", io, recorder !== undefined);
  const compiled = compiledInput?.value as Mapping | undefined;
  let top: PyDict = new PyDict();
  if (compiled !== undefined) {
    mergeExtPillar ??= (await import("@merge/source-mysql")).mergeExtPillar;
    top = compiled instanceof PyDict ? compiled : mergeExtPillar(top, compiled);
  }
  // With --explain, --pillar is an input of its own, in its place in Salt's order: first, or with ext_pillar_first
  // last. Its values are credited to it, and what an entry replaced of it is shown as lost.
  const addPillarInput = (): void => {
    if (recorder === undefined || compiledInput === undefined) return;
    documents[merged.length] = {
      name: compiledInput.file,
      value: top,
      note: merging.extPillarFirst ? "--pillar, merged last: ext_pillar_first" : "--pillar",
      positionOf: (keys) => compiledInput.positionOf(keys),
    };
    merged.push(top);
  };
  // The fold's own decisions (an entry replacing or joining what the pillar held) go to the entry's inputs.
  const traceOf = (from: number) =>
    recorder === undefined ? undefined : entryTrace(recorder, documents, from, merged.length);
  // With ext_pillar_first the external pillars start from nothing and the pillar_roots pillar goes over them last.
  let pillar: PyDict = merging.extPillarFirst ? new PyDict() : top;
  if (!merging.extPillarFirst) addPillarInput();

  for (const entry of config.entries) {
    if (merging.excluded(entry)) continue;
    const before = merged.length;
    if (entry.type === "stack") {
      const { loadStack } = await import("@merge/source-stack");
      const loaderOptions: Parameters<typeof loadStack>[0] = {
        config: stackEntryConfig(entry) as Parameters<typeof loadStack>[0]["config"],
        cwd: baseDir,
        // __opts__ is the master configuration as Salt reads it: `9.0` and int keys keep their type.
        opts: config.exact as Dict,
        minionId,
        pillar: pillar as unknown as Dict,
        grains,
        // The stack computes as Salt does and hands back its PyDict, so `9.0` and int keys reach the output.
        values: "exact",
      };
      if (recorder !== undefined) {
        stackRegistry ??= await createCliRegistry(options.plugins, io.cwd, "stack()");
        Object.assign(loaderOptions, {
          spec: "stack()",
          registry: captureRegistry(stackRegistry, recorder, merged),
        });
      }
      // --watch hears of the stack's files as they are read, --explain or not, and also when the load fails.
      const result = noteFailure(io, baseDir, () =>
        loadStack({ ...loaderOptions, ...stackLoaderHooks(io, baseDir) }),
      );
      for (const warning of result.warnings) {
        warn(
          io,
          `${warning.file === undefined ? "" : `${warning.file}: `}${warning.message} [${warning.code}]`,
        );
      }
      if (recorder !== undefined) {
        result.files.forEach((path, index) => {
          const absolute = resolve(baseDir, path);
          documents[before + index] = located(relative(io.cwd, absolute), absolute, merged[before + index]);
        });
      }
      pillar = merging.merge(pillar, result.data, traceOf(before));
    } else if (entry.type === "mysql") {
      const fetched = await fetchMysqlEntry(values, config, entry, minionId, recorder !== undefined);
      const part = fetched.part;
      // One input per query: each takes a place in the numbering the stack entries' events use.
      for (const document of fetched.documents) {
        documents[merged.length] = document;
        merged.push(document.value);
      }
      pillar = merging.merge(pillar, part, traceOf(before));
    } else {
      warn(io, `${entryName(config, entry)}: merge runs only stack and mysql external pillars; skipped`);
    }
  }
  if (merging.extPillarFirst) {
    const before = merged.length;
    addPillarInput();
    pillar = merging.merge(pillar, top, traceOf(before));
  }

  return await finish(io, options, pillar, {
    title: `merge pillar --config ${file} --minion-id ${minionId}`,
    documents,
    events: recorder?.events ?? [],
  });
}

function located(name: string, path: string, value: unknown): ExplainDocument {
  try {
    const positions = loadYamlWithPositions(readFileSync(path, "utf8"), { flavor: "salt" });
    return { name, value, positionOf: (keys) => positions.positionOf(keys) };
  } catch {
    return { name, value };
  }
}
