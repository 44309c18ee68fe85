import { Bench } from "tinybench";

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
}

/**
 * Times `fn` with tinybench: a warm-up phase, then samples until both the iteration and time minimums are met.
 * A full GC runs before the warm-up (when node runs with --expose-gc) so one contender's garbage is not billed to
 * the next.
 */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<Timing> {
  const batch = options.batch ?? 1;
  let sink: unknown;
  // A contender far slower than the rest gets fewer samples, so one slow library cannot stretch the run.
  const probe = performance.now();
  sink = fn();
  const probeMs = performance.now() - probe;
  const slow = probeMs > 400;
  // The probe call already warmed a slow function up; beyond 2 s a call, two samples are all the run can afford.
  const bench = new Bench({
    iterations: probeMs > 2000 ? 2 : slow ? 3 : (options.iterations ?? 7),
    time: slow ? 0 : (options.time ?? 0),
    warmupIterations: slow ? 0 : (options.warmupIterations ?? 2),
    warmupTime: options.warmupTime ?? 0,
    throws: true,
  });
  bench.add(
    name,
    batch === 1
      ? () => {
          sink = fn();
        }
      : () => {
          for (let i = 0; i < batch; i++) sink = fn();
        },
  );
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
