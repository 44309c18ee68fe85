import { useCallback, useState } from "preact/hooks";
import type { CloudState } from "../state.js";
import type { Place } from "../worker/protocol.js";
import { highlightFor, ErrorLine, Status } from "./common.js";
import { Editor } from "./editor.js";
import { type MergeEngine, useMerge } from "./engine.js";
import { ResultPanel } from "./result.js";

const ignore = () => undefined;

interface Props {
  readonly state: CloudState;
  /** Changes the state from its latest value (callbacks stay valid across renders). */
  readonly update: (change: (state: CloudState) => CloudState) => void;
  readonly engine: MergeEngine;
}

export function CloudMode({ state, update, engine }: Props) {
  const merge = useMerge(engine, { mode: "cloud", input: state });
  const out = merge.output?.mode === "cloud" ? merge.output : undefined;
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [shown, setShown] = useState<Place | undefined>(undefined);
  const result = out?.result;
  const partErrors = out?.parts.map((p) => p.error) ?? [];

  const select = useCallback(
    (line: number) => {
      setSelected(line);
      const entry = result?.entries[result.lines[line] ?? -1];
      setShown(entry?.origin ?? entry?.contributors[0]);
    },
    [result],
  );
  const setPart = (index: number, change: Partial<CloudState["parts"][number]>) =>
    update((s) => ({ ...s, parts: s.parts.map((p, i) => (i === index ? { ...p, ...change } : p)) }));
  // One callback for every part's text editor, routed by the editor's id (`part-2-text`).
  const onPartText = useCallback(
    (text: string, id: string) => {
      const index = Number(/^part-(\d+)-text$/.exec(id)?.[1]) - 1;
      update((s) => ({ ...s, parts: s.parts.map((p, i) => (i === index ? { ...p, text } : p)) }));
    },
    [update],
  );
  const onUserData = useCallback((mime: string) => update((s) => ({ ...s, mime })), [update]);
  const movePart = (index: number, step: number) =>
    update((s) => {
      const parts = [...s.parts];
      const [part] = parts.splice(index, 1);
      parts.splice(index + step, 0, part!);
      return { ...s, parts };
    });
  const addPart = () =>
    update((s) => ({
      ...s,
      parts: [
        ...s.parts,
        { name: `part-${String(s.parts.length + 1).padStart(3, "0")}`, header: "", text: "#cloud-config\n" },
      ],
    }));

  const merged = out?.parts.filter((p) => p.status === "merged").length ?? 0;
  return (
    <div class="mode">
      <section class="inputs" aria-label="cloud-config input">
        <fieldset class="choice">
          <legend>Merge mode</legend>
          <label>
            <input
              type="radio"
              name="cloud-mode"
              checked={state.mode === "current"}
              onChange={() => update((s) => ({ ...s, mode: "current" }))}
            />{" "}
            current: what cloud-init does (a part without <code>merge_how</code> replaces)
          </label>
          <label>
            <input
              type="radio"
              name="cloud-mode"
              checked={state.mode === "stack"}
              onChange={() => update((s) => ({ ...s, mode: "stack" }))}
            />{" "}
            stack: the merging document's design (each part merged with the mergers of the one before)
          </label>
        </fieldset>
        <fieldset class="choice">
          <legend>Input</legend>
          <label>
            <input
              type="radio"
              name="cloud-source"
              checked={state.source === "parts"}
              onChange={() => update((s) => ({ ...s, source: "parts" }))}
            />{" "}
            cloud-config parts
          </label>
          <label>
            <input
              type="radio"
              name="cloud-source"
              checked={state.source === "mime"}
              onChange={() => update((s) => ({ ...s, source: "mime" }))}
            />{" "}
            whole user-data (MIME multipart)
          </label>
        </fieldset>

        {state.source === "parts" ? (
          <>
            {state.parts.map((part, index) => {
              const n = index + 1;
              const hl = highlightFor(index, shown, partErrors);
              return (
                <fieldset class="part" key={index}>
                  <legend>
                    Part {n}: {part.name}
                  </legend>
                  <div class="row">
                    <div class="field small">
                      <label for={`part-${n}-name`}>Part {n} name</label>
                      <input
                        id={`part-${n}-name`}
                        value={part.name}
                        onInput={(e) => setPart(index, { name: (e.target as HTMLInputElement).value })}
                      />
                    </div>
                    <div class="field small">
                      <label for={`part-${n}-header`}>Part {n} Merge-Type header</label>
                      <input
                        id={`part-${n}-header`}
                        value={part.header}
                        placeholder="e.g. list(append)+dict(recurse_array)+str()"
                        spellcheck={false}
                        onInput={(e) => setPart(index, { header: (e.target as HTMLInputElement).value })}
                      />
                    </div>
                  </div>
                  <Editor
                    id={`part-${n}-text`}
                    label={`Part ${n} text`}
                    value={part.text}
                    onInput={onPartText}
                    highlight={hl?.line}
                    highlightKind={hl?.kind}
                  />
                  <div class="buttons">
                    <button type="button" disabled={index === 0} onClick={() => movePart(index, -1)}>
                      Move part {n} up
                    </button>
                    <button
                      type="button"
                      disabled={index === state.parts.length - 1}
                      onClick={() => movePart(index, 1)}
                    >
                      Move part {n} down
                    </button>
                    <button
                      type="button"
                      onClick={() => update((s) => ({ ...s, parts: s.parts.filter((_, i) => i !== index) }))}
                    >
                      Remove part {n}
                    </button>
                  </div>
                </fieldset>
              );
            })}
            <button type="button" class="add" onClick={addPart}>
              Add a part
            </button>
          </>
        ) : (
          <>
            <Editor
              id="user-data"
              label="User-data (a MIME multipart message, as cloud-init devel make-mime writes it, or one part)"
              value={state.mime}
              rows={16}
              onInput={onUserData}
            />
            {out?.extracted.map((part, index) => {
              const hl = highlightFor(index, shown, partErrors);
              return (
                <Editor
                  key={index}
                  id={`extracted-${index + 1}`}
                  label={`Part ${index + 1} taken from the user-data: ${part.name}${part.header === "" ? "" : ` (Merge-Type: ${part.header})`}`}
                  value={part.text}
                  readOnly={true}
                  onInput={ignore}
                  highlight={hl?.line}
                  highlightKind={hl?.kind}
                />
              );
            })}
          </>
        )}
      </section>

      <section class="outputs" aria-label="cloud-config result">
        <Status
          running={merge.running}
          label={out === undefined ? "" : `${merged} of ${out.parts.length} parts merged`}
        />
        {merge.error !== undefined && <ErrorLine error={merge.error} />}
        {out?.error !== undefined && <ErrorLine error={out.error} />}
        {out !== undefined && out.parts.length > 0 && (
          <div class="table-wrap">
            <table class="parts">
              <caption>Parts</caption>
              <thead>
                <tr>
                  <th scope="col">Part</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Mergers used</th>
                </tr>
              </thead>
              <tbody>
                {out.parts.map((part, index) => (
                  <tr key={index} class={part.status}>
                    <th scope="row">{part.name || "?"}</th>
                    <td>
                      {part.status}
                      {part.error !== undefined && <ErrorLine error={part.error} />}
                    </td>
                    <td>
                      <code>
                        {part.mergers ?? (part.type === "text/cloud-config-jsonp" ? "JSON patch" : "—")}
                      </code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {out !== undefined && out.skipped.length > 0 && (
          <div>
            <h3>Not cloud-config (left out of the merge)</h3>
            <ul>
              {out.skipped.map((s, i) => (
                <li key={i}>
                  {s.name}: {s.reason}
                </li>
              ))}
            </ul>
          </div>
        )}
        {result !== undefined && (
          <ResultPanel
            id="cloud-result"
            label="Merged cloud-config, as cloud-init writes it"
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
