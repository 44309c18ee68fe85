import { createRegistry, mergeAll } from "@merge/core";
import { cloudInitPlugins } from "@merge/mergers-cloudinit";
import { expect, it } from "vitest";
import { createTraceRecorder, explainResult } from "./index.js";

// Keeps the "Use" section of README.md true.
it("explains the README's merge", () => {
  const docs = [
    { packages: ["git"], port: 8080 },
    { packages: ["curl"], port: 9090 },
  ];
  const recorder = createTraceRecorder();
  const result = mergeAll(docs, {
    registry: createRegistry(cloudInitPlugins()),
    spec: "list(append)+dict(replace)+str()",
    trace: recorder,
  });
  const explanation = explainResult(
    result,
    docs.map((value, i) => ({ name: `doc${i + 1}.yml`, value })),
    recorder.events,
  );
  const port = explanation.entries.find((e) => e.path.join(".") === "port");
  expect(port?.value).toBe(9090);
  expect(port?.origin).toMatchObject({ document: 1, name: "doc2.yml" });
  expect(port?.decision).toMatchObject({ action: "replaced", merger: "dict(replace)", document: 1 });
});
