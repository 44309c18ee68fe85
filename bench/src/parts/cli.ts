import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize } from "../harness.js";
import type { Row } from "../result.js";
import { treeHost, treeHosts, writeSaltTree } from "../salt-tree.js";

export const CLI_WORKLOADS = ["startup", "batch"] as const;

/** Labels of the rows the report's targets read. */
export const TREE_STACK = "merge stack (40-file tree, one host)";
export const CLOUD_PARTS = "merge cloud-config (4 parts, examples/cloud-config)";
export const BATCH_200 = "merge stack --minions (200 hosts of the tree)";
const BATCH_400 = "merge stack --minions (400 hosts of the tree)";
const NODE = "node -e 0";
/** The suffix of rows run while `merge daemon` runs (see `withDaemon`). */
export const WITH_DAEMON = " (merge daemon running)";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
// The installed command's entry (what `merge` is linked to), which loads the built bundle in dist/.
const BIN = fileURLToPath(new URL("../../../packages/cli/bin/merge.cjs", import.meta.url));
const BUNDLE = fileURLToPath(new URL("../../../packages/cli/dist/bin.cjs", import.meta.url));

interface Command {
  readonly label: string;
  readonly args: readonly string[];
  /** Run without `NODE_EXTRA_CA_CERTS` (see `withoutExtraCerts`). */
  readonly withoutExtraCerts?: boolean;
  /** Run while a `merge daemon` of the bench's own runs (see `withDaemon`); other commands bypass any daemon. */
  readonly daemon?: boolean;
}

/**
 * The merge commands again, sent to a running `merge daemon` (docs/cli.md): the bench starts one of its own (its own
 * runtime directory, so a user's daemon is never measured) for each environment the commands run in, before the
 * warm-up round, and stops it after the last round. Their CPU time is the command's process only: the daemon's work
 * is not in it, so only the wall time compares.
 */
function withDaemon(commands: readonly Command[]): Command[] {
  return commands
    .filter((c) => c.label !== NODE && !c.label.startsWith(`${NODE} `))
    .map((c) => ({
      ...c,
      label:
        c.label.replace(WITHOUT_CERTS, "") +
        WITH_DAEMON +
        (c.withoutExtraCerts === true ? WITHOUT_CERTS : ""),
      daemon: true,
    }));
}

/**
 * When `NODE_EXTRA_CA_CERTS` names a file, Node 20 builds its store of root certificates and adds the file's before
 * it runs any code (Node 22 waits for the first TLS connection). The machines this project is built on set it to
 * the system's bundle of 144 certificates, which makes `node -e 0` about three times as slow as without it (84
 * against 27 ms on 3 December; about 30 ms for Node's own store, 30 more for the file), for work the measured
 * commands never use. Where it is set, the start-up and batch figures are also measured without it,
 * as on a machine that does not set it, each against `node -e 0` run the same way.
 */
export const EXTRA_CERTS = "NODE_EXTRA_CA_CERTS";
export const WITHOUT_CERTS = ` (without ${EXTRA_CERTS})`;

/** The commands again, without `NODE_EXTRA_CA_CERTS`, when the bench's environment sets it; else none. */
function withoutExtraCerts(commands: readonly Command[]): Command[] {
  if ((process.env[EXTRA_CERTS] ?? "") === "") return [];
  return commands.map((c) => ({ label: c.label + WITHOUT_CERTS, args: c.args, withoutExtraCerts: true }));
}

interface CommandTimes {
  readonly wall: Map<string, number[]>;
  readonly cpu: Map<string, number[]>;
  readonly failures: Map<string, string>;
}

// Runs the command under bash and prints the children's CPU times with the `times` builtin (user and system).
const TIMED = '"$0" "$@" >/dev/null 2>"$MERGE_BENCH_ERR"; status=$?; times; exit $status';

export function parseTimes(text: string): number {
  const lines = text.trim().split("\n");
  const children = lines[lines.length - 1] ?? "";
  let total = 0;
  for (const match of children.matchAll(/(\d+)m([\d.]+)s/g))
    total += Number(match[1]) * 60_000 + Number(match[2]) * 1000;
  return total;
}

/**
 * Whole processes: each command runs `runs` times, interleaved with the others so a burst of load on the machine hits
 * all of them alike; the first round is a warm-up (disk cache) and is dropped. Both the wall time and the child's
 * CPU time (user + system, from bash's `times`) are kept. The commands get a cache home of their own
 * (XDG_CACHE_HOME): the warm-up round fills merge's compile cache there, as a user's first run would, and nothing
 * the user's own runs left behind is measured.
 */
