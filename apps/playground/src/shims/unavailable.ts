// Node built-ins that only @merge/source-stack's `loadStackBatch` (worker threads) imports. The playground never
// calls it and the bundler drops it; this stand-in says so instead of a build warning, and fails loudly if reached.
function unavailable(): never {
  throw new Error("worker threads are not available in the browser playground");
}

export const Worker = unavailable;
export const availableParallelism = unavailable;
export const pathToFileURL = unavailable;
export const parentPort = undefined;
export const workerData = undefined;

export default { Worker, availableParallelism, pathToFileURL, parentPort, workerData };
