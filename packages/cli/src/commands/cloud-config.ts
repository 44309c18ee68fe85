import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { formatMergeError } from "@merge/core";
import {
  type CloudConfigPart,
  mergeCloudConfig,
  type PartOutcome,
  parseUserData,
} from "@merge/mergers-cloudinit";
import { loadYamlWithPositions } from "@merge/yaml";
import type { ExplainDocument } from "../explain/model.js";
import { createTraceRecorder } from "../explain/recorder.js";
import type { CliIO } from "../io.js";
import { fileError } from "../read-input.js";
import { UsageError } from "../usage.js";
import { createCliRegistry, createOutputOptions, emit, warn } from "./common.js";
import { renderResult } from "./result.js";
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
      parts.push({ text: bytes.toString("utf8"), name });
    }
  }

  const recorder = options.explain ? createTraceRecorder() : undefined;
  const result = mergeCloudConfig(parts, { mode, registry, trace: recorder });
  for (const outcome of result.parts) {
    if (outcome.status === "rejected" && outcome.error !== undefined) {
      warn(io, `part rejected, as cloud-init would: ${formatMergeError(outcome.error)}`);
    }
  }
  if (result.value === null) {
    warn(io, "no cloud-config parts: there is nothing to write");
    return 0;
  }
  // The file cloud-init writes: the header naming the merged parts, then one explicit YAML document.
  const header = `#cloud-config\n\n# from ${result.merged.length} files\n${result.merged
    .map((name) => `# ${name}\n`)
    .join("")}\n---\n`;
  const body = renderResult(
    result.value,
    { ...options, yamlStyle: "cloud-init" },
    {
      title: `merge cloud-config --mode ${mode}`,
      documents: options.explain ? explainDocuments(parts, result.parts) : [],
      events: recorder?.events ?? [],
    },
    header,
  );
  const text = options.format === "yaml" ? `${body}...\n` : body;
  await emit(io, text, options.output);
  return 0;
}

/** cloud-init's own view of a part, re-read with positions so `--explain` can give lines. */
function explainDocuments(
  parts: readonly CloudConfigPart[],
  outcomes: readonly PartOutcome[],
): ExplainDocument[] {
  return parts.map((part, index) => {
    const outcome = outcomes[index];
    const name = outcome?.name ?? part.name ?? `part ${index + 1}`;
    if (outcome?.status === "rejected") {
      // A rejected part supplied nothing; only say so.
      return { name, value: undefined, note: `rejected: ${outcome.error?.code ?? "error"}` };
    }
    const text = typeof part.text === "string" ? part.text : new TextDecoder().decode(part.text);
    const loaded = loadYamlWithPositions(text, { flavor: "pyyaml", filename: name });
    return { name, value: loaded.value, positionOf: (path) => loaded.positionOf(path) };
  });
}

async function readBytes(name: string, io: CliIO): Promise<Buffer> {
  if (name === "-") return Buffer.from(await io.readStdin());
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
