import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Dict, isPlainObject, MergeError } from "@merge/core";
import { loadStack, type StackLoaderOptions } from "@merge/source-stack";
import { loadYamlWithPositions } from "@merge/yaml";
import type { CliIO } from "../io.js";
import { loadDocument } from "../load-document.js";
import { createCliRegistry, createOutputOptions, emit, requiredString, warn } from "./common.js";
import { renderResult } from "./result.js";
import type { CommandInput, ParsedValues } from "./table.js";
import { captureRegistry, createTraceRecorder, type ExplainDocument } from "@merge/explain";
import { saltYaml } from "./checks.js";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  if (values.minions !== undefined) {
    return (await import("./minions.js")).executeStackBatch({ values, positionals, io });
  }
  const options = createOutputOptions(values, "stack");
  saltYaml(values, "stack");
  const minionId = requiredString(values, "minion-id", "stack");
  const spec = values.spec as string | undefined;
  const [pillar, grains, opts] = await Promise.all([
    mappingFile(values, "pillar", io),
    mappingFile(values, "grains", io),
    mappingFile(values, "opts", io),
  ]);

  const loaderOptions: { -readonly [K in keyof StackLoaderOptions]: StackLoaderOptions[K] } = {
    config: positionals.length === 1 ? positionals[0]! : [...positionals],
    cwd: io.cwd,
  };
  if (opts !== undefined) loaderOptions.opts = opts;
  const merged: unknown[] = [];
  const recorder = options.explain ? createTraceRecorder() : undefined;
  if (spec !== undefined || recorder !== undefined) {
    // Without --spec and --explain the loader's own in-place PillarStack fold runs (the fastest path).
    const registry = await createCliRegistry(options.plugins, io.cwd, spec ?? "stack()");
    loaderOptions.spec = spec ?? "stack()";
    loaderOptions.registry = recorder === undefined ? registry : captureRegistry(registry, recorder, merged);
  }

  const result = loadStack({ ...loaderOptions, minionId, pillar: pillar ?? {}, grains: grains ?? {} });
  for (const warning of result.warnings) {
    warn(io, `${warning.file === undefined ? "" : `${warning.file}: `}${warning.message} [${warning.code}]`);
  }
  const text = renderResult(result.data, options, {
    title: `merge stack --minion-id ${minionId}${spec === undefined ? "" : ` --spec '${spec}'`}`,
    documents: recorder === undefined ? [] : explainDocuments(result.files, merged, io.cwd),
    events: recorder?.events ?? [],
  });
  await emit(io, text, options.output);
  return 0;
}

/** `--pillar`, `--grains`, `--opts`: a YAML or JSON mapping read as Salt reads YAML. */
export async function mappingFile(values: ParsedValues, name: string, io: CliIO): Promise<Dict | undefined> {
  const file = values[name];
  if (typeof file !== "string") return undefined;
  const doc = await loadDocument(file, io, "salt");
  if (doc.value === null || doc.value === undefined) return {};
  if (!isPlainObject(doc.value)) {
    throw new MergeError(
      "INPUT_NOT_MAPPING",
      `--${name} must be a mapping (key: value lines), not a list or scalar`,
      {
        source: { file, line: 1, column: 1 },
      },
    );
  }
  return doc.value;
}

/**
 * The documents as they were merged, with positions from the files as written. A file whose template syntax keeps
 * it from parsing as YAML before rendering gets no line numbers, only its name.
 */
function explainDocuments(
  files: readonly string[],
  merged: readonly unknown[],
  cwd: string,
): ExplainDocument[] {
  return files.map((file, index) => {
    const value = merged[index];
    try {
      const located = loadYamlWithPositions(readFileSync(resolve(cwd, file), "utf8"), { flavor: "salt" });
      return { name: file, value, positionOf: (path) => located.positionOf(path) };
    } catch {
      return { name: file, value };
    }
  });
}