function timeCommands(commands: readonly Command[], runs: number, errFile: string): CommandTimes {
  const times: CommandTimes = { wall: new Map(), cpu: new Map(), failures: new Map() };
  const cacheHome = mkdtempSync(join(tmpdir(), "merge-bench-cache-"));
  const environment = (command: Command): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, MERGE_BENCH_ERR: errFile, XDG_CACHE_HOME: cacheHome };
    if (command.withoutExtraCerts === true) delete env[EXTRA_CERTS];
    // A daemon of the bench's own per environment; no command meets the user's.
    env.XDG_RUNTIME_DIR = join(cacheHome, command.withoutExtraCerts === true ? "run-without-certs" : "run");
    if (command.daemon === true) delete env.MERGE_NO_DAEMON;
    else env.MERGE_NO_DAEMON = "1";
    return env;
  };
  const daemons = new Map<string, NodeJS.ProcessEnv>();
  for (const command of commands) {
    if (command.daemon !== true) continue;
    const env = environment(command);
    const runtime = env.XDG_RUNTIME_DIR as string;
    if (daemons.has(runtime)) continue;
    mkdirSync(runtime, { mode: 0o700, recursive: true });
    const started = spawnSync(process.execPath, [BIN, "daemon", "start", "--idle-timeout", "1h"], {
      env,
      encoding: "utf8",
    });
    if (started.status !== 0)
      times.failures.set(command.label, `merge daemon start: ${started.stderr.trim()}`);
    daemons.set(runtime, env);
  }
  for (let round = 0; round <= runs; round++) {
    for (const command of commands) {
      if (times.failures.has(command.label)) continue;
      const env = environment(command);
      const started = performance.now();
      const child = spawnSync("bash", ["-c", TIMED, process.execPath, ...command.args], {
        cwd: ROOT,
        encoding: "utf8",
        env,
      });
      const elapsed = performance.now() - started;
      if (child.status !== 0) {
        let detail = "";
        try {
          detail = readFileSync(errFile, "utf8").split("\n")[0] ?? "";
        } catch {
          detail = child.stderr;
        }
        times.failures.set(command.label, `exit ${child.status}: ${detail}`);
        continue;
      }
      if (round === 0) continue;
      for (const [map, value] of [
        [times.wall, elapsed],
        [times.cpu, parseTimes(child.stdout)],
      ] as const) {
        const list = map.get(command.label) ?? [];
        list.push(value);
        map.set(command.label, list);
      }
    }
  }
  for (const env of daemons.values()) spawnSync(process.execPath, [BIN, "daemon", "stop"], { env });
  rmSync(cacheHome, { recursive: true, force: true });
  return times;
}

/**
 * A row per command: wall time (the targets use it), CPU time and both as multiples of `node -e 0` run in the same
 * environment.
 */
function timedRows(commands: readonly Command[], times: CommandTimes): Row[] {
  return commands.map((command) => {
    const base = command.withoutExtraCerts === true ? NODE + WITHOUT_CERTS : NODE;
    const wallBase = summarize(times.wall.get(base) ?? []).median;
    const cpuBase = summarize(times.cpu.get(base) ?? []).median;
    const failure = times.failures.get(command.label);
    if (failure !== undefined) return { label: command.label, status: "error", note: failure };
    const wall = summarize(times.wall.get(command.label) ?? []);
    const cpu = summarize(times.cpu.get(command.label) ?? []);
    return {
      label: command.label,
      status: "ok",
      timing: wall,
      extra: { ratioToNode: wall.median / wallBase, cpuMs: cpu.median, cpuRatioToNode: cpu.median / cpuBase },
    };
  });
}

/** The generated tree with one host's grains and pillar, and `count` hosts as a `--minions` file. */
function treeWithHosts(counts: readonly number[]): { dir: string; args: (file: string) => string[] } {
  const dir = writeSaltTree();
  const host = treeHost(5);
  writeFileSync(join(dir, "grains.json"), JSON.stringify(host.grains));
  writeFileSync(join(dir, "pillar.json"), JSON.stringify(host.pillar));
  for (const count of counts)
    writeFileSync(join(dir, `hosts-${count}.json`), JSON.stringify(treeHosts(count)));
  const one = [
    "--minion-id",
    host.id,
    "--grains",
    join(dir, "grains.json"),
    "--pillar",
    join(dir, "pillar.json"),
  ];
  return {
    dir,
    args: (what) =>
      what === "one"
        ? [BIN, "stack", join(dir, "stack.cfg"), ...one]
        : [BIN, "stack", join(dir, "stack.cfg"), "--minions", join(dir, what)],
  };
}

export async function runCli(workload = "startup"): Promise<{ rows: Row[]; notes: string[] }> {
  if (!existsSync(BUNDLE)) {
    return {
      rows: [{ label: "merge CLI", status: "unavailable", note: "packages/cli/dist/bin.cjs is not built" }],
      notes: [],
    };
  }
  const errFile = join(tmpdir(), `merge-bench-cli-${process.pid}.err`);
  return workload === "batch" ? runBatch(errFile) : runStartup(errFile);
}

