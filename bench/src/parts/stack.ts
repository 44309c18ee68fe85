import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { random } from "../data.js";
import { measure } from "../harness.js";
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
    let started = performance.now();
    const loader = stack.createStackLoader(options);
    const first = loader.load(host);
    const cold = performance.now() - started;
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
    started = performance.now();
    return { rows, notes: [`examples/stack for ${host.minionId}: ${first.files.length} files merged`] };
  }
  if (workload === "hosts") {
    const options = { config: "config.cfg", cwd: EXAMPLE_DIR };
    const hosts = exampleHosts(1000);
    // Steady state: a loader that has rendered these kinds of host before, timed per host over a sample of them.
    const warm = stack.createStackLoader(options);
    for (const host of hosts.slice(0, 50)) warm.load(host);
    const sample = hosts.slice(0, 40);
    let next = 0;
    const steady = await measure("steady", () => warm.load(sample[next++ % sample.length]!), {
      iterations: 200,
      time: 500,
      warmupIterations: 20,
    });
    rows.push({ label: "steady-state time per host (warm loader)", status: "ok", timing: steady });
    const whole = await measure(
      "1000 hosts",
      () => {
        const loader = stack.createStackLoader(options);
        for (const host of hosts) loader.load(host);
      },
      { iterations: 5, warmupIterations: 1 },
    );
    rows.push({
      label: "1,000 distinct hosts, one new loader",
      status: "ok",
      timing: whole,
      extra: { perHostMs: whole.median / 1000, ratioToSteady: whole.median / (1000 * steady.median) },
    });
    for (const workers of [1, 2]) {
      const batch = await measure(
        `batch ${workers}`,
        () => stack.loadStackBatch(hosts, { ...options, workers }),
        { iterations: 3, warmupIterations: 1 },
      );
      rows.push({
        label: `loadStackBatch, 1,000 hosts, ${workers} worker thread${workers === 1 ? " (in-thread)" : "s"}`,
        status: "ok",
        timing: batch,
        extra: { perHostMs: batch.median / 1000 },
      });
    }
    return {
      rows,
      notes: ["examples/stack rendered for 1,000 distinct hosts (ids, arch, release, roles vary)"],
    };
  }
  // files500
  const dir = writeLargeStack(500);
  try {
    const options = { config: "stack.cfg", cwd: dir };
    const hosts = exampleHosts(20);
    const started = performance.now();
    const loader = stack.createStackLoader(options);
    const first = loader.load(hosts[0]!);
    rows.push({
      label: "first host, new loader (reads, compiles, parses 500 files)",
      status: "ok",
      extra: { ms: performance.now() - started, files: first.files.length },
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
