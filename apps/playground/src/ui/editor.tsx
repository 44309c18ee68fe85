// A plain textarea (native editing, undo, screen-reader support) with line numbers and a highlighted line behind it.
// It re-renders only when its own props change, so a 10,000-line text costs nothing while another field is typed in.
import { memo } from "preact/compat";
import { useEffect, useRef, useState } from "preact/hooks";

export interface EditorProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  /** Called with the new text and the field's id (one callback can serve many editors). */
  readonly onInput: (value: string, id: string) => void;
  /** 1-based line to highlight (the origin of the selected value, or an error). */
  readonly highlight?: number;
  readonly highlightKind?: "origin" | "error";
  readonly readOnly?: boolean;
  readonly rows?: number;
  /** Id of an element describing the field (its error). */
  readonly describedBy?: string;
}

const LINE_HEIGHT = 20;
const PADDING = 8;

export const Editor = memo(function Editor(props: EditorProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [scroll, setScroll] = useState(0);
  const lineCount = Math.max(1, props.value.split("\n").length);
  const rows = props.rows ?? Math.min(Math.max(lineCount + 1, 4), 18);

  useEffect(() => {
    // Bring the highlighted line into view without moving the focus or the caret.
    const el = area.current;
    if (el === null || props.highlight === undefined) return;
    const top = PADDING + (props.highlight - 1) * LINE_HEIGHT;
    if (top < el.scrollTop || top + LINE_HEIGHT > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, top - el.clientHeight / 2);
      setScroll(el.scrollTop);
    }
    el.closest(".editor")?.scrollIntoView?.({ block: "nearest" });
  }, [props.highlight]);

  // One text node for all the numbers: a long text must not cost one element per line.
  let numbers = "";
  for (let i = 1; i <= lineCount; i++) numbers += `${i}\n`;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <div
        class="editor"
        data-highlight-line={props.highlight ?? ""}
        data-highlight-kind={props.highlight === undefined ? "" : (props.highlightKind ?? "origin")}
        style={{ height: `${rows * LINE_HEIGHT + 2 * PADDING + 2}px` }}
      >
        <div class="gutter" aria-hidden="true">
          {props.highlight !== undefined && (
            <div
              class={`line-mark ${props.highlightKind ?? "origin"}`}
              style={{ top: `${PADDING + (props.highlight - 1) * LINE_HEIGHT - scroll}px` }}
            />
          )}
          <pre style={{ transform: `translateY(${-scroll}px)` }}>{numbers}</pre>
        </div>
        <div class="code">
          {props.highlight !== undefined && (
            <div
              class={`line-mark ${props.highlightKind ?? "origin"}`}
              aria-hidden="true"
              style={{ top: `${PADDING + (props.highlight - 1) * LINE_HEIGHT - scroll}px` }}
            />
          )}
          <textarea
            id={props.id}
            ref={area}
            value={props.value}
            readOnly={props.readOnly}
            spellcheck={false}
            autocomplete="off"
            autocapitalize="off"
            wrap="off"
            aria-describedby={props.describedBy}
            onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value, props.id)}
            onScroll={(e) => setScroll((e.target as HTMLTextAreaElement).scrollTop)}
          />
        </div>
      </div>
    </div>
  );
});
