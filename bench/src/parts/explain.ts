import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { configDocument } from "../explain-docs.js";
import { summarize } from "../harness.js";
import type { Row } from "../result.js";
import { parseTimes } from "./cli.js";

export const EXPLAIN_WORKLOADS = ["docs"] as const;

/** The pairs the report's target reads: a plain run and the same run with `--explain`. */
export const EXPLAIN_PAIRS = [
  { plain: "merge docs A B", explained: "merge docs A B --explain" },
  { plain: "merge docs --yaml 1.1 A B", explained: "merge docs --yaml 1.1 A B --explain" },
  { plain: "merge cloud-config A B", explained: "merge cloud-config A B --explain" },
] as const;

const DOCUMENT_BYTES = 750_000;
const RUNS = 5;
const BIN = fileURLToPath(new URL("../../../packages/cli/dist/bin.cjs", import.meta.url));

// Loaded with --import into each child: leaves the process's peak resident set size (bytes) where it is told.
// Node's own number (getrusage's ru_maxrss), the same for every command, so the ratios need no other tool.
const PEAK_RSS = `import { writeFileSync } from "node:fs";
process.on("exit", () => writeFileSync(process.env.MERGE_BENCH_RSS, String(process.resourceUsage().maxRSS * 1024)));
`;

// As cli.ts: the child under bash, whose `times` prints its CPU time (user and system).
const TIMED = '"$0" "$@" >/dev/null 2>"$MERGE_BENCH_ERR"; status=$?; times; exit $status';

interface Sample {
  readonly wall: number[];
  readonly cpu: number[];
  readonly rss: number[];
  failure?: string;
}

/**
 * `--explain` against the plain run on two ~750 KB documents: each command `RUNS` times, interleaved so load on the
 * machine hits all alike, after one warm-up round. Wall time, CPU time and peak RSS of the whole process.
 */
export async function runExplain(): Promise<{ rows: Row[]; notes: string[] }> {
  if (!existsSync(BIN)) {
    return {
      rows: [
        { label: "merge --explain", status: "unavailable", note: "packages/cli/dist/bin.cjs is not built" },
      ],
      notes: [],
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "merge-bench-explain-"));
  try {
    const docs = [configDocument(1, DOCUMENT_BYTES), configDocument(2, DOCUMENT_BYTES)];
    docs.forEach((text, i) => {
      writeFileSync(join(dir, `${i}.yml`), text);
      writeFileSync(join(dir, `${i}.cfg`), `#cloud-config\n${text}`);
    });
    const preload = join(dir, "peak-rss.mjs");
    writeFileSync(preload, PEAK_RSS);
    const yml = [join(dir, "0.yml"), join(dir, "1.yml")];
    const cfg = [join(dir, "0.cfg"), join(dir, "1.cfg")];
    const commands: { label: string; args: string[] }[] = [
      { label: "node -e 0", args: ["-e", "0"] },
      { label: "merge docs A B", args: [BIN, "docs", ...yml] },
      { label: "merge docs A B --explain", args: [BIN, "docs", ...yml, "--explain"] },
      { label: "merge docs --yaml 1.1 A B", args: [BIN, "docs", "--yaml", "1.1", ...yml] },
      {
        label: "merge docs --yaml 1.1 A B --explain",
        args: [BIN, "docs", "--yaml", "1.1", ...yml, "--explain"],
      },
      { label: "merge cloud-config A B", args: [BIN, "cloud-config", ...cfg] },
      { label: "merge cloud-config A B --explain", args: [BIN, "cloud-config", ...cfg, "--explain"] },
    ];
    const samples = new Map<string, Sample>(commands.map((c) => [c.label, { wall: [], cpu: [], rss: [] }]));
    const errFile = join(dir, "stderr");
    const rssFile = join(dir, "rss");
    for (let round = 0; round <= RUNS; round++) {
      for (const command of commands) {
        const sample = samples.get(command.label)!;
        if (sample.failure !== undefined) continue;
        rmSync(rssFile, { force: true });
        const started = performance.now();
        const child = spawnSync(
          "bash",
          ["-c", TIMED, process.execPath, "--import", pathToFileURL(preload).href, ...command.args],
          { encoding: "utf8", env: { ...process.env, MERGE_BENCH_ERR: errFile, MERGE_BENCH_RSS: rssFile } },
        );
        const wall = performance.now() - started;
        if (child.status !== 0) {
          sample.failure = `exit ${child.status}: ${readFileSync(errFile, "utf8").split("\n")[0] ?? ""}`;
          continue;
        }
        if (round === 0) continue;
        sample.wall.push(wall);
        sample.cpu.push(parseTimes(child.stdout));
        sample.rss.push(Number(readFileSync(rssFile, "utf8")));
      }
    }
    const rows = commands.map((command): Row => {
      const sample = samples.get(command.label)!;
      if (sample.failure !== undefined)
        return { label: command.label, status: "error", note: sample.failure };
      return {
        label: command.label,
        status: "ok",
        timing: summarize(sample.wall),
        extra: {
          cpuMs: summarize(sample.cpu).median,
          peakRssMiB: Number((summarize(sample.rss).median / 2 ** 20).toFixed(1)),
        },
      };
    });
    // Each `--explain` row also carries its multiples of the plain run: the numbers the target reads.
    const median = (label: string, key: "wall" | "cpu" | "rss") =>
      summarize(samples.get(label)?.[key] ?? []).median;
    const withRatios = rows.map((row) => {
      const pair = EXPLAIN_PAIRS.find((p) => p.explained === row.label);
      if (pair === undefined || row.status !== "ok") return row;
      return {
        ...row,
        extra: {
          ...row.extra,
          wallRatio: median(row.label, "wall") / median(pair.plain, "wall"),
          cpuRatio: median(row.label, "cpu") / median(pair.plain, "cpu"),
          rssRatio: median(row.label, "rss") / median(pair.plain, "rss"),
        },
      };
    });
    return {
      rows: withRatios,
      notes: [
        `A and B are bench/src/explain-docs.ts's two generated configuration documents (${(docs[0]!.length / 1000).toFixed(0)} KB and ${(docs[1]!.length / 1000).toFixed(0)} KB; cloud-config reads them with a #cloud-config line)`,
        `whole processes, ${RUNS} interleaved runs after one warm-up round, output to /dev/null: wall time (median ± MAD), CPU time (cpuMs, user + system) and peak RSS (process.resourceUsage().maxRSS at exit); the ratios are --explain's medians over the plain run's`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
