// What the cloud-init commands and `docs` share beyond output: the YAML version they read, the unknown merger options
// cloud-init would ignore (a warning, or an error with --strict), and how --strict ends a run.
import {
  formatMergeError,
  formatSpecEntry,
  MergeError,
  normalizeSpec,
  type Registry,
  type SpecInput,
} from "@merge/core";
import { loadYaml12 } from "@merge/yaml";
import { errorExcerpt } from "../excerpt.js";
import { oneLine, painter, useColor, type CliIO } from "../io.js";
import {
  type LoadDocumentOptions,
  type LoadedDocument,
  loadDocument,
  withExcerpt,
} from "../load-document.js";
import { didYouMean } from "../suggest.js";
import { readInput } from "../read-input.js";
import { UsageError } from "../usage.js";
import type { ParsedValues } from "./table.js";

export type YamlVersion = "1.1" | "1.2";

/** `--yaml 1.1|1.2`, or the command's default. */
export function yamlVersion(values: ParsedValues, command: string, fallback: YamlVersion): YamlVersion {
  const given = values.yaml as string | undefined;
  if (given === undefined) return fallback;
  if (given !== "1.1" && given !== "1.2") {
    throw new UsageError(`--yaml must be 1.1 or 1.2, not "${given}"`, command);
  }
  return given;
}

/** Salt's commands read their files with Salt's loader only. */
export function saltYaml(values: ParsedValues, command: string): void {
  const given = values.yaml as string | undefined;
  if (given !== undefined && given !== "1.1") {
    throw new UsageError(
      `--yaml must be 1.1 here: ${command} reads its files with Salt's YAML 1.1 loader, as Salt does`,
      command,
    );
  }
}

/** One input document read as YAML 1.1 (PyYAML's rules) or YAML 1.2 (the core schema). */
export async function loadVersionedDocument(
  name: string,
  io: CliIO,
  version: YamlVersion,
  options: LoadDocumentOptions = {},
): Promise<LoadedDocument> {
  // YAML 1.2 is read with its positions either way (the yaml package's nodes carry them).
  if (version === "1.1") return await loadDocument(name, io, "pyyaml", options);
  const input = await readInput(name, io);
  let loaded: ReturnType<typeof loadYaml12>;
  try {
    loaded = loadYaml12(input.text, { filename: name, values: "exact" });
  } catch (error) {
    throw withExcerpt(error, input.text);
  }
  return { file: name, value: loaded.value, positionOf: (path) => loaded.positionOf(path) };
}

/**
 * The options a spec gives mergers that do not take them (`list(apend)`): cloud-init ignores them, so they are
 * warnings, or errors with --strict. Unknown merger names are left to the merge, which rejects them.
 */
export function unknownOptions(registry: Registry, spec: SpecInput, where?: string): MergeError[] {
  const out: MergeError[] = [];
  let entries: ReturnType<typeof normalizeSpec>;
  try {
    entries = normalizeSpec(spec);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!registry.has(entry.name)) continue;
    const plugin = registry.get(entry.name);
    if (plugin === undefined || plugin.freeOptions !== undefined) continue;
    const written =
      entry.optionText === undefined
        ? entry.options
        : entry.optionText.split(/[\s,]+/).filter((o) => o !== "");
    for (const option of written) {
      if (Object.hasOwn(plugin.options, option)) continue;
      out.push(
        new MergeError(
          "UNKNOWN_OPTION",
          `merger ${formatSpecEntry(entry)}: unknown option "${option}" (cloud-init ignores it)${didYouMean(option, Object.keys(plugin.options))}; valid options of "${plugin.name}": ${Object.keys(plugin.options).join(", ")}`,
          {
            plugin: plugin.name,
            source: where === undefined ? undefined : { file: where },
            details: { option, valid: Object.keys(plugin.options) },
          },
        ),
      );
    }
  }
  return out;
}

/**
 * Ends a --strict run that found problems: each is printed as an error, nothing is written, and the status is 1.
 * Returns undefined when there is nothing to report.
 */
export function strictFailure(io: CliIO, problems: readonly MergeError[]): number | undefined {
  if (problems.length === 0) return undefined;
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  for (const problem of problems)
    io.writeErr(
      `${paint.red("error:")} ${oneLine(formatMergeError(problem))}\n${errorExcerpt(problem, paint)}`,
    );
  io.writeErr(
    `${paint.red("error:")} --strict: ${problems.length} problem${problems.length === 1 ? "" : "s"}; nothing written [STRICT]\n`,
  );
  return 1;
}
