import {
  getItem,
  hasItem,
  isMapping,
  type Mapping,
  mappingKeys,
  type PathKey,
  PyFloat,
  pyEquals,
  type TraceEvent,
} from "@merge/core";
import type {
  ExplainDecision,
  ExplainDocument,
  ExplainEntry,
  ExplainLoss,
  ExplainOrigin,
  ExplainRemoval,
  Explanation,
} from "./model.js";

interface Place {
  readonly document: number;
  readonly path: readonly PathKey[];
}

interface Source extends Place {
  readonly node: unknown;
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
  const removals: TraceEvent[] = [];
  // Inputs a merger decided something for while merging them (kept out, removed, replaced...).
  const decided = new Set<number>();
  for (const event of events) {
    if (event.document !== undefined) decided.add(event.document);
    if (event.action === "removed") {
      removals.push(event);
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
    const origin = { document, name: documents[document]!.name, path, line: at?.line, column: at?.column };
    const detail = documents[document]!.detailOf?.(path);
    return detail === undefined ? origin : { ...origin, detail };
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

  // Where the current result path is in each input that has it: the node there and its path in that input. Mostly
  // the same path; list items that moved (appended, prepended, matched by a key) are followed to their own index.
  type Sources = readonly Source[];

  function scalarOrigin(value: unknown, sources: Sources): ExplainOrigin | undefined {
    for (let i = sources.length - 1; i >= 0; i--) {
      const source = sources[i]!;
      if (sameValue(source.node, value)) return originAt(source.document, source.path);
    }
    return undefined;
  }

  function childSources(sources: Sources, key: PathKey): Source[] {
    const out: Source[] = [];
    for (const source of sources) {
      const node = source.node;
      if (isMapping(node) && hasItem(node, key)) {
        out.push({ document: source.document, node: getItem(node, key), path: [...source.path, key] });
      }
    }
    return out;
  }

  // For the items of a list that is not one input's list: which input (and index there) each item came from, and
  // where each item's contents sit in every input.
  function listItems(
    list: readonly unknown[],
    sources: Sources,
  ): { place: Place | undefined; sources: Source[] }[] {
    const candidates = sources
      .filter((source) => Array.isArray(source.node))
      .map((source) => ({
        ...source,
        items: source.node as unknown[],
        unused: scalarQueues(source.node as unknown[]),
      }));
    return list.map((item, index) => {
      let place: Place | undefined;
      const container = isContainer(item);
      if (container) place = places.get(item as object);
      else {
        // Each input's equal items are used once, in order: linear in the list, whatever its length.
        for (const candidate of candidates) {
          const queue = candidate.unused.get(scalarKey(item));
          const at = queue?.shift();
          if (at !== undefined) {
            place = { document: candidate.document, path: [...candidate.path, at] };
            break;
          }
        }
      }
      const inner: Source[] = [];
      if (container) {
        for (const candidate of candidates) {
          const at = isMapping(item) ? matchItem(item, candidate.items, index) : index;
          if (at >= 0 && at < candidate.items.length) {
            inner.push({
              document: candidate.document,
              node: candidate.items[at],
              path: [...candidate.path, at],
            });
          }
        }
      }
      return { place, sources: inner };
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

  function pathIn(document: number, sources: Sources, fallback: readonly PathKey[]): readonly PathKey[] {
    return sources.find((source) => source.document === document)?.path ?? fallback;
  }

  // Inputs something of the result was traced to.
  const used = new Set<number>();

  // What the other inputs had at this mapping key and the result does not hold. A container taken whole from one
  // input (`whole`) means every other input's container there was left out; containers merged from several inputs
  // lost nothing as such (their values say what lost).
  function losses(value: unknown, sources: Sources, winner: number | undefined): ExplainLoss[] {
    if (sources.length === 0) return [];
    const container = Array.isArray(value) || isMapping(value);
    const out: ExplainLoss[] = [];
    for (const source of sources) {
      // What the input had there before its own last value lost first, the winning input's included.
      ownLosses(source.document, source.path, out);
      if (source.document === winner) continue;
      const node = source.node;
      const isList = Array.isArray(node);
      const isDict = !isList && isMapping(node);
      if (isList || isDict) {
        if (node === value) continue;
        if (container && (winner === undefined || isEmpty(node) || pyEquals(node, value))) continue;
        out.push({ origin: originAt(source.document, source.path), kind: isList ? "list" : "dict" });
      } else if (!sameValue(node, value)) {
        out.push({ origin: originAt(source.document, source.path), kind: "value", value: node });
      }
    }
    return out;
  }

  // The values an input replaced itself at a path (its `lostOf`), as losses with their own detail, added to `out`.
  function ownLosses(document: number, path: readonly PathKey[], out: ExplainLoss[]): ExplainLoss[] {
    const earlier = documents[document]!.lostOf?.(path);
    if (earlier === undefined || earlier.length === 0) return out;
    const { detail: _, ...place } = originAt(document, path);
    for (const loser of earlier) {
      const origin = loser.detail === undefined ? place : { ...place, detail: loser.detail };
      const node = loser.value;
      if (Array.isArray(node)) out.push({ origin, kind: "list" });
      else if (isMapping(node)) out.push({ origin, kind: "dict" });
      else out.push({ origin, kind: "value", value: node });
    }
    return out;
  }

  // `inList`: the last step of `path` is a list index (a number may also be an int key of a mapping). `id` is
  // `pathKey(path)`, made a step at a time by the callers. The inputs the value came from are added to `into`
  // (its parent's contributors): no set of its own for each scalar.
  function visit(
    value: unknown,
    path: PathKey[],
    id: string,
    taken: Place | undefined,
    sources: Sources,
    inList: boolean,
    into: Set<number>,
  ): void {
    const own = byPath.get(id);
    const last = own?.[own.length - 1];
    const history = own === undefined ? [] : own.map((event) => decisionOf(event, false));
    const isList = Array.isArray(value);
    const isDict = !isList && isMapping(value);

    let whole = taken;
    if (whole === undefined && (isList || isDict)) whole = places.get(value as object);
    if (isList || isDict) {
      const contributors = new Set<number>();
      // Reserve the container's place so entries come out in document order, parents first.
      const slot = entries.length;
      entries.push(undefined as unknown as ExplainEntry);
      ancestors.push(own ?? []);
      if (isList) {
        const items = value as unknown[];
        const matched = whole === undefined ? listItems(items, sources) : undefined;
        items.forEach((item, index) => {
          const place =
            whole === undefined
              ? matched![index]!.place
              : { document: whole.document, path: [...whole.path, index] };
          path.push(index);
          const itemId = id + stepKey(index);
          visit(item, path, itemId, place, matched?.[index]?.sources ?? [], true, contributors);
          path.pop();
        });
      } else {
        const dict = value as Mapping;
        for (const key of mappingKeys(dict)) {
          const place =
            whole === undefined ? undefined : { document: whole.document, path: [...whole.path, key] };
          path.push(key);
          const child = getItem(dict, key);
          const inner = childSources(sources, key);
          visit(child, path, id + stepKey(key), place, inner, false, contributors);
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
        // A container replaced whole at this path (`__: overwrite`) lost every other input's container there.
        lost: inList
          ? []
          : losses(
              value,
              sources,
              whole?.document ?? (last?.action === "replaced" ? last.document : undefined),
            ),
      };
      for (const d of contributors) {
        used.add(d);
        into.add(d);
      }
      return;
    }

    let origin: ExplainOrigin | undefined;
    if (taken !== undefined) origin = originAt(taken.document, taken.path);
    else if (!inList) origin = scalarOrigin(value, sources);
    if (origin === undefined && last?.document !== undefined) {
      origin = originAt(last.document, pathIn(last.document, sources, path));
    }
    const decider = last ?? inheritedFor(origin?.document);
    if (origin === undefined && decider?.document !== undefined) {
      origin = originAt(decider.document, pathIn(decider.document, sources, path));
    }
    if (origin !== undefined) {
      into.add(origin.document);
      used.add(origin.document);
    }
    entries.push({
      path: path.slice(),
      kind: "value",
      value,
      origin,
      contributors: origin === undefined ? [] : [origin.document],
      decision: decider === undefined ? undefined : decisionOf(decider, decider !== last),
      history,
      // An item of a list has no rival in other inputs, but the input it came from may have replaced its own value.
      lost: inList
        ? origin === undefined
          ? []
          : ownLosses(origin.document, origin.path, [])
        : losses(value, sources, origin?.document),
    });
  }

  visit(
    result,
    [],
    "",
    undefined,
    documents.map((doc, document) => ({ document, node: doc.value, path: [] })),
    false,
    new Set(),
  );
  const removed: ExplainRemoval[] = removals.map((event) => {
    const decision = decisionOf(event, false);
    const items = removedItems(result, event, documents);
    return items === undefined ? { path: event.path, decision } : { path: event.path, decision, items };
  });
  return {
    documents: documents.map((doc, index) => {
      const contributed = used.has(index) || decided.has(index);
      return doc.note === undefined
        ? { index, name: doc.name, contributed }
        : { index, name: doc.name, note: doc.note, contributed };
    }),
    entries,
    removed,
  };
}

/**
 * For a removal at a path that still holds a list in the result, the items were removed, not the key: the items the
 * removing input listed there (PillarStack's `__: remove` list, its directive item left out). Undefined otherwise.
 */
function removedItems(
  result: unknown,
  event: TraceEvent,
  documents: readonly ExplainDocument[],
): unknown[] | undefined {
  if (!Array.isArray(valueAt(result, event.path))) return undefined;
  const source = event.document === undefined ? undefined : documents[event.document];
  const listed = source === undefined ? undefined : valueAt(source.value, event.path);
  if (!Array.isArray(listed)) return [];
  return listed.filter((item) => !isDirective(item));
}

/** `{__: remove}` and the like: a mapping whose only key is `__`. */
function isDirective(item: unknown): boolean {
  if (!isMapping(item)) return false;
  const keys = mappingKeys(item);
  return keys.length === 1 && keys[0] === "__";
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let node = root;
  for (const step of path) {
    if (Array.isArray(node) && typeof step === "number") node = node[step];
    else if (isMapping(node) && hasItem(node, step)) node = getItem(node, step);
    else return undefined;
  }
  return node;
}

function isEmpty(node: unknown): boolean {
  return Array.isArray(node) ? node.length === 0 : isMapping(node) && mappingKeys(node).length === 0;
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
  } else if (isMapping(value)) {
    if (!places.has(value)) places.set(value, { document, path: path.slice() });
    for (const key of mappingKeys(value)) {
      path.push(key);
      indexContainers(getItem(value, key), path, document, places);
      path.pop();
    }
  }
}

/** Indexes of the scalar items of a list by value (a Date by its time), in order. */
function scalarQueues(items: readonly unknown[]): Map<unknown, number[]> {
  const queues = new Map<unknown, number[]>();
  items.forEach((item, index) => {
    if (isContainer(item)) return;
    const key = scalarKey(item);
    const queue = queues.get(key);
    if (queue === undefined) queues.set(key, [index]);
    else queue.push(index);
  });
  return queues;
}

/** Lists and mappings; dates and whole floats are scalars although they are objects. */
function isContainer(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !(value instanceof Date) && !(value instanceof PyFloat)
  );
}

function scalarKey(value: unknown): unknown {
  if (value instanceof Date) return `date:${value.getTime()}`;
  return value instanceof PyFloat ? `float:${value.value}` : value;
}

// Beyond this many items, mappings in a list are followed by index only: the scan would be quadratic.
const MATCH_SCAN_LIMIT = 200;

/** The item of an input's list that a mapping of the result corresponds to (see `bestMatch`). */
function matchItem(item: Mapping, items: readonly unknown[], index: number): number {
  if (items.length > MATCH_SCAN_LIMIT) return index < items.length ? index : -1;
  return bestMatch(item, items);
}

/**
 * The mapping of `items` most like `item`: the one sharing the most equal scalar fields, so an item merged by a key
 * (`name: web`) is followed to its own place in each input. A key both hold a mapping (or both a list) at counts
 * less than an equal field, so items made only of mappings (a database level made a list) are followed too. -1 when
 * none shares anything.
 */
function bestMatch(item: Mapping, items: readonly unknown[]): number {
  let best = -1;
  let bestScore = 0;
  items.forEach((other, index) => {
    if (!isMapping(other)) return;
    let score = 0;
    for (const key of mappingKeys(other)) {
      if (!hasItem(item, key)) continue;
      const value = getItem(other, key);
      const mine = getItem(item, key);
      if (!isContainer(value)) {
        if (sameValue(mine, value)) score += 2;
      } else if (Array.isArray(value) ? Array.isArray(mine) : isMapping(value) && isMapping(mine)) {
        score += 1;
      }
    }
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a instanceof PyFloat && b instanceof PyFloat && Object.is(a.value, b.value);
}

/** A path as a map key that keeps key types apart (`8080` and `"8080"`, a list index and an int key alike). */
function pathKey(path: readonly PathKey[]): string {
  let out = "";
  for (const step of path) out += stepKey(step);
  return out;
}

function stepKey(step: PathKey): string {
  return typeof step === "string" ? `s${step.length}:${step}/` : `${typeof step}:${String(step)}/`;
}
