/**
 * A generated PillarStack tree of the shape issue 13 measured Salt against: 40 YAML files of 27–87 lines and a
 * templated config that lists core, common/*, the host's architecture, release, roles and its own file (13–15
 * files per host). Deterministic: the same tree on every run. Also the hosts of a batch (`--minions`) for it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { random } from "./data.js";

export const TREE_ARCHS = ["amd64", "arm64", "armhf"] as const;
export const TREE_CODENAMES = ["bullseye", "bookworm", "trixie", "jammy"] as const;
export const TREE_ROLES = ["web", "db", "cache", "mail", "dns", "monitor", "backup", "lb"] as const;
const COMMON = ["accounts", "apt", "logging", "ntp", "security", "shell", "ssh", "sysctl"] as const;
/** Hosts that have a file of their own under minions/ (others get none, as in a real tree). */
const MINION_FILES = 16;

export const TREE_CONFIG = `core.yml
common/*.yml
arch/{{ __grains__['osarch'] }}.yml
codename/{{ __grains__['oscodename'] }}.yml
{%- for role in pillar.get('roles', []) %}
roles/{{ role }}.yml
{%- endfor %}
minions/{{ minion_id }}.yml
`;

export interface TreeHost {
  readonly id: string;
  readonly grains: Record<string, unknown>;
  readonly pillar: Record<string, unknown>;
}

/** The `index`-th host: architecture, release and one to three roles vary with it; the first 16 have own files. */
export function treeHost(index: number): TreeHost {
  const roles = [TREE_ROLES[index % 8]!];
  if (index % 3 === 0) roles.push(TREE_ROLES[(index + 3) % 8]!);
  if (index % 5 === 0) roles.push(TREE_ROLES[(index + 5) % 8]!);
  const id = `node${String(index).padStart(3, "0")}.example.org`;
  return {
    id,
    grains: {
      id,
      os: index % 4 === 3 ? "Ubuntu" : "Debian",
      osarch: TREE_ARCHS[index % 3]!,
      oscodename: TREE_CODENAMES[index % 4]!,
      num_cpus: 2 + (index % 4) * 2,
      mem_total: 4096 * (1 + (index % 8)),
      ipv4: [`10.${index >> 8}.${index & 255}.10`, "127.0.0.1"],
    },
    pillar: { roles: [...new Set(roles)], environment: index % 3 === 0 ? "prod" : "staging" },
  };
}

export function treeHosts(count: number): TreeHost[] {
  return Array.from({ length: count }, (_, index) => treeHost(index));
}

/** Writes the tree into a fresh temporary directory (or `dir`) and returns the directory. */
export function writeSaltTree(dir = mkdtempSync(join(tmpdir(), "merge-salt-tree-"))): string {
  const rand = random(13);
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  let index = 0;
  // Line counts spread over 27..87 as the measured tree's were.
  const lines = () => 27 + ((index++ * 37) % 58);
  write("stack.cfg", TREE_CONFIG);
  write("core.yml", yamlFile("core", lines(), rand, "core"));
  for (const name of COMMON) write(`common/${name}.yml`, yamlFile(name, lines(), rand, "common"));
  for (const arch of TREE_ARCHS) write(`arch/${arch}.yml`, yamlFile(arch, lines(), rand, "arch"));
  for (const codename of TREE_CODENAMES) {
    write(`codename/${codename}.yml`, yamlFile(codename, lines(), rand, "codename"));
  }
  for (const role of TREE_ROLES) write(`roles/${role}.yml`, yamlFile(role, lines(), rand, "role"));
  for (let i = 0; i < MINION_FILES; i++) {
    const { id } = treeHost(i);
    write(`minions/${id}.yml`, yamlFile(id, lines(), rand, "minion"));
  }
  return dir;
}

type Kind = "core" | "common" | "arch" | "codename" | "role" | "minion";

/**
 * One YAML file of about `target` lines: the sections of real pillars (each top-level key once, as Salt's loader
 * refuses duplicates), grown entry by entry in turn; in core, role and minion files one section is
 * templated on the host's grains and pillar.
 */
function yamlFile(name: string, target: number, rand: () => number, kind: Kind): string {
  const pick = (n: number) => Math.floor(rand() * n);
  const stem = name.split(".")[0]!.replace(/[^a-z0-9]/g, "_");
  const sections = new Map<string, string[]>();
  // A minion's own file overrides a mapping outright, as PillarStack's strategies allow.
  const tail = kind === "minion" ? ["ntp:", "  __: overwrite", "  servers:", "    - ntp.example.org"] : [];
  const entry: ((key: string) => string[])[] = [
    (key) => [`  - ${key}-pkg`],
    (key) => [
      `  ${key}:`,
      `    uid: ${1000 + pick(5000)}`,
      "    shell: /bin/bash",
      "    groups:",
      "      - adm",
    ],
    (key) => [`  net.core.${key}: ${pick(65536)}`],
    (key) =>
      [
        `  ${key}:`,
        `    enabled: ${pick(2) === 0}`,
        `    port: ${1024 + pick(60000)}`,
        "    options:",
      ].concat([`      timeout: ${pick(120)}s`, `      mode: '0${pick(8)}${pick(8)}${pick(8)}'`]),
    (key) =>
      [`  ${key}:`, "    id: {{ minion_id }}", "    arch: {{ __grains__['osarch'] }}"].concat([
        "{%- if pillar.get('environment') == 'prod' %}",
        "    tier: production",
        "{%- else %}",
        "    tier: {{ pillar.get('environment', 'dev') }}",
        "{%- endif %}",
      ]),
    (key) => [
      `  /etc/${kind}/${key}.conf:`,
      "    owner: root",
      "    mode: '0644'",
      `    source: salt://${key}`,
    ],
    (key) => [`  - name: ${key}`, `    interval: ${10 + pick(50)}`],
  ];
  const heads = ["packages", "users", "sysctl", "services", "host_facts", "files", "checks"];
  let lines = 1 + tail.length;
  for (let n = 0; lines < target; n++) {
    let which = (n + name.length) % entry.length;
    // Most files are plain YAML; the templated section goes to core, the roles and the minions' own files.
    if (which === 4 && kind !== "core" && kind !== "role" && kind !== "minion") which = 0;
    const head = heads[which]!;
    const block = sections.get(head) ?? [];
    if (block.length === 0) lines++;
    const added = entry[which]!(`${stem}_${n}`);
    block.push(...added);
    sections.set(head, block);
    lines += added.length;
  }
  const out = [`# ${kind}: ${name}`];
  for (const [head, block] of sections) out.push(`${head}:`, ...block);
  return `${[...out, ...tail].join("\n")}\n`;
}
