import type { ErrorView, Place } from "../worker/protocol.js";

/** What an input's editor highlights: the origin of the selected value, or the line of an error in it. */
export interface Highlight {
  readonly input: number;
  readonly line: number;
  readonly kind: "origin" | "error";
}

/** The highlight for input `index`: the shown place if it is there, else the first error placed in it. */
export function highlightFor(
  index: number,
  shown: Place | undefined,
  errors: readonly (ErrorView | undefined)[],
): { line: number; kind: "origin" | "error" } | undefined {
  if (shown !== undefined && shown.input === index && shown.line !== undefined) {
    return { line: shown.line, kind: "origin" };
  }
  const error = errors.find((e) => e?.input === index && e.line !== undefined);
  return error?.line === undefined ? undefined : { line: error.line, kind: "error" };
}

export function ErrorLine({ error, id }: { error: ErrorView; id?: string }) {
  return (
    <p class="error" id={id} data-code={error.code}>
      <span class="code">{error.code}</span> {error.text}
    </p>
  );
}

export function Status({ running, label }: { running: boolean; label: string }) {
  return (
    <p class="status" role="status" aria-live="polite">
      {running ? "Merging…" : label}
    </p>
  );
}
