import { COMMANDS, type CommandInfo } from "./commands/table.js";

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd()).join("\n");
}

export function mainHelp(version: string): string {
  return `merge ${version}: layered configuration merging (cloud-init mergers, PillarStack, Salt's MySQL pillar)

Usage: merge <command> [options]

Commands:
${table(COMMANDS.map((command) => [command.name, command.summary]))}

Options:
${table([
  ["-h, --help", "show help (merge <command> --help for a command)"],
  ["-V, --version", "print the version"],
])}

Examples:
  merge docs base.yml override.yml
  merge cloud-config part1.yml part2.yml --explain
  merge stack examples/stack/config.cfg --minion-id test-1-dev --grains examples/stack/grains.yml \\
    --pillar examples/stack/pillar.yml

Exit status: 0 ok, 1 input or data error, 2 usage error, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM.
Colour on a terminal unless NO_COLOR is set; --color or FORCE_COLOR forces it, --no-color turns it off.
Also installed as merge-config (Debian's rcs package owns /usr/bin/merge).
`;
}

export function commandHelp(command: CommandInfo): string {
  return `Usage: ${command.usage}

${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.
${command.description}

Options:
${table(command.optionHelp)}

Examples:
${command.examples.map((line) => `  ${line}`).join("\n")}
`;
}
