import { parseArgs } from "node:util";
import type { CommandInfo, OptionSpec, ParsedValues } from "./commands/table.js";
import { didYouMean } from "./suggest.js";
import { UsageError } from "./usage.js";

export interface ParsedCommandLine {
  readonly values: ParsedValues;
  readonly positionals: string[];
}

/** `-o/--output`, or `--get` for an option without a short form: how messages name an option. */
export function optionName(name: string, spec: OptionSpec[string]): string {
  return spec.short === undefined ? `--${name}` : `-${spec.short}/--${name}`;
}

/** Every spelling of the command's options, for suggestions (`--fromat` → `--format`). */
function spellings(options: OptionSpec): string[] {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(options)) {
    out.push(`--${name}`);
    if (spec.short !== undefined) out.push(`-${spec.short}`);
  }
  return out;
}

/**
 * Reads a command's arguments with `node:util`'s parser, then checks them and says what is wrong in merge's own
 * words (never the parser's "Option '-o, --output <value>' argument missing"): an unknown option with the nearest
 * known one, an option that needs a value and got none (or got the next option), a switch given a value, a
 * single-value option given twice, too few or too many arguments.
 */
export function parseCommandLine(command: CommandInfo, args: readonly string[]): ParsedCommandLine {
  if (command.passThrough === true) {
    const help = args.includes("--help") || args.includes("-h");
    return { values: help ? { help: true } : {}, positionals: [...args] };
  }
  const parsed = parseArgs({
    args: [...args],
    options: command.options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const seen = new Map<string, string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== "option") continue;
    const spec = command.options[token.name];
    if (spec === undefined) {
      throw new UsageError(
        `unknown option ${token.rawName}${didYouMean(token.rawName, spellings(command.options))}`,
        command.name,
      );
    }
    const name = optionName(token.name, spec);
    if (spec.type === "boolean") {
      if (token.inlineValue === true) throw new UsageError(`${name} takes no value`, command.name);
      continue;
    }
    if (token.value === undefined) throw new UsageError(`${name} needs a value`, command.name);
    if (token.inlineValue !== true && token.value.startsWith("-") && token.value !== "-") {
      throw new UsageError(
        `${name} needs a value, but the next argument is the option ${token.value} (write ${token.rawName}=${token.value} if that is the value)`,
        command.name,
      );
    }
    if (spec.multiple !== true) {
      const before = seen.get(token.name);
      if (before !== undefined && before !== token.value) {
        throw new UsageError(
          `${name} was given twice (${before}, ${token.value}); give it once, or compare the two results with 'merge diff ${command.name} ...'`,
          command.name,
        );
      }
      seen.set(token.name, token.value);
    }
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help === true) return { values, positionals: parsed.positionals };
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
  return { values, positionals: parsed.positionals };
}

/** The colour flag of a parsed command line: `--color` true, `--no-color` false, neither undefined. */
export function colorFlag(values: ParsedValues): boolean | undefined {
  if (values["no-color"] === true) return false;
  if (values.color === true) return true;
  return undefined;
}
