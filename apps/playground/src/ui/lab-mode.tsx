import { useCallback, useState } from "preact/hooks";
import type { LabState } from "../state.js";
import type { Place } from "../worker/protocol.js";
import { ErrorLine, highlightFor, Status } from "./common.js";
import { Editor } from "./editor.js";
import { type MergeEngine, useMerge } from "./engine.js";
import { ResultPanel } from "./result.js";

const PRESETS: readonly (readonly [string, string])[] = [
  ["list(extend)+dict()+str(append)", "the merging document's example"],
  ["dict(replace)+list()+str()", "cloud-init, a part without merge_how"],
  ["list(append)+dict(recurse_array)+str()", "append lists, recurse into dicts"],
  ["list(prepend)+dict(no_replace,recurse_list)+str()", "keep earlier values"],
  ["stack()", "PillarStack: merge-last"],
  ["stack(merge-first)", "PillarStack: merge-first"],
  ["stack(overwrite)", "PillarStack: overwrite"],
  ["stack(remove)", "PillarStack: remove"],
];

interface Props {
  readonly state: LabState;
  readonly update: (change: (state: LabState) => LabState) => void;
  readonly engine: MergeEngine;
}

export function LabMode({ state, update, engine }: Props) {
  const merge = useMerge(engine, { mode: "lab", input: state });
  const out = merge.output?.mode === "lab" ? merge.output : undefined;
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [shown, setShown] = useState<Place | undefined>(undefined);
  const result = out?.result;
  const specError = out?.specError;

  const select = useCallback(
    (line: number) => {
      setSelected(line);
      const entry = result?.entries[result.lines[line] ?? -1];
      setShown(entry?.origin ?? entry?.contributors[0]);
    },
    [result],
  );
  const onDoc = useCallback(
    (text: string, id: string) => {
      const index = Number(/^doc-(\d+)$/.exec(id)?.[1]) - 1;
      update((s) => ({ ...s, docs: s.docs.map((d, i) => (i === index ? text : d)) }));
    },
    [update],
  );
  const preset = PRESETS.find(([spec]) => spec === state.spec)?.[0] ?? "";
  return (
    <div class="mode">
      <section class="inputs" aria-label="spec lab input">
        <div class="field">
          <label for="spec">Merger spec (cloud-init mergers, or PillarStack's stack() with a strategy)</label>
          <input
            id="spec"
            class={specError === undefined ? "mono" : "mono invalid"}
            value={state.spec}
            spellcheck={false}
            autocomplete="off"
            aria-invalid={specError !== undefined}
            aria-describedby="spec-error"
            onInput={(e) => {
              const spec = (e.target as HTMLInputElement).value;
              update((s) => ({ ...s, spec }));
            }}
          />
          <div id="spec-error" aria-live="polite">
            {specError !== undefined && (
              <>
                {specError.offset !== undefined && (
                  <pre class="caret" aria-hidden="true">
                    {`${state.spec}\n${" ".repeat(specError.offset)}^`}
                  </pre>
                )}
                <ErrorLine error={specError} />
              </>
            )}
          </div>
        </div>
        <div class="field">
          <label for="spec-preset">Examples of specs</label>
          <select
            id="spec-preset"
            value={preset}
            onChange={(e) => {
              const spec = (e.target as HTMLSelectElement).value;
              if (spec !== "") update((s) => ({ ...s, spec }));
            }}
          >
            <option value="">(your own)</option>
            {PRESETS.map(([spec, note]) => (
              <option key={spec} value={spec}>
                {spec} — {note}
              </option>
            ))}
          </select>
        </div>
        {state.docs.map((doc, index) => {
          const hl = highlightFor(index, shown, out?.errors ?? []);
          return (
            <div class="doc" key={index}>
              <Editor
                id={`doc-${index + 1}`}
                label={`Document ${index + 1} (YAML)`}
                value={doc}
                onInput={onDoc}
                highlight={hl?.line}
                highlightKind={hl?.kind}
              />
              {state.docs.length > 2 && (
                <button
                  type="button"
                  onClick={() => update((s) => ({ ...s, docs: s.docs.filter((_, i) => i !== index) }))}
                >
                  Remove document {index + 1}
                </button>
              )}
            </div>
          );
        })}
        <button type="button" class="add" onClick={() => update((s) => ({ ...s, docs: [...s.docs, ""] }))}>
          Add a document
        </button>
      </section>
      <section class="outputs" aria-label="spec lab result">
        <Status running={merge.running} label={result === undefined ? "" : "Merged"} />
        {merge.error !== undefined && <ErrorLine error={merge.error} />}
        {out?.errors.map((error, i) => (
          <ErrorLine key={i} error={error} />
        ))}
        {result !== undefined && (
          <ResultPanel
            id="lab-result"
            label="Merged document"
            result={result}
            selected={selected}
            onSelect={select}
            onShow={setShown}
          />
        )}
      </section>
    </div>
  );
}
