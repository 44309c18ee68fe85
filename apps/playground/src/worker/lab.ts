// spec lab: documents merged with any spec of cloud-init's mergers or PillarStack's `stack()`, as `merge docs`.
import { createRegistry, isMergeError, mergeAll, type MergeError } from "@merge/core";
import { captureRegistry, createTraceRecorder, type ExplainDocument } from "@merge/explain";
import { cloudInitPlugins } from "@merge/mergers-cloudinit";
import { stackMerger } from "@merge/strategies-stack";
import { dumpYaml, loadYamlWithPositions, type YamlWithPositions } from "@merge/yaml";
import type { ErrorView, LabInput, LabOutput } from "./protocol.js";
import { errorView, resultView } from "./view.js";

export function runLab(input: LabInput): LabOutput {
  const registry = createRegistry().use(...cloudInitPlugins(), stackMerger());
  try {
    registry.resolve(input.spec);
  } catch (error) {
    if (!isMergeError(error)) throw error;
    return { mode: "lab", result: undefined, specError: errorView(error), errors: [] };
  }
  const errors: ErrorView[] = [];
  const loaded: { index: number; doc: YamlWithPositions }[] = [];
  input.docs.forEach((text, index) => {
    try {
      const doc = loadYamlWithPositions(text, { flavor: "pyyaml", filename: docName(index) });
      if (doc.value !== null && doc.value !== undefined) loaded.push({ index, doc });
    } catch (error) {
      if (!isMergeError(error)) throw error;
      errors.push(errorView(error, index));
    }
  });
  if (errors.length > 0) return { mode: "lab", result: undefined, specError: undefined, errors };

  const recorder = createTraceRecorder();
  const merged: unknown[] = [];
  let value: unknown;
  try {
    value = mergeAll(
      loaded.map((item) => item.doc.value),
      {
        registry: captureRegistry(registry, recorder, merged),
        spec: input.spec,
        sources: loaded.map((item) => ({ file: docName(item.index) })),
      },
    );
  } catch (error) {
    if (!isMergeError(error)) throw error;
    const at = locate(error, loaded);
    return { mode: "lab", result: undefined, specError: undefined, errors: [at] };
  }
  const documents: ExplainDocument[] = loaded.map((item) => ({
    name: docName(item.index),
    value: item.doc.value,
    positionOf: (path) => item.doc.positionOf(path),
  }));
  const text = dumpYaml(value, { preset: "readable" });
  return {
    mode: "lab",
    result: resultView({
      value,
      text,
      bodyStart: 0,
      documents,
      events: recorder.events,
      inputOf: (document) => loaded[document]?.index ?? document,
    }),
    specError: undefined,
    errors: [],
  };
}

function docName(index: number): string {
  return `document ${index + 1}`;
}

/** Points a merge error at the line of the offending key in the document being merged (as `merge docs` does). */
function locate(error: MergeError, loaded: readonly { index: number; doc: YamlWithPositions }[]): ErrorView {
  const which = error.source?.document;
  const item = which === undefined ? undefined : loaded[which];
  const view = errorView(error, item?.index);
  if (item === undefined || view.line !== undefined || error.keys === undefined) return view;
  const at = item.doc.positionOf(error.keys);
  return { ...view, file: docName(item.index), line: at?.line, column: at?.column };
}
