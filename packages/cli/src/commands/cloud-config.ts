import {
  formatMergeError,
  getItem,
  hasItem,
  isMapping,
  type MergeError,
  type PathKey,
  pyEquals,
  type SourcePosition,
} from "@merge/core";
import {
  type CloudConfigPart,
  contentTypeOf,
  formatCloudConfig,
  type InstanceData,
  isMimeUserData,
  loadSystemConfig,
  mergeCloudConfig,
  modulesConfig,
  parseUserData,
  renderTemplateParts,
  type TemplatePartOutcome,
  type UserData,
  validateCloudConfig,
} from "@merge/mergers-cloudinit";
import { loadYaml12, loadYamlWithPositions } from "@merge/yaml";
import {
  captureRegistry,
  cloudConfigProvenance,
  createTraceRecorder,
  type ExplainDocument,
  explainResult,
  type TraceRecorder,
} from "@merge/explain";
import { errorExcerpt } from "../excerpt.js";
import { type CliIO, painter, useColor } from "../io.js";
import { readInputBytes } from "../read-input.js";
import { UsageError } from "../usage.js";
import { strictFailure, unknownOptions, type YamlVersion, yamlVersion } from "./checks.js";
import {
  cloudInitRegistry,
  locatorOf,
  readInstanceData,
  readSchema,
  reportValidation,
} from "./cloud-init-common.js";
import { createOutputOptions, emit, finish, warn } from "./common.js";
import { type PartOrigin, partProblem, textOf } from "./part-errors.js";
import type { CommandInput } from "./table.js";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "cloud-config");
  const mode = (values.mode as string | undefined) ?? "current";
  if (mode !== "current" && mode !== "stack") {
    throw new UsageError(`--mode must be current or stack, not "${mode}"`, "cloud-config");
  }
  if (positionals.filter((name) => name === "-").length > 1) {
    throw new UsageError("standard input (-) can be named only once", "cloud-config");
  }
  const systemFile = values.system as string | undefined;
  if (values.confd !== undefined && systemFile === undefined) {
    throw new UsageError("--confd goes with --system FILE", "cloud-config");
  }
  const version = yamlVersion(values, "cloud-config", "1.1");
  const strict = values.strict === true;
  const validate = values.validate === true || values.schema !== undefined;
  // cloud-init resolves merge_how against its own mergers (and --plugin's): `stack()` is unknown there.
  const registry = await cloudInitRegistry(options.plugins, io.cwd, mode === "stack");
  // cloud-init's own files, and their merge with the user-data, are merged as cloud-init merges, whatever the mode.
  const systemRegistry =
    mode === "stack" && systemFile !== undefined
      ? await cloudInitRegistry(options.plugins, io.cwd, false)
      : registry;
  const instanceData = await readInstanceData(values, io);
  const problems: MergeError[] = [];
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  const report = (error: MergeError, what: string) => {
    if (strict) problems.push(error);
    else {
      warn(io, `${what}: ${formatMergeError(error)}`);
      io.writeErr(errorExcerpt(error, paint));
    }
  };

  const parts: CloudConfigPart[] = [];
  // Which input each part came from, and whether its text may be quoted (a rendered template's may not).
  const origins = new Map<CloudConfigPart, PartOrigin>();
  for (const name of positionals) {
    const bytes = await readInputBytes(name, io);
    let data: UserData;
    if (isUserDataMessage(bytes)) {
      data = await parseUserData(bytes);
    } else if (contentTypeOf(bytes.subarray(0, 256).toString("utf8")) === "text/jinja2") {
      const template = { text: new Uint8Array(bytes), headers: [], at: 0 };
      data = { parts: [], skipped: [{ name, type: "text/jinja2", reason: "", template }] };
    } else {
      // As bytes: the YAML reader decodes them as cloud-init does (a part that is not UTF-8 is rejected).
      data = { parts: [{ text: new Uint8Array(bytes), name }], skipped: [] };
    }
    const rendered = await renderTemplateParts(data, instanceData);
    const written = new Set(data.parts);
    for (const part of rendered.parts) origins.set(part, { input: name, quotable: written.has(part) });
    for (const skipped of rendered.skipped)
      warn(io, `${name}: skipped part ${skipped.name}: ${skipped.reason}`);
    for (const template of rendered.templates) reportTemplate(io, name, template, instanceData, report);
    parts.push(...(version === "1.2" ? loadParts12(rendered.parts, origins, report) : rendered.parts));
  }

  const recorder = options.explain || validate ? createTraceRecorder() : undefined;
  const merged: unknown[] = [];
  const failures = new Map<number, unknown>();
  const result = mergeCloudConfig(parts, {
    mode,
    values: "exact",
    registry: recorder === undefined ? registry : captureRegistry(registry, recorder, merged, failures),
    // The explanation's lines come from the one read of each part, not from reading it again.
    positions: recorder !== undefined,
  });
  for (const outcome of result.parts) {
    if (outcome.status === "rejected" && outcome.error !== undefined) {
      const part = parts[outcome.index]!;
      report(
        partProblem(outcome.error, part, origins.get(part)) as MergeError,
        "part rejected, as cloud-init would",
      );
    }
    if (outcome.mergers !== undefined) {
      for (const problem of unknownOptions(registry, outcome.mergers, outcome.name)) {
        if (strict) problems.push(problem);
        else warn(io, problem.message);
      }
    }
  }
  for (const warning of result.warnings) warn(io, `${warning.message} [${warning.code}]`);
  const provenance = () => partsProvenance(result, parts, merged, failures, recorder, version, mode);

  if (systemFile !== undefined) {
    return await withSystem(values, io, systemFile, result, systemRegistry, provenance, {
      strict,
      validate,
      version,
      problems,
    });
  }
  if (result.value === null && io.capture === undefined) {
    const failed = strictFailure(io, problems);
    if (failed !== undefined) return failed;
    warn(io, "no cloud-config parts: there is nothing to write");
    return 0;
  }
  if (validate) {
    const { schema, file } = await readSchema(values, io);
    const { documents, events } = provenance();
    const validation = await validateCloudConfig(result.exact, {
      schema,
      schemaFile: file,
      locate: locatorOf(explainResult(result.exact, documents, events)),
    });
    problems.push(...reportValidation(io, validation, strict));
  }
  const failed = strictFailure(io, problems);
  if (failed !== undefined) return failed;

  if (
    options.format === "yaml" &&
    !options.explain &&
    options.get === undefined &&
    io.capture === undefined
  ) {
    // What cloud-init writes to cloud-config.txt, byte for byte.
    await emit(io, formatCloudConfig(result), options.output);
    return 0;
  }
  // The header cloud-init writes, naming the merged parts; the cloud-init preset adds `---` and `...`.
  const header = `#cloud-config\n\n# from ${result.merged.length} files\n${result.merged
    .map((name) => `# ${name === "" ? "?" : name}\n`)
    .join("")}\n`;
  return await finish(
    io,
    { ...options, yamlStyle: "cloud-init" },
    result.exact,
    { title: `merge cloud-config --mode ${mode}`, ...provenance() },
    header,
  );
}

interface SystemRun {
  readonly strict: boolean;
  readonly validate: boolean;
  readonly version: YamlVersion;
  readonly problems: MergeError[];
}

/** `--system FILE`: the configuration cloud-init's modules see. */
async function withSystem(
  values: CommandInput["values"],
  io: CliIO,
  file: string,
  result: ReturnType<typeof mergeCloudConfig>,
  registry: Awaited<ReturnType<typeof cloudInitRegistry>>,
  provenance: () => ReturnType<typeof cloudConfigProvenance>,
  run: SystemRun,
): Promise<number> {
  const options = createOutputOptions(values, "cloud-config");
  const systemRecorder = options.explain || run.validate ? createTraceRecorder() : undefined;
  const system = await loadSystemConfig({
    file,
    confd: values.confd as string | undefined,
    cwd: io.cwd,
    instanceData: await readInstanceData(values, io),
    values: "exact",
    yaml: run.version,
    registry,
    trace: systemRecorder,
  });
  for (const warning of system.warnings) warn(io, `${warning.message} [${warning.code}]`);
  for (const systemFile of system.files) {
    if (run.strict && systemFile.status === "ignored" && systemFile.error !== undefined) {
      run.problems.push(systemFile.error);
    }
  }
  const recorder = options.explain ? createTraceRecorder() : undefined;
  const modules = modulesConfig(system.exact, result.value === null ? null : result, {
    registry,
    trace: recorder,
  });
  const documents = [
    { name: "user-data (cloud-config.txt)", value: modules.userData },
    { name: `system configuration (${file} and its conf.d)`, value: modules.base },
  ];
  if (run.validate) {
    const { schema, file: schemaFile } = await readSchema(values, io);
    const partsDocs = provenance();
    const userLocate = locatorOf(explainResult(result.exact, partsDocs.documents, partsDocs.events));
    const systemDocs = system.files.map((f) => ({
      name: f.path,
      value: f.document ?? {},
      positionOf: (path: readonly PathKey[]) => {
        try {
          return f.text === undefined
            ? undefined
            : loadYamlWithPositions(f.text, { flavor: "pyyaml", values: "exact" }).positionOf(path);
        } catch {
          return undefined;
        }
      },
    }));
    const systemLocate = locatorOf(explainResult(system.exact, systemDocs, systemRecorder?.events ?? []));
    // A value the user-data holds as the modules see it came from a part; any other from a system file.
    const locate = (path: readonly PathKey[]): SourcePosition | undefined =>
      sameAt(result.exact, modules.exact, path) ? userLocate(path) : systemLocate(path);
    const validation = await validateCloudConfig(modules.exact, { schema, schemaFile, locate });
    run.problems.push(...reportValidation(io, validation, run.strict));
  }
  const failed = strictFailure(io, run.problems);
  if (failed !== undefined) return failed;
  return await finish(io, options, modules.exact, {
    title: `merge cloud-config --system ${file}`,
    documents,
    events: recorder?.events ?? [],
  });
}

/** True when `a` and `b` hold equal values at `path`. */
function sameAt(a: unknown, b: unknown, path: readonly PathKey[]): boolean {
  const at = (root: unknown): { found: boolean; value: unknown } => {
    let node = root;
    for (const key of path) {
      if (Array.isArray(node) && typeof key === "number" && key < node.length) node = node[key];
      else if (isMapping(node) && hasItem(node, key as string)) node = getItem(node, key as string);
      else return { found: false, value: undefined };
    }
    return { found: true, value: node };
  };
  const x = at(a);
  const y = at(b);
  return x.found && y.found && pyEquals(x.value, y.value);
}

function partsProvenance(
  result: ReturnType<typeof mergeCloudConfig>,
  parts: readonly CloudConfigPart[],
  merged: readonly unknown[],
  failures: ReadonlyMap<number, unknown>,
  recorder: TraceRecorder | undefined,
  version: YamlVersion,
  mode: "current" | "stack",
): ReturnType<typeof cloudConfigProvenance> {
  if (recorder === undefined) return { documents: [], events: [] };
  const positionsOf = new Map<object, ExplainDocument["positionOf"]>();
  return cloudConfigProvenance(
    result.parts.map((outcome, index) => {
      const record = {
        name: outcome.name,
        type: outcome.type,
        status: outcome.status,
        error: outcome.error,
        text: textOf(parts[index]!),
        mergers: outcome.mergers,
        mergersFrom: outcome.mergersFrom,
      };
      if (outcome.positionOf !== undefined) positionsOf.set(record, outcome.positionOf);
      return record;
    }),
    merged,
    failures,
    recorder.events,
    (part) => {
      const known = positionsOf.get(part);
      if (known !== undefined) return known;
      // Parts given as data (`--yaml 1.2` reads them first) have no positions of their own: read them again.
      try {
        const loaded =
          version === "1.2"
            ? loadYaml12(part.text, { filename: part.name, values: "exact" })
            : loadYamlWithPositions(part.text, { flavor: "pyyaml", filename: part.name, values: "exact" });
        return (path) => loaded.positionOf(path);
      } catch {
        return undefined;
      }
    },
    mode,
  );
}

/** Reports what became of a `## template: jinja` part: rendered (with missing variables), or ignored and why. */
function reportTemplate(
  io: CliIO,
  input: string,
  template: TemplatePartOutcome,
  instanceData: InstanceData | undefined,
  report: (error: MergeError, what: string) => void,
): void {
  // A file that is itself the template part is named once; a part of a MIME message after the file's name.
  const where = template.name === input ? `${input}: the template` : `${input}: template ${template.name}`;
  if (template.missing.length > 0) {
    warn(
      io,
      `${where}: the instance data has no ${template.missing.map((name) => `'${name}'`).join(", ")}, printed as CI_MISSING_JINJA_VAR/... as cloud-init does`,
    );
  }
  if (template.status === "other") {
    warn(io, `${where} renders to ${template.type}, which is not cloud-config`);
  } else if (template.status === "ignored") {
    if (template.error !== undefined)
      report(template.error, `template ${template.name} ignored, as cloud-init would`);
    else if (instanceData === undefined) {
      warn(io, `${where} skipped: ${template.reason} (give --instance-data FILE)`);
    } else warn(io, `${where} ignored, as cloud-init would: ${template.reason}`);
  }
}