async function runStartup(errFile: string): Promise<{ rows: Row[]; notes: string[] }> {
  const tree = treeWithHosts([]);
  const parts = ["01-mappings.yaml", "02-mappings.yaml", "03-lists.yaml", "04-string.yaml"];
  const asSet: Command[] = [
    { label: NODE, args: ["-e", "0"] },
    { label: "merge --version", args: [BIN, "--version"] },
    {
      label: "merge stack (examples/stack, test-1-dev)",
      args: [
        BIN,
        "stack",
        "examples/stack/config.cfg",
        "--minion-id",
        "test-1-dev",
        "--grains",
        "examples/stack/grains.yml",
        "--pillar",
        "examples/stack/pillar.yml",
      ],
    },
    { label: TREE_STACK, args: tree.args("one") },
    {
      label: CLOUD_PARTS,
      args: [BIN, "cloud-config", ...parts.map((p) => `examples/cloud-config/runcmd-doc/${p}`)],
    },
  ];
  const plain = [...asSet, ...withoutExtraCerts(asSet)];
  const commands = [
    ...plain,
    ...withDaemon(plain.filter((c) => c.label.startsWith(TREE_STACK) || c.label.startsWith(CLOUD_PARTS))),
  ];
  const times = timeCommands(commands, 15, errFile);
  rmSync(errFile, { force: true });
  rmSync(tree.dir, { recursive: true, force: true });
  return {
    rows: timedRows(commands, times),
    notes: [
      "wall time of the whole process (median ± MAD; the targets use it) and its CPU time (cpuMs), 15 interleaved runs after one warm-up round (which also fills merge's compile cache, in a cache home of the bench's own); merge is run as installed (node packages/cli/bin/merge.cjs)",
      daemonNote(),
      "the 40-file tree is bench/src/salt-tree.ts: 27–87-line YAML files and a templated config listing core, common/*, per-arch, per-codename, per-role and per-minion files (13–15 per host)",
      certsNote(),
    ],
  };
}

function daemonNote(): string {
  return `rows marked "${WITH_DAEMON.trim()}" ran while a \`merge daemon\` of the bench's own ran (started before the warm-up round, in the same environment as the command); their CPU time is the command's process only, without the daemon's work, so only their wall time compares; every other row bypassed any daemon (MERGE_NO_DAEMON=1)`;
}

function certsNote(): string {
  return (process.env[EXTRA_CERTS] ?? "") === ""
    ? `${EXTRA_CERTS} is not set here, so every command ran as a machine without it runs them`
    : `${EXTRA_CERTS} is set here (${process.env[EXTRA_CERTS]}): Node 20 then builds its store of root certificates and adds the file's before running any code, so the rows marked "${WITHOUT_CERTS.trim()}" ran again without it, as on a machine that does not set it; each ratio is to \`node -e 0\` run the same way`;
}

/**
 * 200 and 400 hosts of the tree in one process each, and one host alone. The warm per-host time is what the 200
 * hosts more cost: (400 hosts − 200 hosts) ÷ 200, every template and file already compiled and read by then.
 */
async function runBatch(errFile: string): Promise<{ rows: Row[]; notes: string[] }> {
  const tree = treeWithHosts([200, 400]);
  const asSet: Command[] = [
    { label: NODE, args: ["-e", "0"] },
    { label: TREE_STACK, args: tree.args("one") },
    { label: BATCH_200, args: tree.args("hosts-200.json") },
    { label: BATCH_400, args: tree.args("hosts-400.json") },
  ];
  const plain = [...asSet, ...withoutExtraCerts(asSet)];
  const commands = [...plain, ...withDaemon(plain)];
  const times = timeCommands(commands, 9, errFile);
  rmSync(errFile, { force: true });
  rmSync(tree.dir, { recursive: true, force: true });
  const median = (label: string, map: Map<string, number[]>) => summarize(map.get(label) ?? []).median;
  const batchExtra = (suffix: string): Record<string, number> => {
    const extra: Record<string, number> = {};
    for (const clock of ["wall", "cpu"] as const) {
      const map = clock === "wall" ? times.wall : times.cpu;
      const one = median(TREE_STACK + suffix, map);
      const t200 = median(BATCH_200 + suffix, map);
      const perHost = (median(BATCH_400 + suffix, map) - t200) / 200;
      extra[`${clock}WarmPerHostMs`] = Number(perHost.toFixed(3));
      extra[`${clock}StartupMs`] = Number(one.toFixed(1));
      extra[`${clock}RatioToStartupPlusWarm`] = Number((t200 / (one + 200 * perHost)).toFixed(3));
    }
    return extra;
  };
  const suffixes = ["", WITHOUT_CERTS, WITH_DAEMON, WITH_DAEMON + WITHOUT_CERTS];
  const rows = timedRows(commands, times).map((row) => {
    if (row.status !== "ok") return row;
    const suffix = suffixes.find((candidate) => row.label === BATCH_200 + candidate);
    return suffix === undefined ? row : { ...row, extra: { ...row.extra, ...batchExtra(suffix) } };
  });
  return {
    rows,
    notes: [
      "whole processes, 9 interleaved runs after one warm-up round (which fills merge's compile cache); JSON Lines to /dev/null",
      daemonNote(),
      "warm per-host = (400 hosts − 200 hosts) ÷ 200; the target compares 200 hosts with one start-up (one host alone) plus 200 × that, on the wall clock (wall*) and on the CPU clock (cpu*)",
      certsNote(),
    ],
  };
}
