// The page's side of the merge worker: the latest job wins (an edit made while a merge runs replaces the waiting
// job, it does not queue), and a merge that runs past the time limit has its worker replaced, so the page stays
// usable whatever is pasted in.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ErrorView, Job, Output, Response } from "../worker/protocol.js";

/** Time after which a merge is stopped. The packages' budgets stop hostile input long before. */
const TIME_LIMIT_MS = 60_000;
/** Pause in typing before a merge starts. */
const DEBOUNCE_MS = 150;

export interface MergeState {
  readonly output: Output | undefined;
  readonly error: ErrorView | undefined;
  readonly running: boolean;
}

type Listener = (state: MergeState) => void;

export class MergeEngine {
  private worker: Worker | undefined;
  private nextId = 1;
  private current: { id: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private waiting: Job | undefined;
  private state: MergeState = { output: undefined, error: undefined, running: false };
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  submit(job: Job): void {
    this.waiting = job;
    if (this.current === undefined) this.startNext();
  }

  private emit(state: MergeState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  private ensureWorker(): Worker {
    if (this.worker === undefined) {
      const worker = new Worker(new URL("../worker/worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (event: MessageEvent<Response>) => this.finish(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        this.fail(`the merge worker failed: ${event.message || "it could not be loaded"}`);
      };
      this.worker = worker;
    }
    return this.worker;
  }

  private startNext(): void {
    const job = this.waiting;
    if (job === undefined) return;
    this.waiting = undefined;
    const id = this.nextId++;
    const timer = setTimeout(() => {
      // The worker is stuck on this input: replace it, report, and go on with what was typed since.
      this.worker?.terminate();
      this.worker = undefined;
      this.fail(`the merge was stopped after ${TIME_LIMIT_MS / 1000} s; the input is too large for the page`);
    }, TIME_LIMIT_MS);
    this.current = { id, timer };
    this.emit({ ...this.state, running: true });
    this.ensureWorker().postMessage({ ...job, id });
  }

  private finish(response: Response): void {
    if (this.current?.id !== response.id) return;
    clearTimeout(this.current.timer);
    this.current = undefined;
    if (this.waiting !== undefined) {
      // A newer edit is waiting: its result is the one worth showing.
      this.startNext();
      return;
    }
    this.emit(
      response.ok
        ? { output: response.output, error: undefined, running: false }
        : { output: undefined, error: response.error, running: false },
    );
  }

  private fail(message: string): void {
    if (this.current !== undefined) clearTimeout(this.current.timer);
    this.current = undefined;
    this.emit({ output: undefined, error: { code: "STOPPED", message, text: message }, running: false });
    this.startNext();
  }
}

/** Runs `job` (debounced) whenever its JSON changes and gives the latest answer. */
export function useMerge(engine: MergeEngine, job: Job): MergeState {
  const [state, setState] = useState<MergeState>({ output: undefined, error: undefined, running: true });
  useEffect(() => engine.subscribe(setState), [engine]);
  // The job is compared by its JSON: a re-render with the same input does not merge again.
  const key = JSON.stringify(job);
  const first = useRef(true);
  useEffect(() => {
    const delay = first.current ? 0 : DEBOUNCE_MS;
    first.current = false;
    const timer = setTimeout(() => engine.submit(JSON.parse(key) as Job), delay);
    return () => clearTimeout(timer);
  }, [engine, key]);
  return state;
}