/** `--yaml 1.2`: cloud-config parts read with the YAML 1.2 core schema; a part that does not load is rejected. */
function loadParts12(
  parts: readonly CloudConfigPart[],
  origins: ReadonlyMap<CloudConfigPart, PartOrigin>,
  report: (error: MergeError, what: string) => void,
) {
  const out: CloudConfigPart[] = [];
  for (const part of parts) {
    if (part.type === "text/cloud-config-jsonp" || (part.type === undefined && isJsonPatch(part))) {
      out.push(part);
      continue;
    }
    try {
      const data = loadYaml12(textOf(part), { filename: part.name, values: "exact" }).value;
      if (data === null || data === undefined) out.push({ ...part, text: "" });
      else out.push({ ...part, data });
    } catch (error) {
      report(partProblem(error, part, origins.get(part)) as MergeError, "part rejected");
    }
  }
  return out;
}

function isJsonPatch(part: CloudConfigPart): boolean {
  return textOf(part).trimStart().toLowerCase().startsWith("#cloud-config-jsonp");
}

/**
 * A MIME message (cloud-init's test: `MIME-Version:` anywhere in the first 4096 bytes), gzip data, or a file whose
 * first line announces a part type that is not cloud-config (`#cloud-config-archive`, `#!`, `#cloud-boothook`,
 * `#include`, ...) is user-data to take apart as cloud-init does: an archive is exploded, a script is skipped, never
 * read as YAML. Anything else is one cloud-config part.
 */
function isUserDataMessage(bytes: Buffer): boolean {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  if (isMimeUserData(bytes)) return true;
  const type = contentTypeOf(bytes.subarray(0, 256).toString("utf8"));
  return type !== undefined && !PART_TYPES.has(type);
}

// The types a file given as a PART is read as directly: a cloud-config part, a JSON patch, a template.
const PART_TYPES = new Set(["text/cloud-config", "text/cloud-config-jsonp", "text/jinja2"]);
