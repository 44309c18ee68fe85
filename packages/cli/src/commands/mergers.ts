import { createCliRegistry, emit } from "./common.js";
import type { CommandInput } from "./table.js";

/** `merge mergers`: every merger a spec can name, with its options, as one would read it in the docs. */
export async function execute({ values, io }: CommandInput): Promise<number> {
  const registry = await createCliRegistry((values.plugin as string[] | undefined) ?? [], io.cwd);
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
