// The merge worker: the page posts a job, the worker answers with plain data. Merging here keeps typing responsive
// whatever the input; PillarStack's engine (Jinja, the loader) is loaded only when that mode first runs.
import "../shims/globals.js";
import { runCloud } from "./cloud.js";
import { runLab } from "./lab.js";
import type { Job, Output, Request, Response } from "./protocol.js";
import { errorView } from "./view.js";

let stackEngine: Promise<typeof import("./stack.js")> | undefined;

async function run(job: Job): Promise<Output> {
  switch (job.mode) {
    case "cloud":
      return runCloud(job.input);
    case "lab":
      return runLab(job.input);
    case "stack":
      stackEngine ??= import("./stack.js");
      return (await stackEngine).runStack(job.input);
  }
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id } = event.data;
  let response: Response;
  try {
    response = { id, ok: true, output: await run(event.data) };
  } catch (error) {
    response = { id, ok: false, error: errorView(error) };
  }
  self.postMessage(response);
};
