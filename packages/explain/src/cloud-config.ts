import type { PathKey, TraceEvent } from "@merge/core";
import type { ExplainDocument } from "./model.js";

/** What `--explain` needs to know of one cloud-config part after the merge. */
export interface PartRecord {
  readonly name: string;
  readonly type: string;
  readonly status: "merged" | "rejected";
  readonly error?: unknown;
  readonly text: string;
  /** The mergers the part was merged with (`PartOutcome.mergers`). */
  readonly mergers?: string;
  /** Which part declared them, or `"default"` (`PartOutcome.mergersFrom`). */
  readonly mergersFrom?: number | "default";
}

/**
 * Turns what a capturing registry saw during `mergeCloudConfig` into per-part documents and events numbered by part.
 *
 * The capture numbers merge calls, not parts: a JSON patch part makes no merge call, and neither does a part rejected
 * before its merge (invalid YAML, not a mapping). Walking the parts in order, a merged part owns the next call, and a
 * rejected part owns it only when that call failed with the very error the part was rejected for.
 */
export function cloudConfigProvenance(
  parts: readonly PartRecord[],
  merged: readonly unknown[],
  failures: ReadonlyMap<number, unknown>,
  events: readonly TraceEvent[],
  positions: (part: PartRecord) => ExplainDocument["positionOf"],
  /** The `mergeCloudConfig` mode, for the notes on where each part's mergers came from. */
  mode: "current" | "stack" = "current",
): { documents: ExplainDocument[]; events: TraceEvent[] } {
  const partOfCall: number[] = [];
  const callOfPart = new Map<number, number>();
  let call = 0;
  parts.forEach((part, index) => {
    if (part.type === "text/cloud-config-jsonp" || call >= merged.length) return;
    const owns = part.status === "merged" || (failures.has(call) && failures.get(call) === part.error);
    if (!owns) return;
    partOfCall[call] = index;
    callOfPart.set(index, call);
    call++;
  });
  const documents = parts.map((part, index): ExplainDocument => {
    if (part.status === "rejected") {
      const code = (part.error as { code?: string } | undefined)?.code ?? "error";
      return { name: part.name, value: undefined, note: `rejected: ${code}` };
    }
    if (part.type === "text/cloud-config-jsonp") {
      return { name: part.name, value: patchValues(part.text), note: "JSON patch" };
    }
    const at = callOfPart.get(index);
    const note = mergersNote(part, index, parts, mode);
    const doc = {
      name: part.name,
      value: at === undefined ? undefined : merged[at],
      positionOf: positions(part),
    };
    return note === undefined ? doc : { ...doc, note };
  });
  const renumbered = events.map((event) =>
    event.document === undefined ? event : { ...event, document: partOfCall[event.document] },
  );
  return { documents, events: renumbered };
}

/**
 * `merged with dict(replace)+list()+str(), cloud-init's default: it declares no merge_how` — the mergers a part was
 * merged with and where they came from: its own declaration, an earlier part's (`--mode stack`), or the default.
 */
function mergersNote(
  part: PartRecord,
  index: number,
  parts: readonly PartRecord[],
  mode: "current" | "stack",
): string | undefined {
  if (part.mergers === undefined) return undefined;
  const from = part.mergersFrom;
  if (from === undefined) return `merged with ${part.mergers}`;
  if (from === "default") {
    const why = mode === "stack" ? "no earlier part declares mergers" : "it declares no merge_how";
    return `merged with ${part.mergers}, cloud-init's default: ${why}`;
  }
  if (from === index) return `merged with ${part.mergers}, its own merge_how`;
  return `merged with ${part.mergers}, declared by ${parts[from]?.name ?? `part ${from + 1}`}`;
}

/**
 * The values a JSON patch writes, placed where it writes them (`add /packages/- curl` becomes
 * `{packages: ["curl"]}`), so the values it brought are traced to it like those of any other part.
 */
export function patchValues(text: string): unknown {
  let payload = text.trimStart();
  if (payload.startsWith("#cloud-config-jsonp")) payload = payload.slice("#cloud-config-jsonp".length);
  let operations: unknown;
  try {
    operations = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!Array.isArray(operations)) return undefined;
  const root: Record<string, unknown> = {};
  for (const operation of operations) {
    if (typeof operation !== "object" || operation === null) continue;
    const { op, path, value } = operation as { op?: unknown; path?: unknown; value?: unknown };
    if ((op !== "add" && op !== "replace") || typeof path !== "string" || !path.startsWith("/")) continue;
    const steps = path
      .slice(1)
      .split("/")
      .map((step) => step.replaceAll("~1", "/").replaceAll("~0", "~"));
    place(root, steps, value);
  }
  return root;
}

function place(root: Record<string, unknown>, steps: readonly string[], value: unknown): void {
  let node: unknown = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const last = i === steps.length - 1;
    const nextIsIndex = !last && (steps[i + 1] === "-" || /^\d+$/.test(steps[i + 1]!));
    if (Array.isArray(node)) {
      // List positions do not survive later merges; the value is simply one of the list's items.
      if (last) node.push(value);
      else {
        const child: unknown = nextIsIndex ? [] : {};
        node.push(child);
        node = child;
      }
      continue;
    }
    const dict = node as Record<string, unknown>;
    if (last) {
      Object.defineProperty(dict, step, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    if (!Object.hasOwn(dict, step)) {
      Object.defineProperty(dict, step, {
        value: nextIsIndex ? [] : {},
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    node = dict[step];
  }
}

export type { PathKey };
