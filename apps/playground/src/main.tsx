import { render } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  type AppState,
  type CloudState,
  decodeState,
  encodeState,
  initialState,
  type LabState,
  type StackState,
  type View,
} from "./state.js";
import { CloudMode } from "./ui/cloud-mode.js";
import { MergeEngine } from "./ui/engine.js";
import { LabMode } from "./ui/lab-mode.js";
import { StackMode } from "./ui/stack-mode.js";
import "./styles.css";

const VIEWS: readonly (readonly [View, string])[] = [
  ["cloud", "cloud-config parts"],
  ["lab", "Spec lab"],
  ["stack", "PillarStack"],
];

function App({ start }: { start: AppState }) {
  const [state, setState] = useState(start);
  // One worker per mode, started when the mode is first shown.
  const engines = useMemo(() => new Map<View, MergeEngine>(), []);
  const engine = (view: View) => {
    let e = engines.get(view);
    if (e === undefined) {
      e = new MergeEngine();
      engines.set(view, e);
    }
    return e;
  };
  const [copied, setCopied] = useState("");
  const updateCloud = useCallback(
    (change: (s: CloudState) => CloudState) => setState((s) => ({ ...s, cloud: change(s.cloud) })),
    [],
  );
  const updateLab = useCallback(
    (change: (s: LabState) => LabState) => setState((s) => ({ ...s, lab: change(s.lab) })),
    [],
  );
  const updateStack = useCallback(
    (change: (s: StackState) => StackState) => setState((s) => ({ ...s, stack: change(s.stack) })),
    [],
  );

  // The address always holds the state, so the page's URL is the link to share (and reloading keeps the work).
  const saving = useRef(0);
  useEffect(() => {
    const turn = ++saving.current;
    const timer = setTimeout(async () => {
      const hash = await encodeState(state);
      if (turn === saving.current) history.replaceState(null, "", hash);
    }, 300);
    return () => clearTimeout(timer);
  }, [state]);

  const copyLink = async () => {
    const hash = await encodeState(state);
    history.replaceState(null, "", hash);
    try {
      await navigator.clipboard.writeText(location.href);
      setCopied("Link copied: it holds the whole state, and nothing is sent anywhere.");
    } catch {
      setCopied("Copy the address from the address bar: it holds the whole state.");
    }
  };

  const onTabKey = (event: KeyboardEvent) => {
    const index = VIEWS.findIndex(([v]) => v === state.view);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? VIEWS.length - 1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const [next] = VIEWS[(index + step) % VIEWS.length]!;
    setState((s) => ({ ...s, view: next }));
    document.getElementById(`view-tab-${next}`)?.focus();
  };

  return (
    <>
      <header>
        <h1>@merge playground</h1>
        <p class="intro">
          See what cloud-init or Salt's PillarStack make of your configuration, and why: select a value of the
          result to see the line it came from, the merger that decided it and the values it beat. Everything
          runs in this page; nothing is sent anywhere.
        </p>
        <div class="bar">
          <div class="tabs views" role="tablist" aria-label="Mode" onKeyDown={onTabKey}>
            {VIEWS.map(([view, label]) => (
              <button
                key={view}
                type="button"
                role="tab"
                id={`view-tab-${view}`}
                aria-selected={state.view === view}
                aria-controls="view-panel"
                tabIndex={state.view === view ? 0 : -1}
                class="tab"
                onClick={() => setState((s) => ({ ...s, view }))}
              >
                {label}
              </button>
            ))}
          </div>
          <div class="share">
            <button type="button" onClick={copyLink}>
              Copy a link to this state
            </button>
            <button type="button" onClick={() => setState((s) => ({ ...initialState(), view: s.view }))}>
              Reset to the examples
            </button>
            <span role="status" class="note">
              {copied}
            </span>
          </div>
        </div>
      </header>
      <main id="view-panel" role="tabpanel" aria-labelledby={`view-tab-${state.view}`}>
        {state.view === "cloud" && (
          <CloudMode state={state.cloud} engine={engine("cloud")} update={updateCloud} />
        )}
        {state.view === "lab" && <LabMode state={state.lab} engine={engine("lab")} update={updateLab} />}
        {state.view === "stack" && (
          <StackMode state={state.stack} engine={engine("stack")} update={updateStack} />
        )}
      </main>
    </>
  );
}

const start = (await decodeState(location.hash)) ?? initialState();
render(<App start={start} />, document.getElementById("app")!);
