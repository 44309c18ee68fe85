import { didYouMean } from "../suggest.js";
import { UsageError } from "../usage.js";
import { emit } from "./common.js";
import { COMMANDS, type CommandInfo } from "./table.js";
import type { CommandInput } from "./table.js";

/**
 * `merge completion bash|zsh|fish`: a completion script written from the command table, so it completes exactly the
 * commands and options `--help` shows. Written here rather than with a completion library: the ones for Node
 * (`@bomb.sh/tab`, `tabtab`) answer each TAB by starting the program again and turn the shell's own file-name
 * completion off, while most of merge's arguments are files; a static script answers at once and leaves file names
 * to the shell.
 */
export async function execute({ positionals, io }: CommandInput): Promise<number> {
  const shell = positionals[0]!;
  const write = SHELLS[shell];
  if (write === undefined) {
    throw new UsageError(
      `unknown shell "${shell}": bash, zsh or fish${didYouMean(shell, Object.keys(SHELLS))}`,
      "completion",
    );
  }
  await emit(io, write(COMMANDS), undefined);
  return 0;
}

/** The names the command is installed under (Debian's rcs package owns /usr/bin/merge). */
const NAMES = ["merge", "merge-config"];

/** What an option's value is, for completion: a fixed choice, a file, a directory, or free text. */
type ValueKind = { readonly choices: readonly string[] } | "file" | "dir" | "text" | "none";

function valueKind(command: CommandInfo, name: string): ValueKind {
  const spec = command.options[name]!;
  if (spec.type === "boolean") return "none";
  if (name === "format") {
    return {
      choices: ["mergers", "diff", "daemon"].includes(command.name) ? ["text", "json"] : ["yaml", "json"],
    };
  }
  if (name === "mode") return { choices: ["current", "stack"] };
  if (name === "against") return "dir";
  if (["output", "pillar", "grains", "opts", "config", "plugin", "minions"].includes(name)) return "file";
  return "text";
}

/** An option's one-line description, from the command's help table. */
function describeOption(command: CommandInfo, name: string): string {
  const row = command.optionHelp.find(([flags]) => flags.split(/[ ,]+/).includes(`--${name}`));
  return (row?.[1] ?? "").replace(/;$/, "");
}

/** The command's positionals: files, shells (`completion`), or commands and files (`diff`). */
function positionalWords(command: CommandInfo): readonly string[] | undefined {
  if (command.name === "completion") return ["bash", "zsh", "fish"];
  if (command.name === "daemon") return ["start", "stop", "status"];
  if (command.name === "diff") return ["docs", "cloud-config", "stack", "mysql", "pillar"];
  return undefined;
}

function takesFiles(command: CommandInfo): boolean {
  return command.positionals[1] !== 0 && command.name !== "completion" && command.name !== "daemon";
}

function shQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function bash(commands: readonly CommandInfo[]): string {
  const lines = [
    "# bash completion for merge and merge-config, written by `merge completion bash`.",
    "# Use: source <(merge completion bash), or save it as ~/.local/share/bash-completion/completions/merge",
    "_merge_completion() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" i',
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    '    case "${COMP_WORDS[i]}" in -*) ;; *) cmd="${COMP_WORDS[i]}"; break ;; esac',
    "  done",
    '  if [[ -z "$cmd" ]]; then',
    `    COMPREPLY=($(compgen -W ${shQuote([...commands.map((c) => c.name), "help", "--help", "--version"].join(" "))} -- "$cur"))`,
    "    return",
    "  fi",
    '  case "$cmd" in',
  ];
  for (const command of commands) {
    lines.push(`    ${command.name})`);
    lines.push('      case "$prev" in');
    for (const [name, spec] of Object.entries(command.options)) {
      const kind = valueKind(command, name);
      if (kind === "none") continue;
      const flags = [`--${name}`, ...(spec.short === undefined ? [] : [`-${spec.short}`])].join("|");
      if (kind === "file" || kind === "text") {
        // Nothing here: `complete -o default` falls back to file names.
        lines.push(`        ${flags}) return ;;`);
      } else if (kind === "dir") {
        lines.push(`        ${flags}) COMPREPLY=($(compgen -d -- "$cur")); return ;;`);
      } else {
        lines.push(
          `        ${flags}) COMPREPLY=($(compgen -W ${shQuote(kind.choices.join(" "))} -- "$cur")); return ;;`,
        );
      }
    }
    lines.push("      esac");
    const options = Object.entries(command.options).flatMap(([name, spec]) =>
      spec.short === undefined ? [`--${name}`] : [`--${name}`, `-${spec.short}`],
    );
    lines.push(
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${shQuote(options.join(" "))} -- "$cur")); return; fi`,
    );
    const words = positionalWords(command);
    if (words !== undefined) {
      lines.push(`      COMPREPLY=($(compgen -W ${shQuote(words.join(" "))} -- "$cur"))`);
    }
    lines.push("      ;;");
  }
  lines.push("  esac", "}", `complete -o default -F _merge_completion ${NAMES.join(" ")}`, "");
  return lines.join("\n");
}

function zshQuote(text: string): string {
  // Inside _arguments specs `[`, `]` and `:` are special; the description is single-quoted for the shell.
  return text.replaceAll("'", "'\\''").replaceAll("[", "(").replaceAll("]", ")").replaceAll(":", "\\:");
}

function zsh(commands: readonly CommandInfo[]): string {
  const lines = [
    `#compdef ${NAMES.join(" ")}`,
    "# zsh completion for merge and merge-config, written by `merge completion zsh`.",
    '# Use: merge completion zsh > "${fpath[1]}/_merge" (then start a new shell), or source <(merge completion zsh)',
    "_merge() {",
    "  local -a commands",
    "  commands=(",
    ...commands.map((command) => `    '${command.name}:${zshQuote(command.summary)}'`),
    "  )",
    "  if (( CURRENT == 2 )); then",
    "    _describe -t commands 'merge command' commands",
    "    return",
    "  fi",
    "  local cmd=$words[2]",
    "  shift words",
    "  (( CURRENT-- ))",
    "  case $cmd in",
  ];
  for (const command of commands) {
    lines.push(`    ${command.name})`);
    const specs: string[] = [];
    for (const [name, spec] of Object.entries(command.options)) {
      const kind = valueKind(command, name);
      const text = zshQuote(describeOption(command, name));
      const action =
        kind === "none"
          ? ""
          : kind === "file"
            ? `:${name}:_files`
            : kind === "dir"
              ? `:${name}:_files -/`
              : kind === "text"
                ? `:${name}: `
                : `:${name}:(${kind.choices.join(" ")})`;
      const repeat = spec.multiple === true ? "*" : "";
      if (spec.short === undefined) specs.push(`'${repeat}--${name}[${text}]${action}'`);
      else {
        const exclusive = spec.multiple === true ? "*" : `(-${spec.short} --${name})`;
        specs.push(`'${exclusive}'{-${spec.short},--${name}}'[${text}]${action}'`);
      }
    }
    const words = positionalWords(command);
    if (words !== undefined) specs.push(`'*:argument:(${words.join(" ")})'`);
    else if (takesFiles(command)) specs.push("'*:file:_files'");
    lines.push(`      _arguments -s ${specs.join(" \\\n        ")}`);
    lines.push("      ;;");
  }
  lines.push(
    "  esac",
    "}",
    'if [ "$funcstack[1]" = "_merge" ]; then',
    '  _merge "$@"',
    "else",
    `  compdef _merge ${NAMES.join(" ")}`,
    "fi",
    "",
  );
  return lines.join("\n");
}

function fishQuote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function fish(commands: readonly CommandInfo[]): string {
  const lines = [
    "# fish completion for merge and merge-config, written by `merge completion fish`.",
    "# Use: merge completion fish > ~/.config/fish/completions/merge.fish",
  ];
  const names = commands.map((command) => command.name).join(" ");
  for (const program of NAMES) {
    const c = `complete -c ${program}`;
    lines.push(
      `${c} -f -n "not __fish_seen_subcommand_from ${names}" -l help -s h -d 'show help'`,
      `${c} -f -n "not __fish_seen_subcommand_from ${names}" -l version -s V -d 'print the version'`,
    );
    for (const command of commands) {
      lines.push(
        `${c} -f -n "not __fish_seen_subcommand_from ${names}" -a ${command.name} -d ${fishQuote(command.summary)}`,
      );
      const when = `-n "__fish_seen_subcommand_from ${command.name}"`;
      for (const [name, spec] of Object.entries(command.options)) {
        const kind = valueKind(command, name);
        const short = spec.short === undefined ? "" : ` -s ${spec.short}`;
        const value =
          kind === "none"
            ? ""
            : kind === "file"
              ? " -r -F"
              : kind === "dir"
                ? " -x -a '(__fish_complete_directories)'"
                : kind === "text"
                  ? " -x"
                  : ` -x -a ${fishQuote(kind.choices.join(" "))}`;
        lines.push(`${c} ${when} -l ${name}${short}${value} -d ${fishQuote(describeOption(command, name))}`);
      }
      const words = positionalWords(command);
      if (words !== undefined) lines.push(`${c} ${when} -f -a ${fishQuote(words.join(" "))}`);
      else if (!takesFiles(command)) lines.push(`${c} ${when} -f`);
    }
  }
  lines.push("");
  return lines.join("\n");
}

const SHELLS: Readonly<Record<string, (commands: readonly CommandInfo[]) => string>> = { bash, zsh, fish };
