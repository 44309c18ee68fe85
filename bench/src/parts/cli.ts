import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize } from "../harness.js";
import type { Row } from "../result.js";

export const CLI_WORKLOADS = ["startup"] as const;

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../packages/cli/dist/bin.js", import.meta.url));

interface Command {
  readonly label: string;
  readonly args: readonly string[];
}

interface CommandTimes {
  readonly wall: Map<string, number[]>;
  readonly cpu: Map<string, number[]>;
  readonly failures: Map<string, string>;
}

// Runs the command under bash and prints the children's CPU times with the `times` builtin (user and system).
const TIMED = '"$0" "$@" >/dev/null 2>"$MERGE_BENCH_ERR"; status=$?; times; exit $status';

function parseTimes(text: string): number {
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
 * CPU time (user + system, from bash's `times`) are kept.
 */
function timeCommands(commands: readonly Command[], runs: number, errFile: string): CommandTimes {
  const times: CommandTimes = { wall: new Map(), cpu: new Map(), failures: new Map() };
  for (let round = 0; round <= runs; round++) {
    for (const command of commands) {
      if (times.failures.has(command.label)) continue;
      const started = performance.now();
      const child = spawnSync("bash", ["-c", TIMED, process.execPath, ...command.args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, MERGE_BENCH_ERR: errFile },
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
  return times;
}

export async function runCli(): Promise<{ rows: Row[]; notes: string[] }> {
  if (!existsSync(BIN)) {
    return {
      rows: [{ label: "merge CLI", status: "unavailable", note: "packages/cli/dist/bin.js is not built" }],
      notes: [],
    };
  }
  const commands: Command[] = [
    { label: "node -e 0", args: ["-e", "0"] },
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
  ];
  const errFile = join(tmpdir(), `merge-bench-cli-${process.pid}.err`);
  const times = timeCommands(commands, 15, errFile);
  rmSync(errFile, { force: true });
  const wallBase = summarize(times.wall.get("node -e 0") ?? []).median;
  const cpuBase = summarize(times.cpu.get("node -e 0") ?? []).median;
  const rows: Row[] = commands.map((command) => {
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
  return {
    rows,
    notes: [
      "wall time of the whole process (median ± MAD; the target uses it) and its CPU time (cpuMs), 15 interleaved runs after one warm-up round",
    ],
  };
}
