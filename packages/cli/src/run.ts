import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type CommandInfo, findCommand } from "./commands/table.js";
import { commandHelp, mainHelp } from "./help.js";
import type { CliIO } from "./io.js";
import { oneLine, painter, useColor } from "./io.js";
import { EXIT_DATA, EXIT_OK, EXIT_USAGE } from "./cli-error.js";
import { isUsageError, UsageError } from "./usage.js";

let cachedVersion: string | undefined;

/** The package version, read from package.json next to dist/ (no JSON import, so nothing else is loaded). */
export function version(): string {
  if (cachedVersion === undefined) {
    const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
    cachedVersion = (JSON.parse(text) as { version: string }).version;
  }
  return cachedVersion;
}

/**
 * Runs the `merge` command line and returns the exit status. Everything it prints goes through `io`; it never
 * exits the process, so it can be called from tests and other programs.
 */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    return await runCommandLine(argv, io);
  } catch (error) {
    // Whatever fails (a command, printing the help to a full disk), the user sees one line, never a stack trace.
    if (isUsageError(error)) return usage(io, error);
    return reportFailure(io, error);
  }
}

async function runCommandLine(argv: readonly string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "-h" || first === "--help" || first === "help") {
    const topic = first === "help" ? rest[0] : undefined;
    const command = topic === undefined ? undefined : findCommand(topic);
    if (topic !== undefined && command === undefined)
      return usage(io, new UsageError(`unknown command "${topic}"`));
    const text = command === undefined ? mainHelp(version()) : commandHelp(command);
    // `merge` alone is a usage mistake: the help goes to standard error, so nothing lands in a pipe.
    if (first === undefined) {
      io.writeErr(text);
      return EXIT_USAGE;
    }
    await io.writeOut(text);
    return EXIT_OK;
  }
  if (first === "-V" || first === "--version") {
    await io.writeOut(`${version()}\n`);
    return EXIT_OK;
  }
  const command = findCommand(first);
  if (command === undefined) {
    const hint = first.startsWith("-") ? `unknown option "${first}"` : `unknown command "${first}"`;
    return usage(io, new UsageError(hint));
  }
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(command, rest);
  } catch (error) {
    if (isUsageError(error)) return usage(io, error);
    throw error;
  }
  if (parsed.values.help === true) {
    await io.writeOut(commandHelp(command));
    return EXIT_OK;
  }
  const module = await command.load();
  return await module.execute({ values: parsed.values, positionals: parsed.positionals, io });
}

/** Prints a coded error as `file:line:col: message (at path) [CODE]`; anything else is a bug in merge itself. */
async function reportFailure(io: CliIO, error: unknown): Promise<number> {
  const { failureReport } = await import("./report.js");
  io.writeErr(failureReport(error, io.env, io.stderrIsTTY));
  return EXIT_DATA;
}

function parseCommandLine(command: CommandInfo, args: readonly string[]) {
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...args],
      options: command.options,
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // node's text for an unknown option goes on about positionals; the first sentence is what matters.
    const first = message.split(/\. (?=To specify)/)[0]!;
    throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1), command.name);
  }
  if (parsed.values.help === true) return parsed;
  const [least, most] = command.positionals;
  if (parsed.positionals.length < least) {
    throw new UsageError(
      least === 1 ? "expected at least one input file" : `expected at least ${least} arguments`,
      command.name,
    );
  }
  if (most !== undefined && parsed.positionals.length > most) {
    const extra = parsed.positionals[most]!;
    throw new UsageError(`unexpected argument "${extra}"`, command.name);
  }
  return parsed;
}

function usage(io: CliIO, error: UsageError): number {
  const paint = painter(useColor(io.stderrIsTTY, io.env));
  const help = error.command === undefined ? "merge --help" : `merge ${error.command} --help`;
  io.writeErr(`${paint.red("merge:")} ${oneLine(error.message)} [USAGE]\nRun '${help}' for usage.\n`);
  return EXIT_USAGE;
}
