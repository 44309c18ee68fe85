import { jsonText } from "../render.js";
import { didYouMean } from "../suggest.js";
import { UsageError } from "../usage.js";
import { createCliRegistry, emit } from "./common.js";
import type { CommandInput } from "./table.js";

/** `merge mergers`: every merger a spec can name, with its options, as one would read it in the docs (or JSON). */
export async function execute({ values, io }: CommandInput): Promise<number> {
  const format = (values.format as string | undefined) ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError(
      `--format must be text or json, not "${format}"${didYouMean(format, ["text", "json"])}`,
      "mergers",
    );
  }
  const registry = await createCliRegistry((values.plugin as string[] | undefined) ?? [], io.cwd);
  if (format === "json") {
    const list = registry.plugins().map((plugin) => ({
      name: plugin.name,
      kinds: plugin.kinds,
      description: plugin.description ?? null,
      options: Object.entries(plugin.options).map(([name, description]) => ({ name, description })),
      freeOptions: plugin.freeOptions ?? null,
    }));
    await emit(io, jsonText({ mergers: list }), undefined);
    return 0;
  }
  const lines: string[] = [];
  for (const plugin of registry.plugins()) {
    lines.push(
      `${plugin.name}  (handles ${plugin.kinds.join(", ")})${plugin.description ? `: ${plugin.description}` : ""}`,
    );
    const options = Object.entries(plugin.options);
    const width = Math.max(0, ...options.map(([name]) => name.length));
    for (const [name, text] of options) lines.push(`  ${name.padEnd(width)}  ${text}`);
    if (plugin.freeOptions !== undefined) lines.push(`  ${"<value>".padEnd(width)}  ${plugin.freeOptions}`);
  }
  if (lines.length === 0) lines.push("(no mergers registered)");
  await emit(io, `${lines.join("\n")}\n`, undefined);
  return 0;
}
