// What a new daemon does before its first command: it runs merge's commands on a small made-up tree of its own, so
// that V8 has compiled and optimised the code they run (YAML reading and writing, templates, merging) by the time
// the user's commands come. A fresh daemon would otherwise answer its first few dozen commands at little better than
// a fresh process's speed. Nothing here reads or writes the user's files or caches: the tree is written to a
// temporary directory of its own, removed at the end, and the runs get no build caches.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIO } from "../io.js";
import { run } from "../run.js";

/** How many times each warm-up command runs: about what a command needs before V8 has optimised its hot paths. */
const ROUNDS = 40;
const HOSTS = 40;

export interface WarmUp {
  /** Settles when the warm-up has ended (done, or stopped before its next run). */
  readonly done: Promise<void>;
  /** Removes the made-up tree now: the daemon is about to exit. */
  removeTree(): void;
}

/**
 * Starts the warm-up: one command at a time until done, or until `stop()` says a real command is waiting (checked
 * before each run, so a command waits for one warm-up run at most: a few milliseconds).
 */
export function warmUp(env: Readonly<Record<string, string | undefined>>, stop: () => boolean): WarmUp {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "merge-daemon-warm-up-"));
  } catch {
    // No temporary directory: the daemon warms up on the user's commands instead.
    return { done: Promise.resolve(), removeTree: () => undefined };
  }
  const removeTree = () => rmSync(dir, { recursive: true, force: true });
  return { done: runAll(dir, env, stop).finally(removeTree), removeTree };
}

async function runAll(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  stop: () => boolean,
): Promise<void> {
  const io: CliIO = {
    cwd: dir,
    env,
    readStdin: () => Promise.resolve(new Uint8Array()),
    writeOut: () => Promise.resolve(),
    writeErr: () => undefined,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const host = ["--minion-id", "host3.example.org", "--grains", "grains.json"];
  const commands: readonly (readonly string[])[] = [
    ["stack", "stack.cfg", ...host, "--pillar", "pillar.json"],
    ["stack", "stack.cfg", "--minions", "hosts.json"],
    ["stack", "stack.cfg", ...host, "--format", "json"],
    ["cloud-config", "part1.yaml", "part2.yaml"],
    ["docs", "part1.yaml", "part2.yaml", "--format", "json"],
  ];
  try {
    writeTree(dir);
    for (let round = 0; round < ROUNDS; round++) {
      for (const argv of commands) {
        // A turn of the event loop first: a run is one long task, and a command's connection is heard between them.
        await new Promise((resolve) => setImmediate(resolve));
        if (stop()) return;
        await run(argv, io);
      }
    }
  } catch {
    // A warm-up that fails (a full disk, say) only leaves the daemon colder.
  }
}

/** A PillarStack tree in the shape of a real one (a templated config, common, per-role and per-host files). */
function writeTree(dir: string): void {
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  write(
    "stack.cfg",
    "core.yml\ncommon.yml\n{% for role in pillar.get('roles', []) %}role-{{ role }}.yml\n{% endfor %}" +
      "arch-{{ __grains__['osarch'] }}.yml\nhost-{{ minion_id }}.yml\n",
  );
  for (const name of ["core", "common", "role-web", "role-db", "role-cache", "arch-amd64", "arch-arm64"])
    write(`${name}.yml`, yamlFile(name));
  for (let i = 0; i < 4; i++) write(`host-host${i}.example.org.yml`, yamlFile(`host${i}`));
  const host = (i: number) => ({
    id: `host${i}.example.org`,
    grains: { osarch: i % 2 === 0 ? "amd64" : "arm64", os: "Debian", num_cpus: 2 + i },
    pillar: { roles: [["web", "db", "cache"][i % 3], ...(i % 4 === 0 ? ["cache"] : [])] },
  });
  write("grains.json", JSON.stringify(host(3).grains));
  write("pillar.json", JSON.stringify(host(3).pillar));
  write("hosts.json", JSON.stringify(Array.from({ length: HOSTS }, (_, i) => host(i))));
  write(
    "part1.yaml",
    "#cloud-config\npackages: [git, curl]\nruncmd:\n  - echo one\nwrite_files:\n  - path: /etc/a\n    content: a\n",
  );
  write(
    "part2.yaml",
    "#cloud-config\nmerge_how:\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n" +
      "packages: [htop]\nruncmd:\n  - [sh, -c, 'echo two']\nusers:\n  - default\n  - name: deploy\n    groups: [sudo]\n",
  );
}

/** A stack file: nested mappings and lists, a `__` directive, Jinja expressions and plain scalars of each kind. */
function yamlFile(name: string): string {
  const lines = [`{% set here = '${name}' %}`, "packages:"];
  for (let i = 0; i < 6; i++) lines.push(`  - ${name}-package-${i}`);
  lines.push("services:");
  for (let i = 0; i < 4; i++) {
    lines.push(`  ${name}_service_${i}:`, "    enabled: true", `    port: ${8000 + i}`, `    weight: ${i}.5`);
    lines.push("    options:", `      - --from={{ here }}`, "      - --verbose");
  }
  lines.push("users:", "  __: merge-last", `  ${name}:`, "    uid: 1001", "    shell: /bin/bash");
  lines.push("motd: |", `  Welcome to {{ minion_id }} (${name})`, "  Managed by Salt", `empty_${name}: ~`);
  return `${lines.join("\n")}\n`;
}
