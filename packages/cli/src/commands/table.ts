import type { CliIO } from "../io.js";

/** Option definitions in `node:util` parseArgs form. */
export type OptionSpec = Readonly<
  Record<
    string,
    { type: "string" | "boolean"; short?: string; multiple?: boolean; default?: string | boolean }
  >
>;

export type ParsedValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** What a command's implementation receives. */
export interface CommandInput {
  readonly values: ParsedValues;
  readonly positionals: readonly string[];
  readonly io: CliIO;
}

/** A command module (loaded lazily) exports `execute`; it returns the exit status. */
export interface CommandModule {
  execute(input: CommandInput): Promise<number>;
}

/**
 * Everything `--help` and argument parsing need, without loading the command itself: a command's module (and the
 * packages it uses) is imported only when the command runs, which keeps `merge --version` as cheap as `node -e 0`.
 */
export interface CommandInfo {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly description: string;
  readonly options: OptionSpec;
  /** Lines for the options section of `--help`: `[flags, text]`. */
  readonly optionHelp: readonly (readonly [string, string])[];
  readonly examples: readonly string[];
  /** Least and most positionals (undefined: no limit). */
  readonly positionals: readonly [number, number | undefined];
  /**
   * The command reads its arguments itself (`merge diff` takes another command's options): only `--help` is looked
   * at; everything is handed over as positionals.
   */
  readonly passThrough?: boolean;
  load(): Promise<CommandModule>;
}

