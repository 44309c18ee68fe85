import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { formatMergeError } from "@merge/core";
import { captureRegistry, cloudConfigProvenance, createTraceRecorder } from "@merge/explain";
import { type CloudConfigPart, mergeCloudConfig, parseUserData } from "@merge/mergers-cloudinit";
import { loadYamlWithPositions } from "@merge/yaml";
import type { CliIO } from "../io.js";
import { fileError, readStdinBytes } from "../read-input.js";
import { UsageError } from "../usage.js";
import { createCliRegistry, createOutputOptions, finish, noteFile, warn } from "./common.js";
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
  const registry = await createCliRegistry(options.plugins, io.cwd);

  const parts: CloudConfigPart[] = [];
  for (const name of positionals) {
    const bytes = await readBytes(name, io);
    if (isUserDataMessage(bytes)) {
      const data = await parseUserData(bytes);
      for (const skipped of data.skipped)
        warn(io, `${name}: skipped part ${skipped.name}: ${skipped.reason}`);
      parts.push(...data.parts);
    } else {
      // As bytes: the YAML reader decodes them as cloud-init does (a part that is not UTF-8 is rejected).
      parts.push({ text: new Uint8Array(bytes), name });
    }
  }

  const recorder = options.explain ? createTraceRecorder() : undefined;
  const merged: unknown[] = [];
  const failures = new Map<number, unknown>();
  // The exact model: what cloud-init holds (`9.0` a float, int keys, every key in its place).
  const result = mergeCloudConfig(parts, {
    mode,
    values: "exact",
    registry: recorder === undefined ? registry : captureRegistry(registry, recorder, merged, failures),
  });
  for (const outcome of result.parts) {
    if (outcome.status === "rejected" && outcome.error !== undefined) {
      warn(io, `part rejected, as cloud-init would: ${formatMergeError(outcome.error)}`);
    }
  }
  for (const warning of result.warnings) warn(io, `${warning.message} [${warning.code}]`);
  if (result.exact === null && io.capture === undefined) {
    warn(io, "no cloud-config parts: there is nothing to write");
    return 0;
  }
  // The file cloud-init writes: the header naming the merged parts, then one explicit YAML document.
  const header = `#cloud-config\n\n# from ${result.merged.length} files\n${result.merged
    .map((name) => `# ${name === "" ? "?" : name}\n`)
    .join("")}\n`;
  const provenance =
    recorder === undefined
      ? { documents: [], events: [] }
      : cloudConfigProvenance(
          result.parts.map((outcome, index) => ({
            name: outcome.name,
            type: outcome.type,
            status: outcome.status,
            error: outcome.error,
            text: textOf(parts[index]!),
            mergers: outcome.mergers,
            mergersFrom: outcome.mergersFrom,
          })),
          merged,
          failures,
          recorder.events,
          (part) => {
            try {
              const loaded = loadYamlWithPositions(part.text, {
                flavor: "pyyaml",
                filename: part.name,
                values: "exact",
              });
              return (path) => loaded.positionOf(path);
            } catch {
              return undefined;
            }
          },
          mode,
        );
  return await finish(
    io,
    { ...options, yamlStyle: "cloud-init" },
    result.exact,
    { title: `merge cloud-config --mode ${mode}`, ...provenance },
    header,
  );
}

function textOf(part: CloudConfigPart): string {
  return typeof part.text === "string" ? part.text : new TextDecoder().decode(part.text ?? new Uint8Array());
}

async function readBytes(name: string, io: CliIO): Promise<Buffer> {
  if (name === "-") return Buffer.from(await readStdinBytes(io));
  noteFile(io, name);
  try {
    return await readFile(resolve(io.cwd, name));
  } catch (error) {
    throw fileError(name, error);
  }
}

/** A MIME multipart message or gzip data is user-data to unpack; anything else is one cloud-config part. */
function isUserDataMessage(bytes: Buffer): boolean {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return true;
  return /^mime-version:/im.test(bytes.subarray(0, 4096).toString("latin1"));
}
