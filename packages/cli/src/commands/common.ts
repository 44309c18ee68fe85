import { createRegistry, type MergerPlugin, type Registry } from "@merge/core";
import { oneLine, painter, useColor, type CliIO } from "../io.js";
import { loadPluginModule } from "../plugins.js";
import type { OutputFormat } from "../render.js";
import { UsageError } from "../usage.js";
import { writeOutputFile } from "../write-output.js";
import type { ParsedValues } from "./table.js";
import { builtinPlugins } from "./builtins.js";

export interface OutputOptions {
  readonly format: OutputFormat;
  readonly output: string | undefined;
  readonly explain: boolean;
  readonly plugins: readonly string[];
}

export function createOutputOptions(values: ParsedValues, command: string): OutputOptions {
  const format = (values.format as string | undefined) ?? "yaml";
  if (format !== "yaml" && format !== "json") {
    throw new UsageError(`--format must be yaml or json, not "${format}"`, command);
  }
  const output = values.output as string | undefined;
  if (output === "") throw new UsageError("-o needs a file name", command);
  return {
    format,
    output,
    explain: values.explain === true,
    plugins: (values.plugin as string[] | undefined) ?? [],
  };
}

export function requiredString(values: ParsedValues, name: string, command: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`, command);
  return value;
}

/**
 * A fresh registry with the built-in mergers (cloud-init's `list`, `dict`, `str`; PillarStack's `stack`; only those
 * `spec` needs when it is given) and the plugins of every `--plugin`, registered in command-line order.
 */
export async function createCliRegistry(
  plugins: readonly string[],
  cwd: string,
  spec?: string,
): Promise<Registry> {
  const registry = createRegistry();
  for (const plugin of await builtinPlugins(spec)) registry.register(plugin);
  for (const specifier of plugins) {
    const loaded: MergerPlugin[] = await loadPluginModule(specifier, cwd);
    for (const plugin of loaded) registry.register(plugin);
  }
  return registry;
}

/**
 * Sends the finished text to `-o FILE` or standard output: one write, nothing partial. A regular file is replaced
 * atomically; a FIFO or device is written through; nothing else is replaced (see `writeOutputFile`).
 */
export async function emit(io: CliIO, text: string, output: string | undefined): Promise<void> {
  if (output === undefined || output === "-") await io.writeOut(text);
  else await writeOutputFile(output, text, io);
}

export function warn(io: CliIO, message: string): void {
  const paint = painter(useColor(io.stderrIsTTY, io.env));
  io.writeErr(`${paint.yellow("warning:")} ${oneLine(message)}\n`);
}
