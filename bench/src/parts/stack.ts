import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { random } from "../data.js";
import { cpuNow, measure } from "../harness.js";
import { loadOptional } from "../optional.js";
import type { Row } from "../result.js";

type Dict = Record<string, unknown>;
interface Host {
  readonly minionId: string;
  readonly pillar?: Dict;
  readonly grains?: Dict;
}
interface StackModule {
  createStackLoader(options: { config: string; cwd?: string }): {
    load(host: Host): { data: Dict; files: readonly string[] };
  };
  loadStack(options: { config: string; cwd?: string } & Host): { data: Dict };
  loadStackBatch(
    hosts: readonly Host[],
    options: { config: string; cwd?: string; workers?: number },
  ): Promise<readonly { ok: boolean }[]>;
}

export const STACK_WORKLOADS = ["example", "hosts", "files500"] as const;

export const EXAMPLE_DIR = fileURLToPath(new URL("../../../examples/stack/", import.meta.url));

const OSARCHS = ["amd64", "armhf"];
const CODENAMES = ["jessie", "wheezy"];
const ROLES = [["db"], ["web"], ["db", "web"], []];

/** 1,000 distinct hosts for the example tree: their own ids, architectures, releases and roles. */
export function exampleHosts(count: number): Host[] {
  const hosts: Host[] = [];
  for (let i = 0; i < count; i++) {
    hosts.push({
      minionId: i < 2 ? `test-${i + 1}-dev` : `host-${i}.example.org`,
      grains: { id: `host-${i}`, osarch: OSARCHS[i % 2], oscodename: CODENAMES[(i >> 1) % 2], os: "Debian" },
      pillar: { roles: ROLES[i % 4], environment: i % 3 === 0 ? "prod" : "dev" },
    });
  }
  return hosts;
}

/** A stack of `count` YAML files (a few of them templated) in a fresh temporary directory. */
export function writeLargeStack(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), "merge-bench-stack-"));
  mkdirSync(join(dir, "layers"));
  const rand = random(5);
  for (let i = 0; i < count; i++) {
    const lines = [`layer${i}:`, `  index: ${i}`, `  owner: team${i % 17}`];
    lines.push("common:", `  key${i % 50}: value${i}`, `  list${i % 20}:`, `    - item${i}`);
    lines.push(
      "services:",
      `  svc${i % 40}:`,
      `    port: ${1000 + Math.floor(rand() * 60000)}`,
      `    enabled: ${i % 2 === 0}`,
    );
    if (i % 10 === 0) lines.push("host:", "  id: {{ minion_id }}", `  arch: {{ __grains__['osarch'] }}`);
    writeFileSync(join(dir, "layers", `${String(i).padStart(4, "0")}.yml`), `${lines.join("\n")}\n`);
  }
  writeFileSync(join(dir, "stack.cfg"), "layers/*.yml\n");
  return dir;
}

export async function runStack(workload: string): Promise<{ rows: Row[]; notes: string[] }> {
  const loaded = await loadOptional<StackModule>("@merge/source-stack", [
    "createStackLoader",
    "loadStack",
    "loadStackBatch",
  ]);
  if (!loaded.ok)
    return { rows: [{ label: "PillarStack", status: "unavailable", note: loaded.reason }], notes: [] };
  const stack = loaded.module;
  const rows: Row[] = [];
  if (workload === "example") {
    const options = { config: "config.cfg", cwd: EXAMPLE_DIR };
    const host = exampleHosts(1)[0]!;
    const started = cpuNow();
    const loader = stack.createStackLoader(options);
    const first = loader.load(host);
    const cold = cpuNow() - started;
    rows.push({
      label: "first host, new loader (compiles templates)",
      status: "ok",
      extra: { ms: cold, files: first.files.length },
    });
    rows.push({
      label: "same host again, warm loader (steady state)",
      status: "ok",
      timing: await measure("warm", () => loader.load(host), {
        iterations: 50,
        time: 500,
        warmupIterations: 10,
      }),
    });
    rows.push({
      label: "loadStack() one-shot (new loader every call)",
      status: "ok",
      timing: await measure("oneshot", () => stack.loadStack({ ...options, ...host }), {
        iterations: 20,
        time: 300,
      }),
    });
    return { rows, notes: [`examples/stack for ${host.minionId}: ${first.files.length} files merged`] };
  }
  if (workload === "hosts") {
    const options = { config: "config.cfg", cwd: EXAMPLE_DIR };
    const hosts = exampleHosts(1000);
    // Steady state: a loader that has rendered all 1,000 hosts once renders them all again (per host = pass / 1000).
    const warm = stack.createStackLoader(options);
    for (const host of hosts) warm.load(host);
    const steady = await measure(
      "warm pass",
      () => {
        for (const host of hosts) warm.load(host);
      },
      { iterations: 7, warmupIterations: 1, patient: true },
    );
    rows.push({
      label: "1,000 hosts again, warm loader (steady state)",
      status: "ok",
      timing: steady,
      extra: { perHostMs: steady.median / 1000 },
    });
    const whole = await measure(
      "1000 hosts",
      () => {
        const loader = stack.createStackLoader(options);
        for (const host of hosts) loader.load(host);
      },
      { iterations: 7, warmupIterations: 1, patient: true },
    );
    rows.push({
      label: "1,000 distinct hosts, one new loader",
      status: "ok",
      timing: whole,
      extra: { perHostMs: whole.median / 1000, ratioToSteady: whole.median / steady.median },
    });
    for (const workers of [1, 2]) {
      let failed = 0;
      const batch = await measure(
        `batch ${workers}`,
        async () => {
          const entries = await stack.loadStackBatch(hosts, { ...options, workers });
          failed = entries.filter((entry) => !entry.ok).length;
        },
        { iterations: 3, warmupIterations: 1, clock: "wall" },
      );
      rows.push({
        label: `loadStackBatch, 1,000 hosts, ${workers === 1 ? "in this thread" : `${workers} worker threads`} (wall time)`,
        status: failed === 0 ? "ok" : "error",
        timing: batch,
        extra: { perHostMs: batch.median / 1000, failedHosts: failed },
      });
    }
    return {
      rows,
      notes: [
        "examples/stack rendered for 1,000 distinct hosts (ids, arch, release, roles vary)",
        "batch rows are wall time (they spread work over threads); the others are CPU time",
      ],
    };
  }
  // files500
  const dir = writeLargeStack(500);
  try {
    const options = { config: "stack.cfg", cwd: dir };
    const hosts = exampleHosts(20);
    const started = cpuNow();
    const loader = stack.createStackLoader(options);
    const first = loader.load(hosts[0]!);
    rows.push({
      label: "first host, new loader (reads, compiles, parses 500 files)",
      status: "ok",
      extra: { ms: cpuNow() - started, files: first.files.length },
    });
    let next = 0;
    rows.push({
      label: "per host, warm loader",
      status: "ok",
      timing: await measure("warm500", () => loader.load(hosts[next++ % hosts.length]!), {
        iterations: 20,
        time: 500,
      }),
    });
    return {
      rows,
      notes: ["a generated stack of 500 YAML files (one in ten templated with the host's id and arch)"],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
