import type { TraceEvent, TraceSink } from "@merge/core";

/** A trace sink that keeps every event, for `--explain`. Only created when asked for. */
export interface TraceRecorder extends TraceSink {
  readonly events: readonly TraceEvent[];
}

export function createTraceRecorder(): TraceRecorder {
  const events: TraceEvent[] = [];
  return {
    events,
    record(event) {
      events.push(event);
    },
  };
}
