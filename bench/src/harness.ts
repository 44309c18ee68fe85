import { Bench } from "tinybench";

/** Median, median absolute deviation and range of raw samples (ms). */
export function summarize(values: readonly number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  const median = (list: readonly number[]) => {
    const mid = list.length >> 1;
    return list.length % 2 === 1 ? list[mid]! : (list[mid - 1]! + list[mid]!) / 2;
  };
  const m = median(sorted);
  return {
    median: m,
    mad: median(sorted.map((v) => Math.abs(v - m)).sort((a, b) => a - b)),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    samples: sorted.length,
  };
}

/** Median and spread of one timed function, in milliseconds per call. */
export interface Timing {
  readonly median: number;
  /** Median absolute deviation. */
  readonly mad: number;
  readonly min: number;
  readonly max: number;
  readonly samples: number;
}

export interface MeasureOptions {
  /** Minimum samples (tinybench keeps sampling until both this and `time` are reached). */
  readonly iterations?: number;
  /** Minimum sampling time in ms. */
  readonly time?: number;
  readonly warmupIterations?: number;
  readonly warmupTime?: number;
  /** Calls folded into one sample, for functions too fast for the timer; results are divided back. */
  readonly batch?: number;
  /** `cpu` (default) or `wall`: wall time for work spread over threads, where elapsed time is the point. */
  readonly clock?: "cpu" | "wall";
  /** Keep the asked-for samples up to 1 s per call (for two numbers whose ratio is a target). */
  readonly patient?: boolean;
}

/**
 * CPU time of this process (user + system, all threads) in milliseconds. The machine this suite runs on is shared:
 * under load a wall clock charges a task for the time slices other processes took, which turned a 0.8 ms merge into
 * a 9 ms median. CPU time does not; it does include the work of V8's GC and compiler threads, which is real cost.
 */
export function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Times `fn` with tinybench (on the CPU clock): a warm-up phase, then samples until both the iteration and time minimums are met.
 * A full GC runs before the warm-up (when node runs with --expose-gc) so one contender's garbage is not billed to
 * the next.
 */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<Timing> {
  const batch = options.batch ?? 1;
  const now = options.clock === "wall" ? () => performance.now() : cpuNow;
  let sink: unknown;
  // A contender far slower than the rest gets fewer samples, so one slow library cannot stretch the run: the probe
  // call is its warm-up; beyond a second per call the probe and one more call are the samples, beyond 3 s the probe.
  globalThis.gc?.();
  const probeStart = now();
  sink = fn();
  // Asynchronous work (worker batches, database fetches) is awaited inside each sample.
  const isAsync = sink instanceof Promise;
  if (isAsync) sink = await sink;
  const probeMs = now() - probeStart;
  if (probeMs > 1000 && batch === 1) {
    if (probeMs > 3000) return summarize([probeMs]);
    globalThis.gc?.();
    const again = now();
    keep(await fn());
    return summarize([probeMs, now() - again]);
  }
  const slow = probeMs > (options.patient === true ? 1000 : 300);
  const bench = new Bench({
    iterations: slow ? 3 : (options.iterations ?? 7),
    time: slow ? 0 : (options.time ?? 0),
    warmupIterations: slow ? 0 : (options.warmupIterations ?? 2),
    warmupTime: options.warmupTime ?? 0,
    throws: true,
    now,
  });
  const task = isAsync
    ? async () => {
        sink = await fn();
      }
    : batch === 1
      ? () => {
          sink = fn();
        }
      : () => {
          for (let i = 0; i < batch; i++) sink = fn();
        };
  bench.add(name, task);
  globalThis.gc?.();
  await bench.run();
  keep(sink);
  const result = bench.tasks[0]!.result;
  if (result === undefined || result.error !== undefined)
    throw result?.error ?? new Error(`${name}: no result`);
  const latency = result.latency;
  return {
    median: (latency.p50 ?? latency.mean) / batch,
    mad: (latency.mad ?? 0) / batch,
    min: latency.min / batch,
    max: latency.max / batch,
    samples: latency.samples.length,
  };
}

const sinkBox: { value: unknown } = { value: undefined };
/** Keeps a result reachable so the optimiser cannot drop the work that made it. */
export function keep(value: unknown): void {
  sinkBox.value = value;
}
