import { isMergeError, MergeError, mergeAll } from "@merge/core";
import type { LoadedDocument } from "../load-document.js";
import { UsageError } from "../usage.js";
import { createCliRegistry, createOutputOptions, finish, warn } from "./common.js";
import type { CommandInput } from "./table.js";
import { createTraceRecorder } from "@merge/explain";
import { loadVersionedDocument, strictFailure, unknownOptions, yamlVersion } from "./checks.js";

/**
 * The seed's `list(extend)+dict()+str(append)` as the seed means it: its `dict()` merged every key both documents
 * have, which today's cloud-init `dict` does for lists and strings only with `recurse_list` / `recurse_str` (the same
 * spelling as `STACK_DEFAULT_SPEC` of @merge/mergers-cloudinit). With it the seed's `run_cmd` example gives
 * `bash1`..`bash4`.
 */
export const DEFAULT_DOCS_SPEC = "list(extend)+dict(recurse_list,recurse_str)+str(append)";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "docs");
  // An empty spec means the defaults, as an empty `merge_how` does in cloud-init.
  const given = values.spec as string | undefined;
  const spec = given === undefined || given.trim() === "" ? DEFAULT_DOCS_SPEC : given;
  const version = yamlVersion(values, "docs", "1.2");
  const registry = await createCliRegistry(options.plugins, io.cwd, spec);
  // cloud-init ignores options its mergers do not know; --strict makes them errors.
  const unknown = unknownOptions(registry, spec, "--spec");
  if (values.strict === true) {
    const status = strictFailure(io, unknown);
    if (status !== undefined) return status;
  } else for (const problem of unknown) warn(io, problem.message);

  if (positionals.filter((name) => name === "-").length > 1) {
    throw new UsageError("standard input (-) can be named only once", "docs");
  }
  const documents: LoadedDocument[] = [];
  for (const name of positionals) {
    // --explain asks for the position of every value: read them with the value, not in a second pass.
    const doc = await loadVersionedDocument(name, io, version, {
      positions: options.explain ? "eager" : "lazy",
    });
    if (doc.value === null || doc.value === undefined) {
      warn(io, `${name === "-" ? "standard input" : name}: empty document, nothing to merge`);
      continue;
    }
    documents.push(doc);
  }

  // A spec without a mapping merger keeps the result `{}` and drops every document, as cloud-init keeps a
  // configuration its mergers cannot merge into: never silently.
  const dropped = droppedDocuments(registry, spec, documents);
  if (dropped !== undefined) {
    if (values.strict === true) {
      const status = strictFailure(io, [dropped]);
      if (status !== undefined) return status;
    } else warn(io, `${dropped.message} [${dropped.code}]`);
  }

  const recorder = options.explain ? createTraceRecorder() : undefined;
  let value: unknown;
  try {
    value = mergeAll(
      documents.map((doc) => doc.value),
      {
        registry,
        spec,
        exact: true,
        lenient: true,
        trace: recorder,
        sources: documents.map((doc) => ({ file: doc.file })),
      },
    );
  } catch (error) {
    if (isMergeError(error)) locate(error, documents);
    throw error;
  }
  return await finish(io, options, value, {
    title: `merge docs --spec '${spec}'`,
    documents: documents.map((doc) => ({
      name: doc.file,
      value: doc.value,
      positionOf: doc.positionOf,
    })),
    events: recorder?.events ?? [],
  });
}

/** Points a merge error at the line of the offending key in the document being merged. */
function locate(error: MergeError, documents: readonly LoadedDocument[]): void {
  const source = error.source;
  if (source?.document === undefined || source.line !== undefined) return;
  // mergeAll numbers documents by their place in the sequence.
  const doc = documents[source.document];
  const at = error.keys === undefined || doc === undefined ? undefined : doc.positionOf(error.keys);
  error.source = { file: source.file, line: at?.line, column: at?.column };
}

/**
 * `MERGE_DROPPED` when the spec has no merger for a mapping: the fold starts from `{}`, so every document that is not
 * empty is dropped and the result stays `{}`.
 */
function droppedDocuments(
  registry: Awaited<ReturnType<typeof createCliRegistry>>,
  spec: string,
  documents: readonly LoadedDocument[],
): MergeError | undefined {
  if (documents.length === 0) return undefined;
  if (registry.resolve(spec, { lenient: true }).handlerFor("dict") !== undefined) return undefined;
  const names = documents.map((doc) => doc.file).join(", ");
  return new MergeError(
    "MERGE_DROPPED",
    `the spec '${spec}' has no merger for a mapping, so the result stays {} and the content of ${names} is ` +
      "dropped (as cloud-init keeps a configuration its mergers cannot merge into); add dict() to the spec",
    { details: { spec, dropped: documents.map((doc) => doc.file) } },
  );
}
