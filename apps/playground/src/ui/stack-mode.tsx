import { useCallback, useState } from "preact/hooks";
import type { StackState } from "../state.js";
import type { Place } from "../worker/protocol.js";
import { ErrorLine, highlightFor, Status } from "./common.js";
import { Editor } from "./editor.js";
import { type MergeEngine, useMerge } from "./engine.js";
import { ResultPanel } from "./result.js";

interface Props {
  readonly state: StackState;
  readonly update: (change: (state: StackState) => StackState) => void;
  readonly engine: MergeEngine;
}

export function StackMode({ state, update, engine }: Props) {
  const merge = useMerge(engine, { mode: "stack", input: state });
  const out = merge.output?.mode === "stack" ? merge.output : undefined;
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [shown, setShown] = useState<Place | undefined>(undefined);
  const [active, setActive] = useState(0);
  const result = out?.result;
  const errors = out?.errors ?? [];
  const current = Math.min(active, state.files.length - 1);
  const file = state.files[current];

  const show = useCallback((place: Place | undefined) => {
    setShown(place);
    if (place !== undefined && place.input >= 0) setActive(place.input);
  }, []);
  const select = useCallback(
    (line: number) => {
      setSelected(line);
      const entry = result?.entries[result.lines[line] ?? -1];
      show(entry?.origin ?? entry?.contributors[0]);
    },
    [result, show],
  );
  const onFileText = useCallback(
    (text: string) =>
      update((s) => ({ ...s, files: s.files.map((f, i) => (i === current ? { ...f, text } : f)) })),
    [update, current],
  );
  const onGrains = useCallback((grains: string) => update((s) => ({ ...s, grains })), [update]);
  const onPillar = useCallback((pillar: string) => update((s) => ({ ...s, pillar })), [update]);
  const addFile = () => {
    let n = 1;
    while (state.files.some((f) => f.name === `new-${n}.yml`)) n++;
    const name = `new-${n}.yml`;
    update((s) => ({ ...s, files: [...s.files, { name, text: "" }] }));
    setActive(state.files.length);
  };
  const onTabKey = (event: KeyboardEvent) => {
    const last = state.files.length - 1;
    const to =
      event.key === "ArrowRight"
        ? (current + 1) % (last + 1)
        : event.key === "ArrowLeft"
          ? (current + last) % (last + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (to === undefined) return;
    event.preventDefault();
    setActive(to);
    document.getElementById(`file-tab-${to}`)?.focus();
  };
  const errorsIn = (index: number) => errors.filter((e) => e.input === index);
  const hl = file === undefined ? undefined : highlightFor(current, shown, errors);

  return (
    <div class="mode">
      <section class="inputs" aria-label="PillarStack input">
        <div class="row">
          <div class="field small">
            <label for="minion-id">Minion id</label>
            <input
              id="minion-id"
              value={state.minionId}
              spellcheck={false}
              onInput={(e) => {
                const minionId = (e.target as HTMLInputElement).value;
                update((s) => ({ ...s, minionId }));
              }}
            />
          </div>
          <div class="field small">
            <label for="stack-config">Config file</label>
            <select
              id="stack-config"
              value={state.config}
              onChange={(e) => {
                const config = (e.target as HTMLSelectElement).value;
                update((s) => ({ ...s, config }));
              }}
            >
              {state.files.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div class="tree">
          <div class="label" id="files-label">
            Stack files
          </div>
          <div class="tabs" role="tablist" aria-labelledby="files-label" onKeyDown={onTabKey}>
            {state.files.map((f, index) => (
              <button
                key={index}
                type="button"
                role="tab"
                id={`file-tab-${index}`}
                aria-selected={index === current}
                aria-controls="file-panel"
                tabIndex={index === current ? 0 : -1}
                class={errorsIn(index).length > 0 ? "tab has-error" : "tab"}
                onClick={() => setActive(index)}
              >
                {f.name}
              </button>
            ))}
          </div>
          {file !== undefined && (
            <div id="file-panel" role="tabpanel" aria-labelledby={`file-tab-${current}`}>
              <div class="row">
                <div class="field small">
                  <label for="file-name">File path</label>
                  <input
                    id="file-name"
                    value={file.name}
                    spellcheck={false}
                    onInput={(e) => {
                      const name = (e.target as HTMLInputElement).value;
                      update((s) => ({
                        ...s,
                        config: s.config === s.files[current]?.name ? name : s.config,
                        files: s.files.map((f, i) => (i === current ? { ...f, name } : f)),
                      }));
                    }}
                  />
                </div>
                <div class="buttons">
                  <button type="button" onClick={addFile}>
                    Add a file
                  </button>
                  <button
                    type="button"
                    disabled={state.files.length <= 1}
                    onClick={() => {
                      update((s) => ({ ...s, files: s.files.filter((_, i) => i !== current) }));
                      setActive(Math.max(0, current - 1));
                    }}
                  >
                    Remove {file.name}
                  </button>
                </div>
              </div>
              <Editor
                id="file-text"
                label={`Contents of ${file.name}`}
                value={file.text}
                rows={14}
                onInput={onFileText}
                highlight={hl?.line}
                highlightKind={hl?.kind}
              />
            </div>
          )}
        </div>
        <Editor id="grains" label="Grains (YAML)" value={state.grains} onInput={onGrains} />
        <Editor
          id="pillar"
          label="Pillar from earlier ext_pillars (YAML)"
          value={state.pillar}
          onInput={onPillar}
        />
      </section>
      <section class="outputs" aria-label="PillarStack result">
        <Status
          running={merge.running}
          label={out === undefined || result === undefined ? "" : `${out.files.length} files merged`}
        />
        {merge.error !== undefined && <ErrorLine error={merge.error} />}
        {errors.map((error, i) => (
          <div key={i} class="placed-error">
            <ErrorLine error={error} />
            {error.input !== undefined && error.line !== undefined && (
              <button
                type="button"
                class="link"
                onClick={() => show({ input: error.input!, name: error.file ?? "", line: error.line })}
              >
                Show {error.file}, line {error.line}
              </button>
            )}
          </div>
        ))}
        {out !== undefined && out.files.length > 0 && (
          <div>
            <h3 id="merged-files">Files merged for {state.minionId}, in order</h3>
            <ol aria-labelledby="merged-files" class="files">
              {out.files.map((name, i) => (
                <li key={i}>{name}</li>
              ))}
            </ol>
          </div>
        )}
        {out !== undefined && out.warnings.length > 0 && (
          <div>
            <h3>Warnings</h3>
            <ul class="warnings">
              {out.warnings.map((w, i) => (
                <li key={i}>
                  {w.file === undefined ? "" : `${w.file}: `}
                  {w.message} <span class="code">{w.code}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {result !== undefined && (
          <ResultPanel
            id="stack-result"
            label="Merged pillar"
            result={result}
            selected={selected}
            onSelect={select}
            onShow={show}
          />
        )}
      </section>
    </div>
  );
}
