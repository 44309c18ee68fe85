// cloud-config mode: the parts (or a pasted user-data blob) merged as cloud-init merges them, explained as
// `merge cloud-config --explain` explains them.
import { isMergeError } from "@merge/core";
import { captureRegistry, cloudConfigProvenance, createTraceRecorder, type PartRecord } from "@merge/explain";
import {
  type CloudConfigPart,
  createCloudInitRegistry,
  formatCloudConfig,
  mergeCloudConfig,
  mergeTypeHeader,
  parseUserData,
} from "@merge/mergers-cloudinit";
import { loadYamlWithPositions } from "@merge/yaml";
import type { CloudInput, CloudOutput } from "./protocol.js";
import { errorView, resultView } from "./view.js";

export async function runCloud(input: CloudInput): Promise<CloudOutput> {
  let parts: CloudConfigPart[];
  let extracted: CloudOutput["extracted"] = [];
  let skipped: CloudOutput["skipped"] = [];
  if (input.source === "mime") {
    try {
      const data = await parseUserData(input.mime);
      parts = data.parts;
      skipped = data.skipped;
      extracted = data.parts.map((part) => ({
        name: part.name ?? "",
        header: mergeTypeHeader(part.headers),
        text: textOf(part),
      }));
    } catch (error) {
      if (!isMergeError(error)) throw error;
      return { mode: "cloud", result: undefined, parts: [], extracted, skipped, error: errorView(error) };
    }
  } else {
    parts = input.parts.map((part) => ({
      text: part.text,
      name: part.name,
      headers: part.header.trim() === "" ? undefined : { "Merge-Type": part.header.trim() },
    }));
  }

  const recorder = createTraceRecorder();
  const merged: unknown[] = [];
  const failures = new Map<number, unknown>();
  const result = mergeCloudConfig(parts, {
    mode: input.mode,
    registry: captureRegistry(createCloudInitRegistry(), recorder, merged, failures),
  });
  const outcomes = result.parts.map((outcome) => ({
    name: outcome.name,
    type: outcome.type,
    status: outcome.status,
    mergers: outcome.mergers,
    error: outcome.error === undefined ? undefined : errorView(outcome.error, outcome.index),
  }));
  if (result.value === null) {
    return { mode: "cloud", result: undefined, parts: outcomes, extracted, skipped, error: undefined };
  }
  const records: PartRecord[] = result.parts.map((outcome, index) => ({
    name: outcome.name,
    type: outcome.type,
    status: outcome.status,
    error: outcome.error,
    text: textOf(parts[index]!),
  }));
  const provenance = cloudConfigProvenance(records, merged, failures, recorder.events, (part) => {
    try {
      const loaded = loadYamlWithPositions(part.text, { flavor: "pyyaml", filename: part.name });
      return (path) => loaded.positionOf(path);
    } catch {
      return undefined;
    }
  });
  const text = formatCloudConfig(result);
  const bodyStart = text.split("\n").indexOf("---");
  return {
    mode: "cloud",
    result: resultView({
      value: result.value,
      text,
      bodyStart: Math.max(0, bodyStart),
      documents: provenance.documents,
      events: provenance.events,
    }),
    parts: outcomes,
    extracted,
    skipped,
    error: undefined,
  };
}

function textOf(part: CloudConfigPart): string {
  return typeof part.text === "string" ? part.text : new TextDecoder().decode(part.text ?? new Uint8Array());
}
