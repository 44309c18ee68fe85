import { type MergeError, isMergeError, mergeAll } from "@merge/core";
import { type LoadedDocument, loadDocument } from "../load-document.js";
import { UsageError } from "../usage.js";
import { createCliRegistry, createOutputOptions, finish, warn } from "./common.js";
import type { CommandInput } from "./table.js";
import { createTraceRecorder } from "@merge/explain";

/** cloud-init's documented default, the seed's spec. */
export const DEFAULT_DOCS_SPEC = "list(extend)+dict()+str(append)";

export async function execute({ values, positionals, io }: CommandInput): Promise<number> {
  const options = createOutputOptions(values, "docs");
  const spec = (values.spec as string | undefined) ?? DEFAULT_DOCS_SPEC;
  const registry = await createCliRegistry(options.plugins, io.cwd, spec);

  if (positionals.filter((name) => name === "-").length > 1) {
    throw new UsageError("standard input (-) can be named only once", "docs");
  }
  const documents: LoadedDocument[] = [];
  for (const name of positionals) {
    const doc = await loadDocument(name, io);
    if (doc.value === null || doc.value === undefined) {
      warn(io, `${name === "-" ? "standard input" : name}: empty document, nothing to merge`);
      continue;
    }
    documents.push(doc);
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
