import { statSync } from "node:fs";
import { createRegistry, isMergeError, type MergerPlugin, type Registry } from "@merge/core";
import type { StackLoaderOptions, StackLookup } from "@merge/source-stack";
import { oneLine, painter, useColor, type CliIO } from "../io.js";
import { loadPluginModule } from "../plugins.js";
import { resolve } from "node:path";
import type { OutputFormat, YamlStyle } from "../render.js";
import { type ExplainInput, renderResult } from "./result.js";
import { didYouMean } from "../suggest.js";
import { UsageError } from "../usage.js";
import { writeOutputFile } from "../write-output.js";
import type { ParsedValues } from "./table.js";
import { builtinPlugins } from "./builtins.js";

export interface OutputOptions {
  readonly format: OutputFormat;
  readonly output: string | undefined;
  readonly explain: boolean;
  readonly plugins: readonly string[];
  /** `--get KEY`: print the value at this key only (Salt's `a:b:c`, dotted `a.b.c`, list indexes). */
  readonly get: string | undefined;
}

export function createOutputOptions(values: ParsedValues, command: string): OutputOptions {
  const format = (values.format as string | undefined) ?? "yaml";
  if (format !== "yaml" && format !== "json") {
    throw new UsageError(
      `--format must be yaml or json, not "${format}"${didYouMean(format, ["yaml", "json"])}`,
      command,
    );
  }
  const output = values.output as string | undefined;
  if (output === "") throw new UsageError("-o needs a file name", command);
  const get = values.get as string | undefined;
  if (get === "")
    throw new UsageError("--get needs a key, such as users:root:uid or users.root.uid", command);
  return {
    format,
    output,
    explain: values.explain === true,
    plugins: (values.plugin as string[] | undefined) ?? [],
    get,
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

/**
 * The end of every merging command: the result (exact model) rendered as the options say — whole, one `--get` key,
 * with `--explain` — and sent to `-o` or standard output; or handed to `merge diff` when it runs the command.
 */
export async function finish(
  io: CliIO,
  options: OutputOptions & { readonly yamlStyle?: YamlStyle },
  value: unknown,
  explain: ExplainInput,
  prefix = "",
): Promise<number> {
  if (io.capture !== undefined) {
    io.capture({ value, ...explain });
    return 0;
  }
  let text: string;
  try {
    text = renderResult(value, options, explain, prefix);
  } catch (error) {
    // `--get KEY --explain` for a key the result lacks but an input had: the story of how it went is the output, then
    // the command fails as `--get` does. With `-o FILE` nothing is written: the file would not hold the key.
    const story = isMergeError(error) ? error.details?.story : undefined;
    if (typeof story === "string" && (options.output === undefined || options.output === "-")) {
      await io.writeOut(story);
    }
    throw error;
  }
  await emit(io, text, options.output);
  return 0;
}

/** Tells `--watch` (through `io.onFile`) that the command read this file; the path is made absolute. */
export function noteFile(io: CliIO, path: string): void {
  io.onFile?.(resolve(io.cwd, path));
}

/**
 * Tells `--watch` (through `io.onSearch`) where a stack load looked for files that a new file could change: each
 * config file or line that matched nothing, and each glob line. `base` is the directory the loader resolved against.
 */
export function noteSearches(io: CliIO, base: string, searched: readonly StackLookup[]): void {
  if (io.onSearch === undefined) return;
  for (const lookup of searched) {
    const glob = lookup.kind === "line" && /[*?[]/.test(lookup.pattern);
    if (glob || lookup.matched === 0) io.onSearch({ pattern: resolve(io.cwd, base, lookup.pattern), glob });
  }
}

/**
 * What every stack load of a command gets from the process: the caches of compiled templates and parsed plain files,
 * and the callbacks that tell `--watch` what a load reads and looks for as it goes: so a load that fails still has
 * its files watched (the one that broke it too), and a `--minions` batch watches what every host read. `base` is the
 * directory the loader resolves against. No callbacks without `--watch`.
 */
export function stackLoaderHooks(
  io: CliIO,
  base: string,
): Pick<StackLoaderOptions, "onFile" | "onLookup" | "compiledTemplates" | "parsedDocuments"> {
  const cache = {
    ...(io.compiledTemplates === undefined ? {} : { compiledTemplates: io.compiledTemplates }),
    ...(io.parsedDocuments === undefined ? {} : { parsedDocuments: io.parsedDocuments }),
  };
  if (io.onFile === undefined && io.onSearch === undefined) return cache;
  return {
    ...cache,
    onFile: (file) => noteFile(io, resolve(io.cwd, base, file)),
    onLookup: (lookup) => noteSearches(io, base, [lookup]),
  };
}

/**
 * Runs a stack load; when it fails, tells `--watch` of the file the error names as its source (a template a computed
 * name included), when it is a file: fixing it is what renders again. `base` is as for `stackLoaderHooks`.
 */
export function noteFailure<T>(io: CliIO, base: string, load: () => T): T {
  try {
    return load();
  } catch (error) {
    const file = io.onFile === undefined || !isMergeError(error) ? undefined : error.source?.file;
    if (file !== undefined) {
      const path = resolve(io.cwd, base, file);
      if (statSync(path, { throwIfNoEntry: false })?.isFile() === true) io.onFile?.(path);
    }
    throw error;
  }
}

export function warn(io: CliIO, message: string): void {
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  io.writeErr(`${paint.yellow("warning:")} ${oneLine(message)}\n`);
}
