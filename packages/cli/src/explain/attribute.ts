import { isPlainObject, type PathKey, type TraceEvent } from "@merge/core";
import type {
  ExplainDecision,
  ExplainDocument,
  ExplainEntry,
  ExplainOrigin,
  ExplainRemoval,
  Explanation,
} from "./model.js";

interface Place {
  readonly document: number;
  readonly path: readonly PathKey[];
}

/**
 * Works out, for every value of a merge result, which input supplied it and which merger decided it.
 *
 * Two sources of truth are combined. Trace events (recorded by the engine and the mergers) say which merger did
 * what at which path while merging which document. Values say where they came from: a mapping or list taken whole
 * from an input is the very same object (merges share untouched subtrees), and a scalar is matched against the
 * inputs at the same path — the latest input holding that value at a mapping key, the first unused equal item for
 * list items (so appended and prepended items each find their own input). What neither settles (a concatenated
 * string) is attributed to the document the last event at that path was merging.
 */
export function explainResult(
  result: unknown,
  documents: readonly ExplainDocument[],
  events: readonly TraceEvent[],
): Explanation {
  const byPath = new Map<string, TraceEvent[]>();
  const removed: ExplainRemoval[] = [];
  for (const event of events) {
    if (event.action === "removed") {
      removed.push({ path: event.path, decision: decisionOf(event, false) });
      continue;
    }
    const key = pathKey(event.path);
    const list = byPath.get(key);
    if (list === undefined) byPath.set(key, [event]);
    else list.push(event);
  }

  // Every mapping and list of every input, by identity, with where it sits.
  const places = new Map<object, Place>();
  documents.forEach((doc, document) => {
    indexContainers(doc.value, [], document, places);
  });

  const entries: ExplainEntry[] = [];

  function positionIn(document: number, path: readonly PathKey[]) {
    return documents[document]?.positionOf?.(path);
  }

  function originAt(document: number, path: readonly PathKey[]): ExplainOrigin {
    const at = positionIn(document, path);
    return { document, name: documents[document]!.name, path, line: at?.line, column: at?.column };
  }

  function decisionOf(event: TraceEvent, inherited: boolean): ExplainDecision {
    const at = event.document === undefined ? undefined : positionIn(event.document, event.path);
    return {
      action: event.action,
      merger: event.merger,
      document: event.document,
      name: event.document === undefined ? undefined : documents[event.document]?.name,
      line: at?.line,
      column: at?.column,
      detail: event.detail,
      inherited,
    };
  }

  function scalarOrigin(value: unknown, path: readonly PathKey[]): ExplainOrigin | undefined {
    for (let document = documents.length - 1; document >= 0; document--) {
      const found = lookup(documents[document]!.value, path);
      if (found.ok && sameValue(found.value, value)) return originAt(document, path);
    }
    return undefined;
  }

  // For the items of a list that is not one input's list: which input (and index there) each item came from.
  function listOrigins(list: readonly unknown[], path: readonly PathKey[]): (Place | undefined)[] {
    const candidates: { document: number; items: readonly unknown[]; used: boolean[] }[] = [];
    documents.forEach((doc, document) => {
      const found = lookup(doc.value, path);
      if (found.ok && Array.isArray(found.value)) {
        candidates.push({ document, items: found.value, used: new Array(found.value.length).fill(false) });
      }
    });
    return list.map((item) => {
      if (typeof item === "object" && item !== null) {
        const place = places.get(item);
        if (place !== undefined) return place;
      }
      for (const candidate of candidates) {
        const index = candidate.items.findIndex((other, i) => !candidate.used[i] && sameValue(other, item));
        if (index >= 0) {
          candidate.used[index] = true;
          return { document: candidate.document, path: [...path, index] };
        }
      }
      return undefined;
    });
  }

  // The event lists of the enclosing paths, nearest last: a value without events of its own was decided when one
  // of its ancestors was (added whole, appended with its list).
  const ancestors: (readonly TraceEvent[])[] = [];

  function inheritedFor(document: number | undefined): TraceEvent | undefined {
    for (let level = ancestors.length - 1; level >= 0; level--) {
      const list = ancestors[level]!;
      for (let i = list.length - 1; i >= 0; i--) {
        if (document === undefined || list[i]!.document === document) return list[i];
      }
    }
    return undefined;
  }

  function visit(value: unknown, path: PathKey[], taken: Place | undefined): Set<number> {
    const own = byPath.get(pathKey(path));
    const last = own?.[own.length - 1];
    const history = own === undefined ? [] : own.map((event) => decisionOf(event, false));
    const isList = Array.isArray(value);
    const isDict = !isList && isPlainObject(value);

    let whole = taken;
    if (whole === undefined && (isList || isDict)) whole = places.get(value as object);
    const contributors = new Set<number>();

    if (isList || isDict) {
      // Reserve the container's place so entries come out in document order, parents first.
      const slot = entries.length;
      entries.push(undefined as unknown as ExplainEntry);
      ancestors.push(own ?? []);
      if (isList) {
        const items = value as unknown[];
        const origins = whole === undefined ? listOrigins(items, path) : undefined;
        items.forEach((item, index) => {
          const place =
            whole === undefined
              ? origins![index]
              : { document: whole.document, path: [...whole.path, index] };
          path.push(index);
          for (const d of visit(item, path, place)) contributors.add(d);
          path.pop();
        });
      } else {
        for (const key of Object.keys(value as object)) {
          const place =
            whole === undefined ? undefined : { document: whole.document, path: [...whole.path, key] };
          path.push(key);
          for (const d of visit((value as Record<string, unknown>)[key], path, place)) contributors.add(d);
          path.pop();
        }
      }
      ancestors.pop();
      if (whole !== undefined) contributors.add(whole.document);
      const decider = last ?? inheritedFor(whole?.document);
      entries[slot] = {
        path: path.slice(),
        kind: isList ? "list" : "dict",
        origin: whole === undefined ? undefined : originAt(whole.document, whole.path),
        contributors: [...contributors].sort((a, b) => a - b),
        decision: decider === undefined ? undefined : decisionOf(decider, decider !== last),
        history,
      };
      return contributors;
    }

    let origin: ExplainOrigin | undefined;
    if (taken !== undefined) origin = originAt(taken.document, taken.path);
    else if (typeof path[path.length - 1] !== "number") origin = scalarOrigin(value, path);
    if (origin === undefined && last?.document !== undefined) origin = originAt(last.document, path);
    const decider = last ?? inheritedFor(origin?.document);
    if (origin === undefined && decider?.document !== undefined) origin = originAt(decider.document, path);
    if (origin !== undefined) contributors.add(origin.document);
    entries.push({
      path: path.slice(),
      kind: "value",
      value,
      origin,
      contributors: [...contributors],
      decision: decider === undefined ? undefined : decisionOf(decider, decider !== last),
      history,
    });
    return contributors;
  }

  visit(result, [], undefined);
  return {
    documents: documents.map((doc, index) =>
      doc.note === undefined ? { index, name: doc.name } : { index, name: doc.name, note: doc.note },
    ),
    entries,
    removed,
  };
}

function indexContainers(
  value: unknown,
  path: PathKey[],
  document: number,
  places: Map<object, Place>,
): void {
  if (Array.isArray(value)) {
    if (!places.has(value)) places.set(value, { document, path: path.slice() });
    value.forEach((item, index) => {
      path.push(index);
      indexContainers(item, path, document, places);
      path.pop();
    });
  } else if (isPlainObject(value)) {
    if (!places.has(value)) places.set(value, { document, path: path.slice() });
    for (const key of Object.keys(value)) {
      path.push(key);
      indexContainers(value[key], path, document, places);
      path.pop();
    }
  }
}

function lookup(root: unknown, path: readonly PathKey[]): { ok: boolean; value?: unknown } {
  let node = root;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === "number" && key < node.length) node = node[key];
    else if (isPlainObject(node) && typeof key === "string" && Object.hasOwn(node, key)) node = node[key];
    else return { ok: false };
  }
  return { ok: true, value: node };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}

function pathKey(path: readonly PathKey[]): string {
  return JSON.stringify(path);
}
