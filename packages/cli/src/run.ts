import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { COMMANDS, findCommand } from "./commands/table.js";
import { commandHelp, mainHelp } from "./help.js";
import type { CliIO } from "./io.js";
import { oneLine, painter, useColor } from "./io.js";
import { EXIT_DATA, EXIT_OK, EXIT_USAGE } from "./cli-error.js";
import { colorFlag, parseCommandLine } from "./parse-args.js";
import { didYouMean } from "./suggest.js";
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
 * The installed command (bin/merge.cjs, which runs the bundle with its compile cache) and the bundle (dist/bin.cjs).
 * This module is in dist/ both as tsc built it and inside the bundle.
 */
export function installedFiles(): { readonly bin: string; readonly bundle: string } {
  return {
    bin: fileURLToPath(new URL("../bin/merge.cjs", import.meta.url)),
    bundle: fileURLToPath(new URL("./bin.cjs", import.meta.url)),
  };
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
      return usage(io, new UsageError(`unknown command "${topic}"${commandHint(topic)}`));
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
    const hint = first.startsWith("-")
      ? `unknown option ${first}${didYouMean(first, ["--help", "--version"])}`
      : `unknown command "${first}"${commandHint(first)}`;
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
  const color = colorFlag(parsed.values);
  const commandIO = color === undefined ? io : { ...io, color };
  try {
    const module = await command.load();
    const input = { values: parsed.values, positionals: parsed.positionals, io: commandIO };
    if (parsed.values.watch === true) return await (await import("./watch.js")).watch(module, input);
    return await module.execute(input);
  } catch (error) {
    // Reported here so that --color / --no-color colour the message too.
    if (isUsageError(error)) return usage(commandIO, error);
    return reportFailure(commandIO, error);
  }
}

function commandHint(word: string): string {
  return didYouMean(
    word,
    COMMANDS.map((command) => command.name),
  );
}

/** Prints a coded error as `file:line:col: message (at path) [CODE]`; anything else is a bug in merge itself. */
async function reportFailure(io: CliIO, error: unknown): Promise<number> {
  const { failureReport } = await import("./report.js");
  io.writeErr(failureReport(error, io.env, io.stderrIsTTY, io.color));
  return EXIT_DATA;
}

function usage(io: CliIO, error: UsageError): number {
  const paint = painter(useColor(io.stderrIsTTY, io.env, io.color));
  const help = error.command === undefined ? "merge --help" : `merge ${error.command} --help`;
  io.writeErr(`${paint.red("merge:")} ${oneLine(error.message)} [USAGE]\nRun '${help}' for usage.\n`);
  return EXIT_USAGE;
}
