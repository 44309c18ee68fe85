import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { CliRun } from "./helpers.js";

interface CliThread {
  readonly worker: Worker;
  /** [answers given, thread ended] (see cli-worker.mjs). */
  readonly state: Int32Array;
}

let thread: CliThread | undefined;

/**
 * Runs the CLI's `run()` in a worker thread of this test process and waits for it synchronously, so a suite calls
 * it exactly as it calls the binary (`merge()` in helpers.ts) without paying a process start per case. The thread
 * loads dist/run.js once; each call gets its own working directory, environment and standard input.
 */
export function runInProcess(
  args: readonly string[],
  cwd: string,
  input: string,
  env: Record<string, string | undefined>,
): CliRun {
  thread ??= startThread();
  const { worker, state } = thread;
  const answered = Atomics.load(state, 0);
  const { port1, port2 } = new MessageChannel();
  const definedEnv = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
  worker.postMessage({ args, cwd, input, env: definedEnv, port: port2 }, [port2]);
  // Blocks this thread until the worker answers or ends; no clock decides anything here.
  while (Atomics.load(state, 0) === answered) Atomics.wait(state, 0, answered);
  const answer = receiveMessageOnPort(port1);
  port1.close();
  if (answer === undefined) {
    thread = undefined;
    throw new Error(`the in-process CLI ended without answering merge ${args.join(" ")}`);
  }
  return answer.message as CliRun;
}

function startThread(): CliThread {
  const state = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL("./cli-worker.mjs", import.meta.url), {
    workerData: { state: state.buffer },
  });
  // The thread must not keep the test process alive once the tests are done.
  worker.unref();
  return { worker, state };
}