/** Options every command that prints a result shares (see common.ts). */
const SHARED_OPTIONS: OptionSpec = {
  watch: { type: "boolean", short: "w" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

const OUTPUT_OPTIONS: OptionSpec = {
  plugin: { type: "string", multiple: true },
  format: { type: "string", short: "f" },
  output: { type: "string", short: "o" },
  explain: { type: "boolean" },
  get: { type: "string", short: "g" },
  ...SHARED_OPTIONS,
};

const SHARED_HELP: readonly (readonly [string, string])[] = [
  [
    "-w, --watch",
    "render again whenever a file the result was built from changes; never exits on a bad edit",
  ],
  ["--color, --no-color", "colour messages or not, whatever the terminal, NO_COLOR and FORCE_COLOR say"],
  ["-h, --help", "show this help"],
];

const OUTPUT_HELP: readonly (readonly [string, string])[] = [
  [
    "--plugin MODULE",
    "load merger plugins from a package name or a file (repeatable); see docs/authoring-plugins.md",
  ],
  ["-f, --format yaml|json", "output format (default yaml)"],
  ["-o, --output FILE", "write the result to FILE atomically instead of standard output"],
  [
    "-g, --get KEY",
    "print only the value at KEY: users:root:uid, users.root.uid, packages:0 (exit 1 if absent)",
  ],
  ["--explain", "annotate every value with the file:line it came from and the merger that decided it;"],
  ["", "with --get, tell the story of that one key (every input that had a value there, in order),"],
  ["", "or, for a key the result lacks, which input removed or replaced it"],
  ...SHARED_HELP,
];

const MINIONS_HELP: readonly [string, string] = [
  "--minions FILE",
  "many hosts in one run: a YAML/JSON list of {id, grains, pillar}; JSON Lines out, or -o DIR (one file each)",
];

/** Salt's commands read YAML as Salt does; the option exists on every command that reads YAML. */
const SALT_YAML_HELP: readonly [string, string] = [
  "--yaml 1.1",
  "YAML version of the files read: 1.1, with Salt's loader, as Salt reads them (the only choice here)",
];

const LEGACY_MYSQL_HELP: readonly [string, string] = [
  "--no-legacy-mysql-query",
  "mysql_query is an ordinary named query, as in Salt 2016.11+ (default: run first, at the top level)",
];

export const COMMANDS: readonly CommandInfo[] = [
  {
    name: "docs",
    summary: "merge YAML/JSON documents left to right with a merger spec",
    usage: "merge docs [--spec SPEC] [--yaml 1.1|1.2] FILE...",
    description:
      "Merges the documents in order, each into the result of the ones before, starting from {}. FILE may be - for\n" +
      "standard input. The spec names the mergers; the first that handles the kind of the old value decides.\n" +
      "The default is the seed's list(extend)+dict()+str(append) as the seed means it: its dict() merged every key\n" +
      "both documents have, which today's cloud-init mergers write list(extend)+dict(recurse_list,recurse_str)+\n" +
      "str(append). Lists are appended, strings joined, mappings merged, and the first file's numbers, booleans and\n" +
      "nulls stay. A spec you give means today's mergers: dict() alone keeps an existing key's lists and strings.\n" +
      "To let later files override, use --spec 'stack()' (later values win, mappings merged, lists appended).\n" +
      "An empty spec means the default. A spec without a mapping merger keeps {} and drops every document, as\n" +
      "cloud-init does; merge says so (MERGE_DROPPED).",
    options: {
      ...OUTPUT_OPTIONS,
      spec: { type: "string", short: "s" },
      strict: { type: "boolean" },
      yaml: { type: "string" },
    },
    optionHelp: [
      [
        "-s, --spec SPEC",
        "merger spec (default: the seed's, list(extend)+dict(recurse_list,recurse_str)+str(append))",
      ],
      ["--yaml 1.1|1.2", "read YAML 1.2 (default: on, yes and 0755 stay as written) or 1.1 as PyYAML does"],
      [
        "--strict",
        "exit 1 when the spec gives a merger an option it does not know, or has no merger for a mapping",
      ],
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge docs base.yml override.yml",
      "merge docs --spec 'stack()' base.yml override.yml",
      "merge docs --spec 'list(append)+dict(replace)' a.yml b.json -o merged.yml",
      "cat extra.yml | merge docs base.yml - --format json",
      "merge docs --plugin @merge/example-plugin-keyed-list --spec 'keyed(name)+stack()' users-base.yml users-site.yml",
      "merge docs --explain base.yml override.yml",
    ],
    positionals: [1, undefined],
    load: () => import("./docs.js"),
  },
  {
    name: "cloud-config",
    summary: "merge cloud-config parts (or a MIME multipart user-data file) as cloud-init does",
    usage:
      "merge cloud-config [--mode current|stack] [--instance-data FILE] [--system FILE] [--validate] PART...",
    description:
      "Each PART is a #cloud-config file or a MIME multipart user-data message (as cloud-init's make-mime writes).\n" +
      "Mergers come from each part's merge_how/merge_type and Merge-Type headers. Parts cloud-init would reject are\n" +
      "listed on standard error; the merged #cloud-config goes to standard output as cloud-init writes it.\n" +
      "## template: jinja parts are rendered with --instance-data (without it cloud-init would skip them).\n" +
      "With --system, the result is what cloud-init's modules see: the user-data merged over the system\n" +
      "configuration (FILE and its conf.d), without the datasource's, the kernel command line's or built-in settings.",
    options: {
      ...OUTPUT_OPTIONS,
      mode: { type: "string", short: "m" },
      "instance-data": { type: "string" },
      system: { type: "string" },
      confd: { type: "string" },
      validate: { type: "boolean" },
      schema: { type: "string" },
      strict: { type: "boolean" },
      yaml: { type: "string" },
    },
    optionHelp: [
      [
        "-m, --mode current|stack",
        "current: each part's mergers apply to itself, as cloud-init does (default);",
      ],
      ["", "stack: each part's mergers apply to the parts after it (the design in cloud-init's docs)"],
      [
        "--instance-data FILE",
        "instance-data JSON to render ## template: jinja parts with, as cloud-init does",
      ],
      [
        "--system FILE",
        "merge the result over the system configuration FILE (/etc/cloud/cloud.cfg) and its conf.d",
      ],
      ["--confd DIR", "with --system: read DIR instead of the conf.d directory cloud-init would find"],
      [
        "--validate",
        "validate the result against cloud-init's JSON schema; each error names the part and line",
      ],
      ["--schema FILE", "the schema to validate with (default: the installed cloud-init's)"],
      ["--strict", "exit 1 when a part is rejected, a merger or option is unknown, or validation fails"],
      ["--yaml 1.1|1.2", "read parts as YAML 1.1 as cloud-init does (default) or as YAML 1.2"],
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge cloud-config part1.yml part2.yml",
      "merge cloud-config user-data.mime --instance-data instance-data.json",
      "merge cloud-config --mode stack --explain part1.yml part2.yml",
      "merge cloud-config --system /etc/cloud/cloud.cfg --validate --strict user-data.mime",
    ],
    positionals: [1, undefined],
    load: () => import("./cloud-config.js"),
  },
  {
    name: "system-config",
    summary: "merge cloud-init's system configuration (cloud.cfg and its conf.d) as cloud-init reads it",
    usage: "merge system-config FILE [--confd DIR] [--instance-data FILE] [--validate]",
    description:
      "Reads FILE (cloud-init's is /etc/cloud/cloud.cfg) and the *.cfg files of its conf.d directory (the conf_d\n" +
      "key of FILE, else FILE.d) as cloud-init 22.4 does: conf.d wins over FILE, a later file in sorted order wins\n" +
      "over an earlier one, merge_how/merge_type in a file decide how it merges. Files cloud-init steps over (bad\n" +
      "YAML, not a mapping) are warnings; where cloud-init would stop with an error, so does this command.",
    options: {
      ...OUTPUT_OPTIONS,
      confd: { type: "string" },
      "instance-data": { type: "string" },
      validate: { type: "boolean" },
      schema: { type: "string" },
      strict: { type: "boolean" },
      yaml: { type: "string" },
    },
    optionHelp: [
      ["--confd DIR", "read DIR instead of the conf.d directory cloud-init would find"],
      [
        "--instance-data FILE",
        "instance-data JSON to render ## template: jinja files with, as cloud-init does",
      ],
      [
        "--validate",
        "validate the result against cloud-init's JSON schema; each error names the file and line",
      ],
      ["--schema FILE", "the schema to validate with (default: the installed cloud-init's)"],
      ["--strict", "exit 1 when a file is ignored, a merger option is unknown, or validation fails"],
      ["--yaml 1.1|1.2", "read the files as YAML 1.1 as cloud-init does (default) or as YAML 1.2"],
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge system-config /etc/cloud/cloud.cfg",
      "merge system-config cloud.cfg --confd cloud.cfg.d --explain",
      "merge system-config /etc/cloud/cloud.cfg --validate --strict",
    ],
    positionals: [1, 1],
    load: () => import("./system-config.js"),
  },
  {
    name: "stack",
    summary: "render a PillarStack for one minion, as Salt's stack ext_pillar does",
    usage:
      "merge stack CONFIG... (--minion-id ID [--pillar FILE] [--grains FILE] | --minions FILE) [--opts FILE] [--spec SPEC]",
    description:
      "Renders each stack config (a template listing YAML files), then each listed file, and merges them in order\n" +
      "with PillarStack's strategies (merge-last, merge-first, remove, overwrite) or with --spec.",
    options: {
      ...OUTPUT_OPTIONS,
      yaml: { type: "string" },
      "minion-id": { type: "string" },
      pillar: { type: "string" },
      grains: { type: "string" },
      opts: { type: "string" },
      spec: { type: "string", short: "s" },
      minions: { type: "string" },
    },
    optionHelp: [
      ["--minion-id ID", "the minion to render the stack for (required unless --minions)"],
      MINIONS_HELP,
      ["--pillar FILE", "YAML/JSON file with the pillar seen by the templates (`pillar`)"],
      ["--grains FILE", "YAML/JSON file with the minion's grains (`__grains__`)"],
      ["--opts FILE", "YAML/JSON file with the master options (`__opts__`)"],
      [
        "-s, --spec SPEC",
        "merge with these mergers instead of PillarStack's strategies, e.g. list(extend)+dict()",
      ],
      SALT_YAML_HELP,
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge stack examples/stack/config.cfg --minion-id test-1-dev --grains examples/stack/grains.yml --pillar examples/stack/pillar.yml",
      "merge stack stack.cfg --minion-id web1 --pillar pillar.yml --explain",
      "merge stack stack.cfg --minion-id web1 --spec 'list(extend)+dict()+str()' --format json",
      "merge stack stack.cfg --minions hosts.yml -o out/",
    ],
    positionals: [1, undefined],
    load: () => import("./stack.js"),
  },
  {
    name: "mysql",
    summary: "run Salt's MySQL ext_pillar queries for one minion",
    usage: "merge mysql --config FILE --minion-id ID [--no-legacy-mysql-query]",
    description:
      "FILE is a Salt-master-style YAML file with the connection (a mysql: block or mysql.host, mysql.user, ...\n" +
      "keys) and an ext_pillar: list whose mysql entries are run in order.",
    options: {
      ...OUTPUT_OPTIONS,
      yaml: { type: "string" },
      config: { type: "string", short: "c" },
      "minion-id": { type: "string" },
      "no-legacy-mysql-query": { type: "boolean" },
    },
    optionHelp: [
      ["-c, --config FILE", "Salt-master-style YAML with mysql: and ext_pillar: (required)"],
      ["--minion-id ID", "the minion id bound to every %s in the queries (required)"],
      LEGACY_MYSQL_HELP,
      SALT_YAML_HELP,
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge mysql --config examples/mysql/master.yml --minion-id minion1",
      "merge mysql --config master.yml --minion-id web1 --no-legacy-mysql-query",
    ],
    positionals: [0, 0],
    load: () => import("./mysql.js"),
  },
  {
    name: "pillar",
    summary:
      "compile a minion's external pillar from a Salt master config (stack and mysql entries, in order)",
    usage:
      "merge pillar --config FILE (--minion-id ID [--grains FILE] [--pillar FILE] | --minions FILE) [--no-legacy-mysql-query]",
    description:
      "Runs the ext_pillar: list of a Salt-master-style config the way Salt does: each external pillar sees the\n" +
      "pillar compiled so far, and the results are merged in order.",
    options: {
      ...OUTPUT_OPTIONS,
      yaml: { type: "string" },
      config: { type: "string", short: "c" },
      "minion-id": { type: "string" },
      grains: { type: "string" },
      pillar: { type: "string" },
      "no-legacy-mysql-query": { type: "boolean" },
      minions: { type: "string" },
    },
    optionHelp: [
      ["-c, --config FILE", "Salt-master-style YAML with ext_pillar: (and mysql: when it has mysql entries)"],
      ["--minion-id ID", "the minion to compile the pillar for (required unless --minions)"],
      MINIONS_HELP,
      ["--grains FILE", "YAML/JSON file with the minion's grains"],
      [
        "--pillar FILE",
        "YAML/JSON file with the pillar compiled before the external ones: they see it, the result starts from it",
      ],
      LEGACY_MYSQL_HELP,
      SALT_YAML_HELP,
      ...OUTPUT_HELP,
    ],
    examples: [
      "merge pillar --config master.yml --minion-id web1 --grains grains.yml --explain",
      "merge pillar --config master.yml --minions hosts.yml > pillars.jsonl",
    ],
    positionals: [0, 0],
    load: () => import("./pillar.js"),
  },
  {
    name: "mergers",
    summary: "list the registered mergers and their options",
    usage: "merge mergers [--plugin MODULE]... [--format text|json]",
    description: "Shows every merger a spec can name (built-in and loaded with --plugin) with its options.",
    options: {
      plugin: { type: "string", multiple: true },
      format: { type: "string", short: "f" },
      color: { type: "boolean" },
      "no-color": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    optionHelp: [
      ["--plugin MODULE", "also load merger plugins from a package name or a file (repeatable)"],
      ["-f, --format text|json", "text for people (default) or JSON for programs"],
      ["-h, --help", "show this help"],
    ],
    examples: ["merge mergers", "merge mergers --plugin ./my-plugin.js", "merge mergers --format json"],
    positionals: [0, 0],
    load: () => import("./mergers.js"),
  },
  {
    name: "diff",
    summary: "compare two results: two hosts of one tree, one host in two trees, or a file before and after",
    usage: "merge diff OLD NEW | merge diff COMMAND ARGS... (--OPTION A --OPTION B | --against DIR)",
    description:
      "Prints the paths added, removed and changed from the first result to the second, each with where its value\n" +
      "came from on both sides. OLD and NEW are YAML/JSON files. With a command (docs, cloud-config, stack, mysql,\n" +
      "pillar), a single-value option given twice sets the two sides (--minion-id web1 --minion-id web2); or\n" +
      "--against DIR runs the same command line in DIR, a copy or a checkout of another revision.\n" +
      "Exit status: 0 the same, 1 different, 2 trouble (an error on either side, a usage mistake), as diff(1).",
    options: {
      against: { type: "string" },
      format: { type: "string", short: "f" },
      watch: { type: "boolean", short: "w" },
      color: { type: "boolean" },
      "no-color": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    optionHelp: [
      ["--against DIR", "the second side is the same command run in DIR (relative paths read there)"],
      ["-f, --format text|json", "text for people (default) or JSON for programs"],
      [
        "-w, --watch",
        "compare again whenever a file either side was built from changes; never exits on a bad edit",
      ],
      ["--color, --no-color", "colour the changes or not"],
      ["-h, --help", "show this help"],
    ],
    examples: [
      "merge diff old.yml new.yml",
      "merge diff stack stack.cfg --minion-id web1 --minion-id web2 --grains web.yml",
      "merge diff stack stack.cfg --minion-id web1 --against ../pillar-main",
      "merge diff cloud-config --mode current --mode stack part1.yml part2.yml",
    ],
    positionals: [2, undefined],
    passThrough: true,
    load: () => import("./diff.js"),
  },
  {
    name: "daemon",
    summary: "keep a warm merge running for your commands: start, stop or status",
    usage:
      "merge daemon start [--idle-timeout DURATION] | merge daemon stop | merge daemon status [--format json]",
    description:
      "Starts a merge process of your own in the background. While it runs, every merge command you type is run\n" +
      "there, warm, instead of starting Node's and merge's code afresh: the same output, status and files, in a\n" +
      "fraction of the time. Commands it cannot run as their own process would (--watch, --plugin, /dev and\n" +
      "/proc files, other Node options, another build of merge) run themselves. MERGE_NO_DAEMON=1 bypasses it.\n" +
      "It listens on $XDG_RUNTIME_DIR/merge/daemon.sock (else $TMPDIR/merge-UID/), a directory only you may\n" +
      'enter, and stops after --idle-timeout without a command (default 2h). See docs/cli.md, "merge daemon".',
    options: {
      "idle-timeout": { type: "string" },
      format: { type: "string", short: "f" },
      help: { type: "boolean", short: "h" },
    },
    optionHelp: [
      ["--idle-timeout DURATION", "start: stop after this long without a command: 90s, 30m, 8h (default 2h)"],
      ["-f, --format text|json", "status: text for people (default) or JSON for programs"],
      ["-h, --help", "show this help"],
    ],
    examples: [
      "merge daemon start",
      "merge daemon start --idle-timeout 8h",
      "merge daemon status",
      "merge daemon stop",
    ],
    positionals: [1, 1],
    load: () => import("./daemon.js"),
  },
  {
    name: "completion",
    summary: "print a completion script for bash, zsh or fish",
    usage: "merge completion bash|zsh|fish",
    description:
      "Prints a script that completes merge's commands, options, option values and file names in your shell.\n" +
      "bash: source <(merge completion bash)   (or save it in ~/.local/share/bash-completion/completions/merge)\n" +
      'zsh:  merge completion zsh > "${fpath[1]}/_merge"   (or source <(merge completion zsh) after compinit)\n' +
      "fish: merge completion fish > ~/.config/fish/completions/merge.fish\n" +
      "The script completes merge-config too (the same command, for systems where rcs owns /usr/bin/merge).",
    options: { help: { type: "boolean", short: "h" } },
    optionHelp: [["-h, --help", "show this help"]],
    examples: ["merge completion bash", "merge completion fish > ~/.config/fish/completions/merge.fish"],
    positionals: [1, 1],
    load: () => import("./completion.js"),
  },
];

export function findCommand(name: string): CommandInfo | undefined {
  return COMMANDS.find((command) => command.name === name);
}
