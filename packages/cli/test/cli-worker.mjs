// The worker thread behind test/in-process.ts: runs the CLI's `run()` (dist/run.js, the same sources the bundle is
// built from) for each request, answers on the request's port, and wakes the waiting test thread through the
// shared `state` (index 0 counts answers, index 1 is set once this thread ends).
import { parentPort, workerData } from "node:worker_threads";

const state = new Int32Array(workerData.state);
const wake = () => {
  Atomics.add(state, 0, 1);
  Atomics.notify(state, 0);
};
process.on("exit", () => {
  Atomics.store(state, 1, 1);
  wake();
});

const { run } = await import(new URL("../dist/run.js", import.meta.url).href);

// A stray rejection or exception of a command would otherwise end the thread; it is reported as a crash of the call.
let stray;
process.on("unhandledRejection", (error) => {
  stray ??= error;
});
process.on("uncaughtException", (error) => {
  stray ??= error;
});

parentPort.on("message", async ({ args, cwd, input, env, port }) => {
  let stdout = "";
  let stderr = "";
  const io = {
    cwd,
    env,
    readStdin: async () => Buffer.from(input, "utf8"),
    writeOut: async (text) => {
      stdout += text;
    },
    writeErr: (text) => {
      stderr += text;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  stray = undefined;
  let status;
  try {
    status = await run(args, io);
  } catch (error) {
    stray = error;
  }
  if (stray !== undefined) {
    stderr += `merge (in process): uncaught ${stray?.stack ?? String(stray)}\n`;
    status = 70;
  }
  port.postMessage({ status, stdout, stderr });
  port.close();
  wake();
});
