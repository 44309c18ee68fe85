import { readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { type Dict, isMapping, MergeError, PyDict } from "@merge/core";
import { captureRegistry, createTraceRecorder, type ExplainDocument } from "@merge/explain";
import { loadStack, type StackLoaderOptions } from "@merge/source-stack";
import { loadYamlWithPositions } from "@merge/yaml";
import type { CliIO } from "../io.js";
import { type LoadedDocument, loadDocument } from "../load-document.js";
import {
  createCliRegistry,
  createOutputOptions,
  finish,
  noteFailure,
  noteFile,
  requiredString,
  stackLoaderHooks,
  warn,
} from "./common.js";
import type { CommandInput, ParsedValues } from "./table.js";
import { saltYaml } from "./checks.js";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  if (values.minions !== undefined) {
    return (await import("./minions.js")).executeStackBatch({ values, positionals, io });
  }
  const options = createOutputOptions(values, "stack");
  saltYaml(values, "stack");
  const minionId = requiredString(values, "minion-id", "stack");
  const spec = values.spec as string | undefined;
  // Pillar, grains and opts reach the templates exactly as read (`9.0` stays a float, int keys stay ints), as a
  // --minions batch gives them; the loader marks `__opts__.id` and `__opts__.grains` as minion text in either model.
  const [pillar, grains, opts] = await Promise.all([
    exactMappingFile(values, "pillar", io) as Promise<Dict | undefined>,
    exactMappingFile(values, "grains", io) as Promise<Dict | undefined>,
    exactMappingFile(values, "opts", io) as Promise<Dict | undefined>,
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

  for (const config of positionals) noteFile(io, config);
  // The exact model, as Salt computes the stack (`9.0` stays a float); the loader's own mappings, so `--explain` traces
  // containers taken whole from one file by identity. --watch hears of each file as it is read, so a load that fails
  // has its files watched too.
  const result = noteFailure(io, io.cwd, () =>
    loadStack({
      ...loaderOptions,
      ...stackLoaderHooks(io, io.cwd),
      minionId,
      pillar: pillar ?? {},
      grains: grains ?? {},
      values: "exact",
    }),
  );
  for (const warning of result.warnings) {
    warn(io, `${warning.file === undefined ? "" : `${warning.file}: `}${warning.message} [${warning.code}]`);
  }
  const base = stackBase(positionals, io.cwd);
  const title = `merge stack --minion-id ${minionId}${spec === undefined ? "" : ` --spec '${spec}'`}`;
  return await finish(io, options, result.data, {
    title: base === undefined ? title : `${title}\npaths are relative to ${base.shown}`,
    documents: recorder === undefined ? [] : explainDocuments(result.files, merged, io.cwd, base),
    events: recorder?.events ?? [],
  });
}

/** A `--grains`-style mapping file in the exact model (`PyDict`), or undefined when the option is absent. */
export async function exactMappingFile(values: ParsedValues, name: string, io: CliIO): Promise<unknown> {
  return (await exactMappingInput(values, name, io))?.value;
}

/**
 * `exactMappingFile` with the file's positions, for an input `--explain` names (`--pillar` under `merge pillar`):
 * read once with them (`eager`) when `positions` is true.
 */
export async function exactMappingInput(
  values: ParsedValues,
  name: string,
  io: CliIO,
  positions = false,
): Promise<LoadedDocument | undefined> {
  const file = values[name];
  if (typeof file !== "string") return undefined;
  const doc = await loadDocument(file, io, "salt", { positions: positions ? "eager" : "lazy" });
  if (doc.value === null || doc.value === undefined) return { ...doc, value: new PyDict() };
  if (!isMapping(doc.value)) {
    throw new MergeError(
      "INPUT_NOT_MAPPING",
      `--${name} must be a mapping (key: value lines), not a list or scalar`,
      {
        source: { file, line: 1, column: 1 },
      },
    );
  }
  return doc;
}

/** The directory the stack's files are named from: the config's own directory, when every config shares one. */
interface StackBase {
  readonly absolute: string;
  /** As the user wrote it (`examples/stack`, `../../srv/pillar`). */
  readonly shown: string;
}

function stackBase(configs: readonly string[], cwd: string): StackBase | undefined {
  const dirs = new Set(configs.map((config) => resolve(cwd, dirname(config))));
  if (dirs.size !== 1) return undefined;
  const absolute = [...dirs][0]!;
  if (absolute === resolve(cwd)) return undefined;
  const shown = dirname(configs[0]!);
  return { absolute, shown: isAbsolute(shown) ? shown : shown.split(sep).join("/") };
}

/** A stack file named from the stack's directory (`minions/web1.yml`), as its config lists it. */
function stackName(file: string, cwd: string, base: StackBase | undefined): string {
  if (base === undefined) return file;
  const inside = relative(base.absolute, resolve(cwd, file));
  return inside.startsWith("..") || isAbsolute(inside) ? file : inside.split(sep).join("/");
}

/**
 * The documents as they were merged, with positions from the files as written. A file whose template syntax keeps
 * it from parsing as YAML before rendering gets no line numbers, only its name.
 */
function explainDocuments(
  files: readonly string[],
  merged: readonly unknown[],
  cwd: string,
  base: StackBase | undefined,
): ExplainDocument[] {
  return files.map((file, index) => {
    const value = merged[index];
    const name = stackName(file, cwd, base);
    try {
      const located = loadYamlWithPositions(readFileSync(resolve(cwd, file), "utf8"), {
        flavor: "salt",
        values: "exact",
      });
      return { name, value, positionOf: (path) => located.positionOf(path) };
    } catch {
      return { name, value };
    }
  });
}
