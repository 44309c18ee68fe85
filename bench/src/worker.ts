/**
 * One workload in its own process: `node --expose-gc dist/worker.js <part> <workload> <fresh|polluted>`.
 * Prints one marked JSON line (a WorkloadResult) on stdout; main.ts collects it.
 */
import { pollute } from "./data.js";
import { runPart } from "./parts/index.js";
import { type Mode, RESULT_MARKER, type WorkloadResult } from "./result.js";

const [part, workload, mode] = process.argv.slice(2) as [string, string, Mode];
const started = performance.now();
// Kept reachable for the whole run: the point is that V8 has seen thousands of shapes while the workload runs.
const pollution = mode === "polluted" ? pollute() : undefined;
const { rows, notes } = await runPart(part, workload);
const result: WorkloadResult = {
  part,
  workload,
  mode,
  rows,
  notes,
  seconds: (performance.now() - started) / 1000,
};
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
if (pollution === null) process.stdout.write("");
