// The merged result, one line per row of a listbox: arrow keys or a click select a value, and the panel below says
// where it came from, what decided it and what it beat. The origin's line is highlighted in its input.
import { memo } from "preact/compat";
import { useEffect, useRef, useState } from "preact/hooks";
import type { DecisionView, EntryView, Place, ResultView } from "../worker/protocol.js";

export function placeText(place: Place | undefined): string {
  if (place === undefined) return "?";
  return place.line === undefined ? place.name : `${place.name}, line ${place.line}`;
}

function decisionText(decision: DecisionView): string {
  let text = `${decision.action} by ${decision.merger}`;
  if (decision.at !== undefined) text += ` while merging ${placeText(decision.at)}`;
  if (decision.detail !== undefined && decision.detail !== "") text += ` (${decision.detail})`;
  return text;
}

/** One sentence for the selected value (also announced to screen readers). */
export function entrySummary(entry: EntryView): string {
  const what = entry.kind === "value" ? `${entry.path} = ${entry.value}` : `${entry.path} (${entry.kind})`;
  const from =
    entry.origin !== undefined
      ? `from ${placeText(entry.origin)}`
      : entry.contributors.length > 0
        ? `from ${[...new Set(entry.contributors.map((c) => c.name))].join(", ")}`
        : "";
  const decided = entry.decision === undefined ? "" : `; ${decisionText(entry.decision)}`;
  return `${what}: ${from}${decided}`;
}

export interface ResultProps {
  readonly id: string;
  readonly label: string;
  readonly result: ResultView;
  readonly selected: number | undefined;
  readonly onSelect: (line: number) => void;
  /** Brings an input's line into view (the "show" buttons of the explanation). */
  readonly onShow: (place: Place) => void;
}

/** Lines rendered at first; a longer result shows more on request (a 10,000-line result stays quick to show). */
const LINES_AT_ONCE = 1000;

export const ResultPanel = memo(function ResultPanel({
  id,
  label,
  result,
  selected,
  onSelect,
  onShow,
}: ResultProps) {
  const all = result.text.replace(/\n$/, "").split("\n");
  const [limit, setLimit] = useState(LINES_AT_ONCE);
  const lines = all.length > limit ? all.slice(0, limit) : all;
  const list = useRef<HTMLDivElement>(null);
  const entry = selected === undefined ? undefined : result.entries[result.lines[selected] ?? -1];

  useEffect(() => {
    if (selected === undefined) return;
    list.current?.querySelector(`[data-line="${selected}"]`)?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

  const selectable = (line: number) => (result.lines[line] ?? -1) >= 0;
  const move = (from: number, step: number) => {
    for (let line = from + step; line >= 0 && line < lines.length; line += step) {
      if (selectable(line)) return onSelect(line);
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = selected ?? -1;
    if (event.key === "ArrowDown") move(at, 1);
    else if (event.key === "ArrowUp") move(at < 0 ? lines.length : at, -1);
    else if (event.key === "Home") move(-1, 1);
    else if (event.key === "End") move(lines.length, -1);
    else return;
    event.preventDefault();
  };

  return (
    <div class="result">
      <div id={`${id}-label`} class="label">
        {label}
      </div>
      <div
        id={id}
        ref={list}
        class="lines"
        role="listbox"
        tabIndex={0}
        aria-labelledby={`${id}-label`}
        aria-activedescendant={selected === undefined ? undefined : `${id}-line-${selected}`}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (selected === undefined) move(-1, 1);
        }}
      >
        {lines.map((text, line) =>
          selectable(line) ? (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys (aria-activedescendant)
            <div
              key={line}
              tabIndex={-1}
              id={`${id}-line-${line}`}
              data-line={line}
              role="option"
              aria-selected={line === selected}
              class={line === selected ? "line selectable selected" : "line selectable"}
              onClick={() => onSelect(line)}
            >
              {text === "" ? " " : text}
            </div>
          ) : (
            <div key={line} class="line" role="presentation" aria-hidden="true">
              {text === "" ? " " : text}
            </div>
          ),
        )}
      </div>
      {all.length > lines.length && (
        <button type="button" onClick={() => setLimit(all.length)}>
          Show the other {all.length - lines.length} lines of the result
        </button>
      )}
      <section class="explain" aria-labelledby={`${id}-explain`} aria-live="polite">
        <h3 id={`${id}-explain`}>Why this value</h3>
        {entry === undefined ? (
          <p class="hint">
            Select a line of the result (click it, or focus the result and use the arrow keys).
          </p>
        ) : (
          <Explanation entry={entry} onShow={onShow} />
        )}
        {result.removed.length > 0 && (
          <div>
            <h4>Removed</h4>
            <ul>
              {result.removed.map((r) => (
                <li key={r.path}>
                  <code>{r.path}</code>: {decisionText(r.decision)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </div>
  );
});

function Explanation({ entry, onShow }: { entry: EntryView; onShow: (place: Place) => void }) {
  const show = (place: Place | undefined) =>
    place !== undefined && place.input >= 0 ? (
      <button type="button" class="link" onClick={() => onShow(place)}>
        {placeText(place)}
      </button>
    ) : (
      <span>{placeText(place)}</span>
    );
  return (
    <dl class="why" data-testid="explanation">
      <dt>Value</dt>
      <dd>
        <code>{entry.path}</code>
        {entry.kind === "value" ? (
          <>
            {" = "}
            <code>{entry.value}</code>
          </>
        ) : (
          ` (${entry.kind === "dict" ? "mapping" : "list"})`
        )}
      </dd>
      <dt>Comes from</dt>
      <dd data-testid="origin">
        {entry.origin !== undefined
          ? show(entry.origin)
          : entry.contributors.length > 0
            ? entry.contributors.map((c, i) => (
                <span key={i}>
                  {i > 0 && ", "}
                  {show(c)}
                </span>
              ))
            : "no input (made by the merge)"}
      </dd>
      <dt>Decided by</dt>
      <dd data-testid="decision">
        {entry.decision === undefined ? (
          "taken as is (nothing else was merged here)"
        ) : (
          <>
            <strong>{entry.decision.merger}</strong>: {entry.decision.action}
            {entry.decision.at !== undefined && <> while merging {show(entry.decision.at)}</>}
            {entry.decision.detail !== undefined &&
              entry.decision.detail !== "" &&
              ` (${entry.decision.detail})`}
          </>
        )}
      </dd>
      <dt>Values it beat</dt>
      <dd data-testid="beaten">
        {entry.beaten.length === 0 ? (
          "none"
        ) : (
          <ul>
            {entry.beaten.map((b, i) => (
              <li key={i}>
                <code>{b.value}</code> in {show(b)}
              </li>
            ))}
          </ul>
        )}
      </dd>
      {entry.history.length > 1 && (
        <>
          <dt>At this path, in merge order</dt>
          <dd>
            <ol>
              {entry.history.map((d, i) => (
                <li key={i}>{decisionText(d)}</li>
              ))}
            </ol>
          </dd>
        </>
      )}
    </dl>
  );
}
