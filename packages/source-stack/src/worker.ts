// Entry point of a batch worker thread: renders its share of hosts with one loader and posts the entries back.
import { parentPort, workerData } from "node:worker_threads";
import { renderHosts, type WorkerInput } from "./batch.js";

const entries = await renderHosts(workerData as WorkerInput);
parentPort!.postMessage(entries);
