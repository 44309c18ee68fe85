// What `cloud-config` and `system-config` share: cloud-init's own mergers, instance data, the schema to validate
// with, where a validation problem's value came from, and the output of an exact-model result.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  createRegistry,
  formatJson,
  formatPath,
  type MergeError,
  type MergerPlugin,
  type PathKey,
  type Registry,
  type SourcePosition,
  toPlain,
} from "@merge/core";
import type { Explanation } from "@merge/explain";
import type { InstanceData, ValidationResult } from "@merge/mergers-cloudinit";
import { dumpYaml } from "@merge/yaml";
import type { CliIO } from "../io.js";
import { loadPluginModule } from "../plugins.js";
import { fileError } from "../read-input.js";
import { type ExplainInput, renderResult } from "./result.js";
import type { OutputOptions } from "./common.js";
import { warn } from "./common.js";
import type { ParsedValues } from "./table.js";

/**
 * cloud-init's `list`, `dict` and `str`, and the mergers of every `--plugin`: specs in parts and files resolve against
 * these only, as cloud-init resolves `merge_how` against its own mergers (`stack()` is unknown there). `seedExtend`
 * reads `list(extend)` as the seed's append (`--mode stack`); cloud-init itself does not know `extend`.
 */
export async function cloudInitRegistry(
  plugins: readonly string[],
  cwd: string,
  seedExtend = false,
): Promise<Registry> {
  const { cloudInitPlugins } = await import("@merge/mergers-cloudinit");
  const registry = createRegistry().use(...cloudInitPlugins({ seedExtend }));
  for (const specifier of plugins) {
    const loaded: MergerPlugin[] = await loadPluginModule(specifier, cwd);
    for (const plugin of loaded) registry.register(plugin);
  }
  return registry;
}

/** `--instance-data FILE`: the instance-data JSON, read as cloud-init reads it. */
export async function readInstanceData(values: ParsedValues, io: CliIO): Promise<InstanceData | undefined> {
  const file = values["instance-data"] as string | undefined;
  if (file === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(resolve(io.cwd, file));
  } catch (error) {
    throw fileError(file, error);
  }
  const { loadInstanceData } = await import("@merge/mergers-cloudinit");
  return loadInstanceData(bytes, { file });
}

/** `--schema FILE`, else the installed (or `$CLOUD_INIT_ROOT`-unpacked) cloud-init's schema. */
export async function readSchema(
  values: ParsedValues,
  io: CliIO,
): Promise<{ schema: Record<string, unknown>; file: string }> {
  const { findCloudInitSchema, loadSchema } = await import("@merge/mergers-cloudinit");
  const given = values.schema as string | undefined;
  const file = given === undefined ? findCloudInitSchema(io.env) : resolve(io.cwd, given);
  if (file === undefined) {
    const { MergeError } = await import("@merge/core");
    throw new MergeError(
      "SCHEMA_LOAD",
      "no cloud-init schema found (schema-cloud-config-v1.json of an installed cloud-init, $CLOUD_INIT_SCHEMA or $CLOUD_INIT_ROOT); give one with --schema FILE",
    );
  }
  return { schema: await loadSchema(file), file: given ?? file };
}

/** Where the value at a path came from, by the provenance `--explain` records: its file (part) and line. */
export function locatorOf(
  explanation: Explanation,
): (path: readonly PathKey[]) => SourcePosition | undefined {
  const byPath = new Map(explanation.entries.map((entry) => [keyOf(entry.path), entry]));
  return (path) => {
    // The value itself, or the nearest enclosing one that has a single origin.
    for (let n = path.length; n >= 0; n--) {
      const entry = byPath.get(keyOf(path.slice(0, n)));
      if (entry === undefined) continue;
      const origin = entry.origin;
      if (origin !== undefined) return { file: origin.name, line: origin.line, column: origin.column };
      const first = entry.contributors[0];
      const name = first === undefined ? undefined : explanation.documents[first]?.name;
      if (name !== undefined) return { file: name };
    }
    return undefined;
  };
}

function keyOf(path: readonly PathKey[]): string {
  return JSON.stringify(path.map((key) => String(key)));
}

/**
 * Reports a validation: deprecations are warnings; problems are errors that fail a --strict run (returned) and
 * warnings otherwise, as cloud-init only logs them.
 */
export function reportValidation(io: CliIO, result: ValidationResult, strict: boolean): MergeError[] {
  for (const deprecation of result.deprecations) warn(io, describe(deprecation));
  if (strict) return [...result.errors];
  for (const error of result.errors) warn(io, `invalid cloud-config: ${describe(error)}`);
  return [];
}

function describe(error: MergeError): string {
  const at = error.source;
  const where = at?.file === undefined ? "" : `${at.file}${at.line === undefined ? "" : `:${at.line}`}: `;
  const path = error.keys === undefined || error.keys.length === 0 ? "" : `${formatPath(error.keys)}: `;
  return `${where}${path}${error.message} [${error.code}]`;
}

/**
 * The text of an exact-model result: YAML as PyYAML writes it for people (keys in their order, typed keys and whole
 * floats as they are), JSON with Python's float spelling, or with --explain the annotated output.
 */
export function renderExact(
  exact: unknown,
  options: OutputOptions,
  explain: () => ExplainInput,
  prefix = "",
): string {
  if (options.explain) return renderResult(toPlain(exact), options, explain(), prefix);
  if (options.format === "json") return `${formatJson(exact, { indent: 2 })}\n`;
  return `${prefix}${dumpYaml(exact, { preset: "readable" })}`;
}
