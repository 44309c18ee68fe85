import { resolve } from "node:path";
import type { MergeError, PathKey } from "@merge/core";
import { createTraceRecorder, explainResult } from "@merge/explain";
import { loadSystemConfig, type SystemConfigFile, validateCloudConfig } from "@merge/mergers-cloudinit";
import { loadYaml12, loadYamlWithPositions } from "@merge/yaml";
import { strictFailure, unknownOptions, yamlVersion } from "./checks.js";
import {
  cloudInitRegistry,
  locatorOf,
  readInstanceData,
  readSchema,
  reportValidation,
} from "./cloud-init-common.js";
import { createOutputOptions, finish, noteFile, warn } from "./common.js";
import type { CommandInput } from "./table.js";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "system-config");
  const version = yamlVersion(values, "system-config", "1.1");
  const strict = values.strict === true;
  const registry = await cloudInitRegistry(options.plugins, io.cwd);
  const instanceData = await readInstanceData(values, io);
  const validate = values.validate === true || values.schema !== undefined;
  const recorder = options.explain || validate ? createTraceRecorder() : undefined;

  // --watch: the system file even when reading it fails, then every file read (relative to the working directory,
  // as named), before --strict can stop the run.
  noteFile(io, positionals[0]!);
  // The conf.d directory as the command line names it, or the default: known even when the load then fails (the base
  // file's own conf_d key, when it has one, is added from the result).
  noteConfd(io, (values.confd as string | undefined) ?? `${positionals[0]!}.d`);
  const result = await loadSystemConfig({
    file: positionals[0]!,
    confd: values.confd as string | undefined,
    cwd: io.cwd,
    instanceData,
    values: "exact",
    yaml: version,
    registry,
    trace: recorder,
  });
  for (const file of result.files) noteFile(io, file.path);
  if (result.confd !== undefined) noteConfd(io, result.confd.path);
  // With --strict an ignored file is an error below, not also a warning.
  for (const warning of result.warnings)
    if (!(strict && warning.code === "SYSTEM_CONFIG_IGNORED"))
      warn(io, `${warning.message} [${warning.code}]`);

  const problems: MergeError[] = [];
  if (strict) {
    for (const file of result.files)
      if (file.status === "ignored" && file.error !== undefined) problems.push(file.error);
  }
  for (const file of result.files) {
    if (file.mergers === undefined) continue;
    const unknown = unknownOptions(registry, file.mergers, file.path);
    if (strict) problems.push(...unknown);
    else for (const problem of unknown) warn(io, problem.message);
  }

  const documents = result.files.map((file) => ({
    name: file.path,
    value: file.document ?? {},
    note: file.status === "merged" ? undefined : file.status,
    positionOf: positions(file, version),
  }));
  const explanation = () => explainResult(result.exact, documents, recorder?.events ?? []);
  if (validate) {
    const { schema, file } = await readSchema(values, io);
    const validation = await validateCloudConfig(result.exact, {
      schema,
      schemaFile: file,
      locate: locatorOf(explanation()),
    });
    problems.push(...reportValidation(io, validation, strict));
  }
  const failed = strictFailure(io, problems);
  if (failed !== undefined) return failed;

  return await finish(io, options, result.exact, {
    title: `merge system-config ${positionals[0]}`,
    documents,
    events: recorder?.events ?? [],
  });
}

/** Where each key of a file was written (of the rendered text, for a template). */
function positions(
  file: SystemConfigFile,
  version: "1.1" | "1.2",
): (path: readonly PathKey[]) => { line: number; column: number } | undefined {
  let located:
    | { positionOf(path: readonly unknown[]): { line: number; column: number } | undefined }
    | undefined;
  return (path) => {
    if (file.text === undefined) return undefined;
    try {
      located ??=
        version === "1.2"
          ? loadYaml12(file.text, { filename: file.path, values: "exact" })
          : loadYamlWithPositions(file.text, { flavor: "pyyaml", filename: file.path, values: "exact" });
      return located.positionOf(path);
    } catch {
      return undefined;
    }
  };
}

/** --watch: a new file in conf.d changes the result (cloud-init reads every name there ending in .cfg, dotfiles too). */
function noteConfd(io: CommandInput["io"], confd: string): void {
  if (io.onSearch === undefined) return;
  const dir = resolve(io.cwd, confd).replace(/[[*?]/g, "[$&]");
  for (const names of ["*.cfg", ".*.cfg"]) io.onSearch({ pattern: `${dir}/${names}`, glob: true });
}
