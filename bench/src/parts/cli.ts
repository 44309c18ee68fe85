import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { summarize, type Timing } from "../harness.js";
import type { Row } from "../result.js";

export const CLI_WORKLOADS = ["startup"] as const;

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../packages/cli/dist/bin.js", import.meta.url));

interface Command {
  readonly label: string;
  readonly args: readonly string[];
}

/**
 * Wall time of whole processes: each command runs `runs` times, interleaved with the others so a burst of load on
 * the machine hits all of them alike; the first round is a warm-up (disk cache) and is dropped.
 */
function timeCommands(commands: readonly Command[], runs: number): Map<string, Timing | string> {
  const samples = new Map<string, number[]>();
  const failures = new Map<string, string>();
  for (let round = 0; round <= runs; round++) {
    for (const command of commands) {
      if (failures.has(command.label)) continue;
      const started = performance.now();
      const child = spawnSync(process.execPath, command.args, { cwd: ROOT, encoding: "utf8" });
      const elapsed = performance.now() - started;
      if (child.status !== 0) {
        failures.set(command.label, `exit ${child.status}: ${(child.stderr || child.stdout).split("\n")[0]}`);
        continue;
      }
      if (round > 0) {
        const list = samples.get(command.label) ?? [];
        list.push(elapsed);
        samples.set(command.label, list);
      }
    }
  }
  const out = new Map<string, Timing | string>();
  for (const command of commands) {
    const failure = failures.get(command.label);
    out.set(command.label, failure ?? summarize(samples.get(command.label) ?? []));
  }
  return out;
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
  const timings = timeCommands(commands, 15);
  const baseline = timings.get("node -e 0");
  const rows: Row[] = commands.map((command) => {
    const timing = timings.get(command.label)!;
    if (typeof timing === "string") return { label: command.label, status: "error", note: timing };
    const ratio = typeof baseline === "object" ? timing.median / baseline.median : Number.NaN;
    return { label: command.label, status: "ok", timing, extra: { ratioToNode: ratio } };
  });
  return {
    rows,
    notes: ["wall time of the whole process (spawnSync), 15 interleaved runs after one warm-up round"],
  };
}
