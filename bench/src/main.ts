/**
 * `pnpm bench`: runs every workload in its own child process (and the engine workloads again in a polluted one),
 * then writes docs/benchmarks.md and bench/results/latest.jsonl.
 * `node dist/main.js --only peers/trees,scaling` runs a subset and prints it without touching the report;
 * `node dist/main.js --report-only` re-renders the report from bench/results/latest.jsonl.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { PARTS } from "./parts/index.js";
import { renderReport, type RunInfo } from "./report.js";
import { type Mode, RESULT_MARKER, type WorkloadResult } from "./result.js";

const WORKER = fileURLToPath(new URL("./worker.js", import.meta.url));
const DOC = fileURLToPath(new URL("../../docs/benchmarks.md", import.meta.url));
const RESULTS = fileURLToPath(new URL("../results/", import.meta.url));
const RESULTS_FILE = `${RESULTS}latest.jsonl`;
const ANALYSIS = fileURLToPath(new URL("../analysis.md", import.meta.url));
const TIMEOUT_MS = 400_000;

function runChild(part: string, workload: string, mode: Mode): Promise<WorkloadResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--expose-gc", WORKER, part, workload, mode], {
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARKER));
      if (code === 0 && line !== undefined) {
        resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as WorkloadResult);
        return;
      }
      const reason =
        signal === "SIGKILL"
          ? `timed out after ${TIMEOUT_MS / 1000} s`
          : `exit ${code}: ${stderr.trim().split("\n").slice(-3).join(" / ").slice(0, 300)}`;
      resolve({
        part,
        workload,
        mode,
        rows: [{ label: `${part}/${workload}`, status: "error", note: reason }],
        notes: [],
        seconds: (performance.now() - started) / 1000,
      });
    });
  });
}

function selected(only: readonly string[] | undefined, part: string, workload: string): boolean {
  if (only === undefined) return true;
  return only.some((item) => item === part || item === `${part}/${workload}`);
}

function readAnalysis(): string {
  try {
    return readFileSync(ANALYSIS, "utf8");
  } catch {
    return "";
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--report-only")) {
    // Re-renders docs/benchmarks.md from the last run's results (after editing bench/analysis.md).
    const [first, ...rest] = readFileSync(RESULTS_FILE, "utf8").trim().split("\n");
    const info = JSON.parse(first!) as RunInfo;
    const results = rest.map((line) => JSON.parse(line) as WorkloadResult);
    writeFileSync(DOC, renderReport(info, results, readAnalysis()));
    process.stderr.write("rewrote docs/benchmarks.md from bench/results/latest.jsonl\n");
    return;
  }
  const onlyIndex = args.indexOf("--only");
  const only = onlyIndex >= 0 ? (args[onlyIndex + 1] ?? "").split(",").filter(Boolean) : undefined;
  const started = new Date();
  const loadBefore = loadavg();
  const results: WorkloadResult[] = [];
  for (const { part, workloads, polluted } of PARTS) {
    for (const workload of workloads) {
      if (!selected(only, part, workload)) continue;
      const modes: Mode[] = polluted ? ["fresh", "polluted"] : ["fresh"];
      for (const mode of modes) {
        process.stderr.write(`bench ${part}/${workload} (${mode}) ... `);
        const result = await runChild(part, workload, mode);
        results.push(result);
        const failed = result.rows.filter((r) => r.status === "error" || r.status === "unavailable");
        process.stderr.write(
          `${(result.seconds ?? 0).toFixed(1)} s${failed.length > 0 ? ` (${failed.map((r) => r.note).join("; ")})` : ""}\n`,
        );
      }
    }
  }
  const info: RunInfo = {
    started: started.toISOString(),
    seconds: (Date.now() - started.getTime()) / 1000,
    node: process.version,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}`,
    loadBefore: loadBefore.map((v) => v.toFixed(2)).join(" "),
    loadAfter: loadavg()
      .map((v) => v.toFixed(2))
      .join(" "),
  };
  if (only !== undefined) {
    process.stdout.write(`${JSON.stringify(results, null, 1)}\n`);
    return;
  }
  const analysis = readAnalysis();
  mkdirSync(RESULTS, { recursive: true });
  // JSON Lines (the run's info, then one workload per line): diffable, and left alone by the formatter.
  writeFileSync(RESULTS_FILE, `${[info, ...results].map((item) => JSON.stringify(item)).join("\n")}\n`);
  writeFileSync(DOC, renderReport(info, results, analysis));
  process.stderr.write(`wrote docs/benchmarks.md (${info.seconds.toFixed(0)} s)\n`);
}

await main();
