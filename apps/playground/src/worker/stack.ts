// PillarStack mode, loaded only when that mode is opened: the tree kept in memory, rendered and merged for one
// minion as `merge stack --explain` does.
import { createRegistry, isMapping, isMergeError } from "@merge/core";
import { captureRegistry, createTraceRecorder, type ExplainDocument } from "@merge/explain";
import { createMemoryFileSystem, loadStack } from "@merge/source-stack";
import { stackMerger } from "@merge/strategies-stack";
import { dumpYaml, loadYaml, loadYamlWithPositions } from "@merge/yaml";
import type { ErrorView, StackInput, StackOutput } from "./protocol.js";
import { errorView, resultView } from "./view.js";

/** Where the tree is mounted: files are named relative to it, as `merge stack` run in the stack's directory. */
const ROOT = "/";

export function runStack(input: StackInput): StackOutput {
  const fail = (errors: ErrorView[]): StackOutput => ({
    mode: "stack",
    result: undefined,
    files: [],
    warnings: [],
    errors,
  });
  const inputOf = (file: string | undefined): number | undefined => {
    const index = input.files.findIndex((f) => f.name === file);
    return index < 0 ? undefined : index;
  };
  // A file a template imports is named by its path in the tree (`/common/x.yml`); its tab by the name under ROOT.
  const tabName = (file: string | undefined): string | undefined =>
    file?.startsWith(ROOT) && inputOf(file) === undefined ? file.slice(ROOT.length) : file;
  // Grains and pillar: a YAML mapping each (an empty text is `{}`), or a coded error placed in that field.
  type Loaded =
    | { readonly ok: true; readonly value: Record<string, unknown> }
    | { readonly ok: false; readonly error: ErrorView };
  const mapping = (text: string, what: string): Loaded => {
    try {
      const value = loadYaml(text, { flavor: "salt", filename: what });
      if (value === null || value === undefined) return { ok: true, value: {} };
      if (isMapping(value) && !Array.isArray(value))
        return { ok: true, value: value as Record<string, unknown> };
      const message = `${what} must be a mapping (key: value lines), not a list or a scalar`;
      return {
        ok: false,
        error: {
          code: "INPUT_NOT_MAPPING",
          message,
          file: what,
          line: 1,
          text: `${what}:1: ${message} [INPUT_NOT_MAPPING]`,
        },
      };
    } catch (error) {
      if (!isMergeError(error)) throw error;
      return { ok: false, error: errorView(error) };
    }
  };
  const grains = mapping(input.grains, "grains");
  const pillar = mapping(input.pillar, "pillar");
  if (!grains.ok || !pillar.ok) {
    return fail([grains, pillar].flatMap((loaded) => (loaded.ok ? [] : [loaded.error])));
  }

  const recorder = createTraceRecorder();
  const merged: unknown[] = [];
  let result: ReturnType<typeof loadStack>;
  try {
    const files = createMemoryFileSystem(Object.fromEntries(input.files.map((f) => [f.name, f.text])), ROOT);
    result = loadStack({
      config: input.config,
      cwd: ROOT,
      files,
      minionId: input.minionId,
      grains: grains.value,
      pillar: pillar.value,
      spec: "stack()",
      registry: captureRegistry(createRegistry().use(stackMerger()), recorder, merged),
    });
  } catch (error) {
    if (!isMergeError(error)) throw error;
    const file = tabName(error.source?.file);
    return fail([{ ...errorView(error, inputOf(file)), file }]);
  }

  const documents: ExplainDocument[] = result.files.map((file, index) => {
    const value = merged[index];
    const text = input.files.find((f) => f.name === file)?.text;
    try {
      if (text === undefined) return { name: file, value };
      const located = loadYamlWithPositions(text, { flavor: "salt" });
      return { name: file, value, positionOf: (path) => located.positionOf(path) };
    } catch {
      // A file whose template syntax keeps it from parsing as YAML before rendering gets no line numbers.
      return { name: file, value };
    }
  });
  return {
    mode: "stack",
    result: resultView({
      value: result.data,
      text: dumpYaml(result.data, { preset: "readable" }),
      bodyStart: 0,
      documents,
      events: recorder.events,
      inputOf: (document) => inputOf(result.files[document]) ?? -1,
    }),
    files: result.files,
    warnings: result.warnings.map((w) => ({ code: w.code, message: w.message, file: w.file, line: w.line })),
    errors: [],
  };
}
